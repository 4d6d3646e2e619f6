package target

import (
	"time"
)

// The harness's limits are measured in time during which the harness itself
// was awake (D-44): on a CI runner whose process group is stopped (a paused
// VM, SIGSTOP) or starved, wall time passes while neither the harness nor
// the implementation runs, and a limit measured on the wall clock would fail
// a correct implementation for the machine's state. A stall shows as a gap
// between two ticks of a ticker; a gap longer than awakeMaxGap counts as
// awakeMaxGap. A hung implementation still reaches every limit: the harness
// is awake while it waits.
const (
	awakeTick   = 10 * time.Millisecond
	awakeMaxGap = 50 * time.Millisecond
)

// afterAwake returns a channel that is closed once d of awake time has
// passed, and a function that releases the timer early. The channel is
// never closed after stop.
func afterAwake(d time.Duration) (expired <-chan struct{}, stop func()) {
	done, quit := make(chan struct{}), make(chan struct{})
	go func() {
		tick := time.NewTicker(min(awakeTick, max(d, time.Millisecond)))
		defer tick.Stop()
		var awake time.Duration
		last := time.Now()
		for awake < d {
			select {
			case <-tick.C:
			case <-quit:
				return
			}
			now := time.Now()
			awake += min(now.Sub(last), awakeMaxGap)
			last = now
		}
		close(done)
	}()
	stopped := false
	return done, func() {
		if !stopped {
			stopped = true
			close(quit)
		}
	}
}

// scaledTimeout is a request's time limit: the configured one, and the same
// again for every MiB of the request line, so that a request whose work is
// large (every operation costs time linear in its input, spec/protocol.md
// "Limits") is not failed for its size on a slow machine (D-44).
func scaledTimeout(timeout time.Duration, lineBytes int) time.Duration {
	const mib = 1 << 20
	return timeout + timeout*time.Duration(lineBytes/mib)
}
