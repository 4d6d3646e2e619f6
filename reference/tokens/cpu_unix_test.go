//go:build unix

package tokens

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used
// so far, on every thread: unlike wall time, it hardly depends on what else
// the machine runs.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
