package mutants

// Faulty variants of the capability budget: token counts, thresholds,
// budget pruning and compression.

import (
	"context"
	"slices"
	"strings"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// limitsEdited is the reference's limits registry, custom limits
// included, with edit applied to it; a custom limit the reference refuses
// is refused.
func limitsEdited(edit func(l budget.Limits, extra map[string]int) budget.Limits) replaced {
	return replaced{limits: func(extra map[string]int) (budget.Limits, error) {
		l, err := budget.NewLimits(extra)
		if err != nil {
			return nil, err
		}
		return edit(l, extra), nil
	}}
}

// anyModel returns a registry in which every model name resolves, as if
// the map lookup had a default.
func anyModel(l budget.Limits, _ map[string]int) budget.Limits {
	for _, m := range []string{"gpt-5-turbo-preview", "no-such-model"} {
		if _, ok := l[m]; !ok {
			l[m] = 128_000
		}
	}
	return l
}

// cl100kSpecials are cl100k_base's special tokens.
var cl100kSpecials = map[string]int{
	"<|endoftext|>":   100257,
	"<|fim_prefix|>":  100258,
	"<|fim_middle|>":  100259,
	"<|fim_suffix|>":  100260,
	"<|endofprompt|>": 100276,
}

// encodeWithSpecials encodes the text between special-token texts as
// ordinary text and each special-token text as its special token.
func encodeWithSpecials(text string) []int {
	ids := []int{}
	for len(text) > 0 {
		at, which := len(text), ""
		for s := range cl100kSpecials {
			if i := strings.Index(text, s); i >= 0 && (i < at || i == at && s < which) {
				at, which = i, s
			}
		}
		ids = append(ids, tokens.Encode(text[:at])...)
		if which == "" {
			break
		}
		ids = append(ids, cl100kSpecials[which])
		text = text[at+len(which):]
	}
	return ids
}

// placeholderOnFailure answers for a failing summaryFn.
type placeholderOnFailure struct{ budget.Summarizer }

func (p placeholderOnFailure) Summarize(ctx context.Context, msgs []message.Message) (string, error) {
	text, err := p.Summarizer.Summarize(ctx, msgs)
	if err != nil {
		return "[Earlier conversation omitted: summary unavailable]", nil
	}
	return text, nil
}

// messageByMessagePrune removes single messages after the first, oldest
// first, before the final one, blind to units.
func messageByMessagePrune(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, limit, percent)
	}
	total := budget.Count(msgs)
	var removed []int
	for i := 1; i < len(msgs)-1 && 100*total >= percent*limit; i++ {
		total -= budget.MessageTokens(msgs[i])
		removed = append(removed, i)
	}
	return dropIndexes(msgs, removed), removed, nil
}

// pruneUntil removes whole units as the reference does, oldest first
// after the first message's unit and before the final one, and stops
// before the n-th (0-based) when done(count, n) holds of the count left.
func pruneUntil(msgs []message.Message, done func(count, n int) bool) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, 1, 80) // the reference's error for no messages
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	total := budget.Count(msgs)
	var removed []int
	for n, u := range units[min(1, len(units)):max(1, len(units)-1)] {
		if done(total, n) {
			break
		}
		for i := u.Start; i < u.End; i++ {
			total -= budget.MessageTokens(msgs[i])
			removed = append(removed, i)
		}
	}
	return dropIndexes(msgs, removed), removed, nil
}

