//go:build unix

package eviction

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time: on a shared machine
// it tells the work done from the time waited.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
