package runner

import (
	"cmp"
	"slices"
	"sync"
)

// Progress is what a run tells Options.Progress as it goes: how many of
// the selected cases have an outcome, and the cases under way.
type Progress struct {
	Done, Total int
	// Running are the IDs of the cases under way, in the order they
	// started (one per worker at most).
	Running []string
}

// progress counts a run's cases for Options.Progress; every method is safe
// on a nil *progress (no callback) and from any worker.
type progress struct {
	report func(Progress)

	mu      sync.Mutex
	state   Progress
	running map[string]int // case ID → start order
	started int
}

func newProgress(opts Options) (*progress, error) {
	if opts.Progress == nil {
		return nil, nil
	}
	cases, err := listCases(opts)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, c := range cases {
		if opts.selected(c.ID) && !AboutTheChecker(c) {
			total++
		}
	}
	return &progress{report: opts.Progress, state: Progress{Total: total}, running: map[string]int{}}, nil
}

// start says that the case id is under way.
func (p *progress) start(id string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.started++
	p.running[id] = p.started
	p.send()
}

// finish says that the case id has its outcome (whether or not it started).
func (p *progress) finish(id string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, id)
	p.state.Done++
	p.send()
}

// send reports the state; the caller holds p.mu, so that reports arrive in
// order.
func (p *progress) send() {
	running := make([]string, 0, len(p.running))
	for id := range p.running {
		running = append(running, id)
	}
	slices.SortFunc(running, func(a, b string) int { return cmp.Compare(p.running[a], p.running[b]) })
	p.report(Progress{Done: p.state.Done, Total: p.state.Total, Running: running})
}
