package mutants

// Faulty variants of the capability loop (LOOP-*) and of the
// configuration the loop reads.

import (
	"context"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// loopMutant is the reference with its config resolution or provider loop
// replaced.
type loopMutant struct {
	server.Reference
	resolve func(text []byte, f config.Format) (config.Resolved, error)
	run     func(ctx context.Context, r loop.Run) (loop.Result, error)
}

func (l loopMutant) Name() string { return "convspec-mutant" }

func (l loopMutant) ResolveConfig(text []byte, f config.Format) (config.Resolved, error) {
	if l.resolve != nil {
		return l.resolve(text, f)
	}
	return l.Reference.ResolveConfig(text, f)
}

func (l loopMutant) RunLoop(ctx context.Context, r loop.Run) (loop.Result, error) {
	if l.run != nil {
		return l.run(ctx, r)
	}
	return l.Reference.RunLoop(ctx, r)
}

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
