package mutants

// The engine of the variants that are the reference with named fault
// points on (D-68): no copy of reference code, so a variant follows every
// change of the reference except at its own points.

import (
	"context"
	"encoding/json"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// faulty is the reference with the points of faults on: the Set rides in
// the context of every operation that takes one, and the reference
// consults it at the lines the points name.
type faulty struct {
	server.Reference
	faults fault.Set
}

func (faulty) Name() string { return "convspec-mutant" }

func (e faulty) NewWindow(c json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	w, cfg, warnings, err := e.Reference.NewWindow(c)
	if err != nil {
		return nil, cfg, warnings, err
	}
	return faultyWindow{w: w, faults: e.faults}, cfg, warnings, nil
}

func (e faulty) Summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	return e.Reference.Summarize(fault.With(ctx, e.faults), msgs, s)
}

func (e faulty) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	return e.Reference.Compress(fault.With(ctx, e.faults), msgs, s)
}

func (e faulty) Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
	return e.Reference.Prepare(fault.With(ctx, e.faults), msgs, model, limits, s)
}

func (e faulty) RunLoop(ctx context.Context, r loop.Run) (loop.Result, error) {
	return e.Reference.RunLoop(fault.With(ctx, e.faults), r)
}

// faultyWindow is a reference window whose trims see the points.
type faultyWindow struct {
	w      server.Window
	faults fault.Set
}

func (f faultyWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	return f.w.TrimWith(fault.With(ctx, f.faults), msgs, s)
}

// withFaults gives each variant that names fault points the engine that
// turns them on.
func withFaults(ms []Mutant) []Mutant {
	for i, m := range ms {
		if !m.Faults.Empty() {
			ms[i].Engine = faulty{faults: m.Faults}
		}
	}
	return ms
}

// Traced is m recording into t which of its fault points the reference
// reaches; m itself when it names none.
func (m Mutant) Traced(t *fault.Trace) Mutant {
	if !m.Faults.Empty() {
		m.Engine = faulty{faults: m.Faults.Traced(t)}
	}
	return m
}
