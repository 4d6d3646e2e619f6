package mutants

// Faulty variants of the capability loop (LOOP-*) and of the
// configuration the loop reads.

import (
	"context"

	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// withTrimmer runs the loop with the reference's window wrapped by wrap.
func withTrimmer(wrap func(*window.Window) loop.Trimmer) func(context.Context, loop.Run) (loop.Result, error) {
	return func(ctx context.Context, r loop.Run) (loop.Result, error) {
		w, err := window.New(loop.Effective(r.Config))
		if err != nil {
			return loop.Result{}, err
		}
		return loop.ExecuteWith(ctx, r, wrap(w))
	}
}

// editingEvents runs the loop with run and replaces each iteration's
// events with what edit makes of them.
func editingEvents(run func(context.Context, loop.Run) (loop.Result, error), edit func(r loop.Run, it loop.IterationResult) []window.Warning) func(context.Context, loop.Run) (loop.Result, error) {
	return func(ctx context.Context, r loop.Run) (loop.Result, error) {
		res, err := run(ctx, r)
		for i, it := range res.Iterations {
			res.Iterations[i].Events = edit(r, it)
		}
		return res, err
	}
}

// onlyWhen trims with w when trim says so and otherwise passes msgs on
// untouched.
func onlyWhen(w *window.Window, trim func([]message.Message) bool) loop.Trimmer {
	return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
		if len(msgs) == 0 || trim(msgs) {
			return w.TrimWith(ctx, msgs, s)
		}
		return window.Result{Trimmed: msgs, Evicted: []message.Message{}, Metrics: window.Metrics{TotalMessages: len(msgs), PreservedMessages: len(msgs), EstimatedTokens: window.EstimateTokens(msgs)}}, nil
	})
}

func withoutCode(ws []window.Warning, code string) []window.Warning {
	var out []window.Warning
	for _, w := range ws {
		if w.Code != code {
			out = append(out, w)
		}
	}
	return out
}
