package target

import (
	"sync"
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
//
// Nothing runs until the first tick: most limits guard a request that is
// answered within a millisecond, and a goroutine (or a ticker) per request
// would be two more wake-ups of the harness for each request, which over
// a whole run cost more CPU than the requests' own work on the harness's
// side of the pipe.
func afterAwake(d time.Duration) (expired <-chan struct{}, stop func()) {
	a := &awakeTimer{done: make(chan struct{}), limit: d, tick: min(awakeTick, max(d, time.Millisecond)), last: time.Now()}
	if d <= 0 {
		close(a.done)
		return a.done, func() {}
	}
	a.mu.Lock()
	a.timer = time.AfterFunc(a.tick, a.ticked)
	a.mu.Unlock()
	return a.done, a.stop
}

// awakeTimer counts the awake time since it was started, a tick at a time.
type awakeTimer struct {
	mu      sync.Mutex
	timer   *time.Timer
	done    chan struct{}
	limit   time.Duration
	tick    time.Duration
	awake   time.Duration
	last    time.Time
	stopped bool
}

// ticked adds the time since the last tick, but at most awakeMaxGap (a
// longer gap is a stall), and closes done once the limit is reached.
func (a *awakeTimer) ticked() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		return
	}
	now := time.Now()
	a.awake += min(now.Sub(a.last), awakeMaxGap)
	a.last = now
	if a.awake >= a.limit {
		a.stopped = true
		close(a.done)
		return
	}
	a.timer.Reset(a.tick)
}

func (a *awakeTimer) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.stopped {
		a.stopped = true
		a.timer.Stop()
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
