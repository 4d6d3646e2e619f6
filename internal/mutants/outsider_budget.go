package mutants

// Outsider variants of the capability budget (TOK-*, LIM-*, THR-*, PRN-*,
// CMP-*, PREP-*).

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

func outsiderBudgetMutants() []Mutant {
	return []Mutant{
		{
			// budget.check, limits {"m": 100}, messages counting exactly 80
			// tokens: approaching must be false (80 is not above 80 %).
			Name: "outsider-budget-approaching-inclusive", Bug: "flags approaching at 80 % of the limit, not only above it (>= for >)",
			Clauses: []string{"THR-1"},
			Engine: replaced{approaching: func(count, limit int) bool {
				return 100*count >= budget.WarnPercent*limit
			}},
		},
		{
			// budget.check, limits {"m": 101}, messages counting 96 tokens:
			// 96 > 95.95, so at_limit is true; round(95.95) = 96 says false.
			Name: "outsider-budget-hard-limit-rounded", Bug: "computes the hard limit as round(0.95 × limit) tokens and compares the count with that integer",
			Clauses: []string{"THR-2"},
			Engine: replaced{atLimit: func(count, limit int) bool {
				return count > int(math.Round(0.95*float64(limit)))
			}},
		},
		{
			// budget.count [{"role":"assistant","content":"hi","tool_calls":null}]:
			// tool_calls null counts nothing; the variant adds ceil(4/4) = 1.
			Name: "outsider-budget-null-tool-calls-counted", Bug: "counts a tool_calls member that is null as the compact JSON text \"null\"",
			Clauses: []string{"TOK-2"},
			Engine: replaced{msgTokens: func(m message.Message) int {
				n := budget.MessageTokens(m)
				var members map[string]json.RawMessage
				if json.Unmarshal(m.Raw(), &members) == nil {
					if calls, ok := members["tool_calls"]; ok && string(calls) == "null" {
						n++
					}
				}
				return n
			}},
		},
		{
			// budget.count [{"role":"user","content":[{"type":"tool_result",
			// "tool_use_id":"t","content":[{"type":"text","text":"hello world"}]}]}]:
			// the inner text block counts its 2 tokens; the variant counts the
			// array's compact JSON, ceil(38/4) = 10.
			Name: "outsider-budget-tool-result-array-as-json", Bug: "counts a tool_result block's content by its tokens only when it is a string, an array of blocks by ceil(length/4) of its JSON",
			Clauses: []string{"TOK-2"},
			Engine: replaced{msgTokens: func(m message.Message) int {
				n := tokens.Count(m.Role())
				content := m.Content()
				var blocks []json.RawMessage
				if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &blocks) != nil {
					return budget.MessageTokens(m)
				}
				rest, _ := message.New(m.Role(), "")
				n = budget.MessageTokens(rest) // role, and nothing for ""
				for _, b := range blocks {
					var block struct {
						Type    string          `json:"type"`
						Content json.RawMessage `json:"content"`
					}
					_ = json.Unmarshal(b, &block)
					one, _ := message.New(m.Role(), []json.RawMessage{b})
					blockOnly := budget.MessageTokens(one) - tokens.Count(m.Role())
					if block.Type == "tool_result" && len(block.Content) > 0 && block.Content[0] == '[' {
						s, _ := message.Compact(block.Content)
						blockOnly = (message.Length(s) + 3) / 4
					}
					n += blockOnly
				}
				var members map[string]json.RawMessage
				if json.Unmarshal(m.Raw(), &members) == nil {
					if calls, ok := members["tool_calls"]; ok && string(calls) != "null" {
						s, _ := message.Compact(calls)
						n += (message.Length(s) + 3) / 4
					}
				}
				return n
			}},
		},
		{
			// budget.prune, limit 1000, target 0.8: once the count is exactly
			// 800 tokens the reference goes on (800 is not below 800); the
			// variant stops.
			Name: "outsider-budget-prune-stops-at-target", Bug: "stops pruning once the count is at or below the target, not strictly below it",
			Clauses: []string{"PRN-1"},
			Engine: replaced{pruneBudget: func(msgs []message.Message, limit, pct int) ([]message.Message, []int, error) {
				if pct <= 0 || pct > 100 {
					return budget.Prune(msgs, limit, pct)
				}
				return pruneUntil(msgs, func(count, _ int) bool { return 100*count <= pct*limit })
			}},
		},
		// budget.compress [system, user "q", assistant tool_use t,
		// user [tool_result t]]: the last user prompt is "q" (the
		// tool_result message is a tool result); the variant keeps the
		// tool_result message as the prompt.
		pointVariant("outsider-budget-compress-last-user-role", "keeps the last message whose role is user as the prompt, even an Anthropic tool_result message", fault.CompressPromptByRole, "CMP-1"),

		// budget.prepare over 95 % of the limit, summarizer failing, with
		// a conversation that pruning cannot bring below 95 % (one huge
		// first message): the reference fails with window_exhausted; the
		// variant returns the pruned conversation.
		pointVariant("outsider-budget-prepare-no-recheck-after-failure", "after a failed compression returns the pruned conversation without checking it is below the hard limit", fault.PrepareNoRecheckAfterFailure, "PREP-4", "PREP-3"),
		{
			// budget.check with limits {"m": 0}: invalid_params (a limit must
			// be positive); the variant accepts it and reports at_limit.
			Name: "outsider-budget-zero-limit-accepted", Bug: "accepts a custom limit of 0 (checks n < 0 instead of n <= 0)",
			Clauses: []string{"LIM-1"},
			Engine: replaced{limits: func(extra map[string]int) (budget.Limits, error) {
				l := budget.Limits(budget.DefaultLimits())
				for model, n := range extra {
					if model == "" || n < 0 || n > 1<<53-1 {
						return nil, fmt.Errorf("limits: model %q needs a non-negative limit, got %d", model, n)
					}
					l[model] = n
				}
				return l, nil
			}},
		},
		// budget.prepare between 80 % and 95 %: the approaching event's
		// tokenCount is the count before pruning; the variant reports
		// the count after it.
		pointVariant("outsider-budget-event-count-after-prune", "reports the token count after pruning in context_window_approaching", fault.PrepareEventCountAfterPrune, "PREP-2"),
	}
}
