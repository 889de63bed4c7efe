//go:build !unix

package testbuild

import "time"

// CPUTime is not measured on this platform: it is always 0.
func CPUTime() time.Duration { return 0 }
