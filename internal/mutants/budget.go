package mutants

import (
	"context"
	"slices"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
)

// budgetMutant is the reference with one budget behaviour replaced.
type budgetMutant struct {
	server.Reference
	messageTokens func(message.Message) int
	limits        func(map[string]int) (budget.Limits, error)
	approaching   func(count, limit int) bool
	atLimit       func(count, limit int) bool
	prune         func([]message.Message, int, int) ([]message.Message, []int, error)
	prepare       func(context.Context, []message.Message, string, budget.Limits, budget.Summarizer) ([]message.Message, []budget.Event, error)
}

func (b budgetMutant) Name() string { return "convspec-mutant" }

func (b budgetMutant) MessageTokens(m message.Message) int {
	if b.messageTokens != nil {
		return b.messageTokens(m)
	}
	return b.Reference.MessageTokens(m)
}

func (b budgetMutant) Limits(extra map[string]int) (budget.Limits, error) {
	if b.limits != nil {
		return b.limits(extra)
	}
	return b.Reference.Limits(extra)
}

func (b budgetMutant) Approaching(count, limit int) bool {
	if b.approaching != nil {
		return b.approaching(count, limit)
	}
	return b.Reference.Approaching(count, limit)
}

func (b budgetMutant) AtLimit(count, limit int) bool {
	if b.atLimit != nil {
		return b.atLimit(count, limit)
	}
	return b.Reference.AtLimit(count, limit)
}

func (b budgetMutant) PruneBudget(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if b.prune != nil {
		return b.prune(msgs, limit, percent)
	}
	return b.Reference.PruneBudget(msgs, limit, percent)
}

func (b budgetMutant) Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
	if b.prepare != nil {
		return b.prepare(ctx, msgs, model, limits, s)
	}
	return b.Reference.Prepare(ctx, msgs, model, limits, s)
}

func budgetMutants() []Mutant {
	return []Mutant{
		{
			Name: "budget-counts-bytes", Bug: "counts ceil(UTF-8 bytes / 4) instead of cl100k tokens",
			Clauses: []string{"TOK-2", "TOK-3"},
			Engine:  budgetMutant{messageTokens: func(m message.Message) int { return (len(m.Raw()) + 3) / 4 }},
		},
		{
			Name: "budget-ignores-role", Bug: "counts only the content, not the role",
			Clauses: []string{"TOK-2"},
			Engine:  budgetMutant{messageTokens: func(m message.Message) int { return budget.MessageTokens(m) - 1 }},
		},
		{
			Name: "budget-at-80-is-approaching", Bug: "uses >= where the spec says >: exactly 80% counts as approaching",
			Clauses: []string{"THR-1"},
			Engine:  budgetMutant{approaching: func(c, l int) bool { return 100*c >= budget.WarnPercent*l }},
		},
		{
			Name: "budget-at-95-is-at-limit", Bug: "uses >= where the spec says >: exactly 95% counts as at the limit",
			Clauses: []string{"THR-2"},
			Engine:  budgetMutant{atLimit: func(c, l int) bool { return 100*c >= budget.HardPercent*l }},
		},
		{
			Name: "budget-prunes-system-prompt", Bug: "starts pruning at index 0, dropping the system prompt",
			Clauses: []string{"PRN-2"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				kept, removed, err := budget.Prune(msgs, limit, percent)
				if err != nil || len(removed) == 0 {
					return kept, removed, err
				}
				return kept[1:], append([]int{0}, removed...), nil
			}},
		},
		{
			Name: "budget-prunes-newest", Bug: "removes the newest messages before the final one instead of the oldest",
			Clauses: []string{"PRN-1"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				if len(msgs) < 3 {
					return budget.Prune(msgs, limit, percent)
				}
				// prune the reversed middle, then map positions back
				mid := slices.Clone(msgs[1 : len(msgs)-1])
				slices.Reverse(mid)
				rev := append(append([]message.Message{msgs[0]}, mid...), msgs[len(msgs)-1])
				_, removed, err := budget.Prune(rev, limit, percent)
				if err != nil {
					return budget.Prune(msgs, limit, percent)
				}
				gone := map[int]bool{}
				var orig []int
				for _, r := range removed {
					o := len(msgs) - 1 - r
					gone[o] = true
					orig = append(orig, o)
				}
				slices.Sort(orig)
				var kept []message.Message
				for i, m := range msgs {
					if !gone[i] {
						kept = append(kept, m)
					}
				}
				return kept, orig, nil
			}},
		},
		{
			Name: "budget-recursive-compression", Bug: "compresses again when the compressed conversation is still at the limit (the summarizer call is checked too)",
			Clauses: []string{"PREP-3", "PREP-4"},
			Engine: budgetMutant{prepare: func(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
				out, events, err := budget.Prepare(ctx, msgs, model, limits, s)
				if err == nil {
					return out, events, nil
				}
				// "retry" by compressing the already compressed conversation
				again, cerr := budget.Compress(ctx, msgs, s)
				if cerr == nil {
					_, _ = budget.Compress(ctx, again, s)
				}
				return out, events, err
			}},
		},
		{
			Name: "budget-default-limit", Bug: "silently uses 128,000 for a model it does not know",
			Clauses: []string{"LIM-2"},
			Engine: budgetMutant{limits: func(extra map[string]int) (budget.Limits, error) {
				l, err := budget.NewLimits(extra)
				if err != nil {
					return nil, err
				}
				return anyModel(l), nil
			}},
		},
		{
			Name: "budget-warns-after-pruning", Bug: "reports the token count after pruning in context_window_approaching",
			Clauses: []string{"PREP-2"},
			Engine: budgetMutant{prepare: func(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
				out, events, err := budget.Prepare(ctx, msgs, model, limits, s)
				for i := range events {
					if events[i].Name == budget.EventApproaching {
						events[i].TokenCount = budget.Count(out)
					}
				}
				return out, events, err
			}},
		},
	}
}

// anyModel returns a registry in which every model name resolves, as if
// the map lookup had a default.
func anyModel(l budget.Limits) budget.Limits {
	for _, m := range []string{"gpt-5-turbo-preview", "no-such-model"} {
		if _, ok := l[m]; !ok {
			l[m] = 128_000
		}
	}
	return l
}
