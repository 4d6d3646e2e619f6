package mutants

import (
	"context"
	"encoding/json"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// replaced is the reference with any of its behaviours replaced: a nil
// function is the reference's own. A variant that wraps the reference's
// answer, or is another algorithm, is one of these with one or two
// functions set; one that is a changed line of the reference is a fault
// point instead (D-68, faulty.go), and one engine type per behaviour is
// not needed beside it.
type replaced struct {
	server.Reference
	newWindow   func(json.RawMessage) (server.Window, window.Config, []window.Warning, error)
	estimate    func([]message.Message) int
	classify    func([]message.Message) ([]message.Class, []message.Unit, error)
	prune       func([]message.Message) ([]message.Message, []int)
	build       func([]message.Message, int) (history.Result, error)
	summarize   func(context.Context, []message.Message, window.Summarizer) (string, error)
	encode      func(string) []int
	msgTokens   func(message.Message) int
	limits      func(map[string]int) (budget.Limits, error)
	approaching func(count, limit int) bool
	atLimit     func(count, limit int) bool
	pruneBudget func([]message.Message, int, int) ([]message.Message, []int, error)
	compress    func(context.Context, []message.Message, budget.Summarizer) ([]message.Message, error)
	prepare     func(context.Context, []message.Message, string, budget.Limits, budget.Summarizer) ([]message.Message, []budget.Event, error)
	resolve     func([]byte, config.Format) (config.Resolved, error)
	runLoop     func(context.Context, loop.Run) (loop.Result, error)
}

func (replaced) Name() string { return "convspec-mutant" }

func (e replaced) NewWindow(c json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	if e.newWindow != nil {
		return e.newWindow(c)
	}
	return e.Reference.NewWindow(c)
}

func (e replaced) EstimateTokens(msgs []message.Message) int {
	if e.estimate != nil {
		return e.estimate(msgs)
	}
	return e.Reference.EstimateTokens(msgs)
}

func (e replaced) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	if e.classify != nil {
		return e.classify(msgs)
	}
	return e.Reference.Classify(msgs)
}

func (e replaced) Prune(msgs []message.Message) ([]message.Message, []int) {
	if e.prune != nil {
		return e.prune(msgs)
	}
	return e.Reference.Prune(msgs)
}

func (e replaced) Build(msgs []message.Message, max int) (history.Result, error) {
	if e.build != nil {
		return e.build(msgs, max)
	}
	return e.Reference.Build(msgs, max)
}

func (e replaced) Summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	if e.summarize != nil {
		return e.summarize(ctx, msgs, s)
	}
	return e.Reference.Summarize(ctx, msgs, s)
}

func (e replaced) EncodeTokens(text string) []int {
	if e.encode != nil {
		return e.encode(text)
	}
	return e.Reference.EncodeTokens(text)
}

func (e replaced) MessageTokens(m message.Message) int {
	if e.msgTokens != nil {
		return e.msgTokens(m)
	}
	return e.Reference.MessageTokens(m)
}

func (e replaced) Limits(extra map[string]int) (budget.Limits, error) {
	if e.limits != nil {
		return e.limits(extra)
	}
	return e.Reference.Limits(extra)
}

func (e replaced) Approaching(count, limit int) bool {
	if e.approaching != nil {
		return e.approaching(count, limit)
	}
	return e.Reference.Approaching(count, limit)
}

func (e replaced) AtLimit(count, limit int) bool {
	if e.atLimit != nil {
		return e.atLimit(count, limit)
	}
	return e.Reference.AtLimit(count, limit)
}

func (e replaced) PruneBudget(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if e.pruneBudget != nil {
		return e.pruneBudget(msgs, limit, percent)
	}
	return e.Reference.PruneBudget(msgs, limit, percent)
}

func (e replaced) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	if e.compress != nil {
		return e.compress(ctx, msgs, s)
	}
	return e.Reference.Compress(ctx, msgs, s)
}

func (e replaced) Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
	if e.prepare != nil {
		return e.prepare(ctx, msgs, model, limits, s)
	}
	return e.Reference.Prepare(ctx, msgs, model, limits, s)
}

func (e replaced) ResolveConfig(text []byte, f config.Format) (config.Resolved, error) {
	if e.resolve != nil {
		return e.resolve(text, f)
	}
	return e.Reference.ResolveConfig(text, f)
}

func (e replaced) RunLoop(ctx context.Context, r loop.Run) (loop.Result, error) {
	if e.runLoop != nil {
		return e.runLoop(ctx, r)
	}
	return e.Reference.RunLoop(ctx, r)
}
