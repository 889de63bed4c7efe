//go:build unix

package testbuild

import (
	"syscall"
	"time"
)

// CPUTime is the process's user and system CPU time, all threads: on a
// shared machine it tells the work a benchmark did from the time it waited.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
