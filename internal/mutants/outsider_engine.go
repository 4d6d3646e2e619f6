package mutants

// The outsider variants: faulty variants written by a reviewer who read only
// spec/, reference/ and internal/server/, never the suite's generators and
// checks, to measure how much of the spec the suite really pins down. Each
// variant names, in a comment, a valid input on which it deviates.
//
// They are part of All, so TestSuiteKillsEveryMutant checks that the suite
// kills each one.

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

// outsiderEngine is the reference with any of its behaviours replaced.
type outsiderEngine struct {
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

func (outsiderEngine) Name() string { return "convspec-mutant" }

func (e outsiderEngine) NewWindow(c json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	if e.newWindow != nil {
		return e.newWindow(c)
	}
	return e.Reference.NewWindow(c)
}

func (e outsiderEngine) EstimateTokens(msgs []message.Message) int {
	if e.estimate != nil {
		return e.estimate(msgs)
	}
	return e.Reference.EstimateTokens(msgs)
}

func (e outsiderEngine) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	if e.classify != nil {
		return e.classify(msgs)
	}
	return e.Reference.Classify(msgs)
}

func (e outsiderEngine) Prune(msgs []message.Message) ([]message.Message, []int) {
	if e.prune != nil {
		return e.prune(msgs)
	}
	return e.Reference.Prune(msgs)
}

func (e outsiderEngine) Build(msgs []message.Message, max int) (history.Result, error) {
	if e.build != nil {
		return e.build(msgs, max)
	}
	return e.Reference.Build(msgs, max)
}

func (e outsiderEngine) Summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	if e.summarize != nil {
		return e.summarize(ctx, msgs, s)
	}
	return e.Reference.Summarize(ctx, msgs, s)
}

func (e outsiderEngine) EncodeTokens(text string) []int {
	if e.encode != nil {
		return e.encode(text)
	}
	return e.Reference.EncodeTokens(text)
}

func (e outsiderEngine) MessageTokens(m message.Message) int {
	if e.msgTokens != nil {
		return e.msgTokens(m)
	}
	return e.Reference.MessageTokens(m)
}

func (e outsiderEngine) Limits(extra map[string]int) (budget.Limits, error) {
	if e.limits != nil {
		return e.limits(extra)
	}
	return e.Reference.Limits(extra)
}

func (e outsiderEngine) Approaching(count, limit int) bool {
	if e.approaching != nil {
		return e.approaching(count, limit)
	}
	return e.Reference.Approaching(count, limit)
}

func (e outsiderEngine) AtLimit(count, limit int) bool {
	if e.atLimit != nil {
		return e.atLimit(count, limit)
	}
	return e.Reference.AtLimit(count, limit)
}

func (e outsiderEngine) PruneBudget(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if e.pruneBudget != nil {
		return e.pruneBudget(msgs, limit, percent)
	}
	return e.Reference.PruneBudget(msgs, limit, percent)
}

func (e outsiderEngine) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	if e.compress != nil {
		return e.compress(ctx, msgs, s)
	}
	return e.Reference.Compress(ctx, msgs, s)
}

func (e outsiderEngine) Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
	if e.prepare != nil {
		return e.prepare(ctx, msgs, model, limits, s)
	}
	return e.Reference.Prepare(ctx, msgs, model, limits, s)
}

func (e outsiderEngine) ResolveConfig(text []byte, f config.Format) (config.Resolved, error) {
	if e.resolve != nil {
		return e.resolve(text, f)
	}
	return e.Reference.ResolveConfig(text, f)
}

func (e outsiderEngine) RunLoop(ctx context.Context, r loop.Run) (loop.Result, error) {
	if e.runLoop != nil {
		return e.runLoop(ctx, r)
	}
	return e.Reference.RunLoop(ctx, r)
}

// outsiderWindowWith serves windows whose trim is trim, over the
// reference's config parsing.
func outsiderWindowWith(trim func(cfg window.Config, w *window.Window, ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error)) func(json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	return func(raw json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
		cfg, err := window.ParseConfig(raw)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		w, err := window.New(cfg)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
			return trim(cfg, w, ctx, msgs, s)
		}), cfg, cfg.Warnings(), nil
	}
}

// outsiderMutants are the outsider variants; the suite kills every one.
// The review's three survivors are killed by scenarios written for them:
// white space judged by ASCII under SUM-6 (the SUM-6 scenario of Unicode
// white space alone), a tool_use without input rendered as null (SUM-1)
// and a second leading system message counted against max_messages
// (BUILD-3); the last two had been killed by differential properties
// only, at conform's 100 checks but not at the kill test's 50.
func outsiderMutants() []Mutant {
	return outsiderAll()
}

func outsiderAll() []Mutant {
	var ms []Mutant
	for _, group := range [][]Mutant{outsiderBudgetMutants(), outsiderHistoryMutants(), outsiderTokenMutants(), outsiderWindowMutants(), outsiderSummarizeMutants(), outsiderConfigMutants(), outsiderLoopMutants()} {
		ms = append(ms, group...)
	}
	return ms
}

type outsiderServerWindow = server.Window

// outsiderRef is the reference the variants fall back on.
var outsiderRef = server.Reference{}