// budgetCatalogue is the catalogue's variants of capability budget: token
// counts, limits, thresholds, pruning, compression and preparation.
func budgetCatalogue() []Mutant {
	return []Mutant{
		variant("budget-at-80-is-approaching", "uses >= where the spec says >: exactly 80% counts as approaching", replaced{approaching: func(c, l int) bool { return 100*c >= budget.WarnPercent*l }}, "THR-1"),
		variant("budget-at-95-is-at-limit", "uses >= where the spec says >: exactly 95% counts as at the limit", replaced{atLimit: func(c, l int) bool { return 100*c >= budget.HardPercent*l }}, "THR-2"),
		{Name: "budget-claude-100k", Clauses: []string{"LIM-1"},
			Bug: "gives claude-3.5-sonnet Claude 2's limit of 100,000 tokens instead of 200,000",
			Engine: limitsEdited(func(l budget.Limits, extra map[string]int) budget.Limits {
				if _, set := extra["claude-3.5-sonnet"]; !set {
					l["claude-3.5-sonnet"] = 100_000
				}
				return l
			})},
		variant("budget-counts-bytes", "counts ceil(UTF-8 bytes / 4) instead of cl100k tokens", replaced{msgTokens: func(m message.Message) int { return (len(m.Raw()) + 3) / 4 }}, "TOK-2", "TOK-3"),
		variant("budget-default-limit", "silently uses 128,000 for a model it does not know", limitsEdited(anyModel), "LIM-2"),
		variant("budget-ignores-role", "counts only the content, not the role", replaced{msgTokens: func(m message.Message) int { return budget.MessageTokens(m) - 1 }}, "TOK-2"),
		pointVariant("budget-prepares-at-80", "prepares with >= 80%: a conversation at exactly 80% is pruned and warned about", fault.PrepareAt80Inclusive, "PREP-1"),
		pointVariant("budget-prepare-passes-malformed", "checks tool structure only where it prunes, so under 80% a malformed conversation is passed on unchanged", fault.PrepareUnitsCheckedOnlyWhenPruning, "UNIT-2", "PREP-1"),
		{Name: "budget-prune-do-while", Clauses: []string{"PRN-3"},
			Bug: "removes a unit before testing the count (a do-while loop), so a conversation already below the target loses one",
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				kept, removed, err := budget.Prune(msgs, limit, percent)
				if err != nil || len(removed) > 0 {
					return kept, removed, err
				}
				units, err := message.Units(msgs)
				if err != nil || len(units) < 3 {
					return kept, removed, err
				}
				var gone []int
				for i := units[1].Start; i < units[1].End; i++ {
					gone = append(gone, i)
				}
				return dropIndexes(msgs, gone), gone, nil
			}}},
		{Name: "budget-prune-empty-ok", Clauses: []string{"PRN-4"},
			Bug: "has no guard for an empty conversation and returns an empty list",
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				if len(msgs) == 0 {
					return []message.Message{}, nil, nil
				}
				return budget.Prune(msgs, limit, percent)
			}}},
		{Name: "budget-prune-gives-up", Clauses: []string{"PREP-5"},
			Bug: "stops pruning after 100 units (a guard against an endless loop), so a long conversation stays above the target",
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				return pruneUntil(msgs, func(c, n int) bool { return 100*c < percent*limit || n == 100 })
			}}},
		{
			Name:    "budget-prune-stops-at-target",
			Bug:     "stops pruning once the count is at or below the target (<=), where the spec asks for strictly below",
			Clauses: []string{"PRN-1"},
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				// Below percent+ε: 100·c <= p·L is 100·c < p·L + 1.
				return pruneUntil(msgs, func(c, _ int) bool { return 100*c <= percent*limit })
			}},
		},
		variant("budget-prunes-messages", "prunes message by message, as 003's first draft did, splitting a tool call from its results", replaced{pruneBudget: messageByMessagePrune}, "UNIT-3", "PRN-1"),
		{
			Name: "budget-prunes-newest", Bug: "removes the newest messages before the final one instead of the oldest",
			Clauses: []string{"PRN-1"},
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
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
		{Name: "budget-prunes-system-prompt", Clauses: []string{"PRN-2"},
			Bug: "starts pruning at index 0, dropping the system prompt",
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				kept, removed, err := budget.Prune(msgs, limit, percent)
				if err != nil || len(removed) == 0 {
					return kept, removed, err
				}
				return kept[1:], append([]int{0}, removed...), nil
			}}},
		{Name: "budget-ratio-inverted", Clauses: []string{"PRN-5", "PRN-1"},
			Bug: "reads target_ratio as the share of the limit to free, pruning below (1 − ratio) of the limit",
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				return budget.Prune(msgs, limit, max(1, 100-percent))
			}}},
		{
			Name: "budget-recursive-compression", Bug: "compresses again when the compressed conversation is still at the limit (the summarizer call is checked too)",
			Clauses: []string{"PREP-3", "PREP-4"},
			Engine: replaced{prepare: func(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
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
		pointVariant("budget-warns-after-pruning", "reports the token count after pruning in context_window_approaching", fault.PrepareEventCountAfterPrune, "PREP-2"),
		{Name: "compress-invents-summary", Clauses: []string{"CMP-2"},
			Bug: "catches a failing summaryFn and compresses with a placeholder summary instead of failing",
			Engine: replaced{compress: func(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
				return budget.Compress(ctx, msgs, placeholderOnFailure{s})
			}}},
		pointVariant("compress-keeps-last-message", "keeps the last message instead of the last user prompt, so a conversation ending in a tool result keeps the result", fault.CompressKeepsLastMessage, "CMP-1"),
		variant("tokens-special-text", "encodes with tiktoken's encode(allowed_special=\"all\"), so the text <|endoftext|> becomes the special token 100257", replaced{encode: encodeWithSpecials}, "TOK-1"),
	}
}
