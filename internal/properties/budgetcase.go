package properties

// The token budget (section 8a): counts are additive, and pruneMessages
// removes whole units, oldest first after the first message's unit, until
// the count is below the target, keeping the first and the final message.
// The properties take the implementation's own per-message counts
// (budget.count) as given and check that everything else agrees with them;
// whether the counts are cl100k's is for the golden cases (TOK-1).

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
)

// A budget.prune case: a conversation, its counts as the target gives
// them, and a limit and target ratio drawn around them (PRN-1 – PRN-5),
// with what pruning must remove.

// budgetCase is a conversation, its counts as the target gives them, and a
// limit and target chosen around them.
type budgetCase struct {
	h     gen.History
	per   []int
	total int
	// limit is the model's limit and percent the target (target_ratio
	// times 100); ratio is how target_ratio is sent, nil for the default.
	limit, percent int
	ratio          json.RawMessage
	model          string
	limits         map[string]int
}

func (c budgetCase) in() []gen.Message { return c.h.Msgs }

// params builds budget.prune's request for the messages at positions idx.
func (c budgetCase) params(ratio json.RawMessage) protocol.BudgetPruneParams {
	return protocol.BudgetPruneParams{Messages: gen.Raws(c.h.Msgs), Model: c.model, Limits: protocol.Counts(c.limits), TargetRatio: ratio}
}

// removable are the units pruning may remove: every unit after the first
// message's and before the final message's (PRN-1, PRN-2).
func (c budgetCase) removable() [][2]int {
	us := c.h.Units
	if len(us) <= 2 {
		return nil
	}
	return us[1 : len(us)-1]
}

func sumAt(per []int, idx []int) int {
	n := 0
	for _, i := range idx {
		n += per[i]
	}
	return n
}

// below is PRN-1's test: 100·c < percent·L.
func below(count, percent, limit int) bool { return 100*count < percent*limit }

// expectPrune is what PRN-1 removes at a target.
func (c budgetCase) expectPrune(percent int) []int {
	total := c.total
	removed := []int{}
	for _, u := range c.removable() {
		if below(total, percent, c.limit) {
			break
		}
		for i := u[0]; i < u[1]; i++ {
			removed = append(removed, i)
			total -= c.per[i]
		}
	}
	return removed
}

func ratioJSON(t *rapid.T, percent int) json.RawMessage {
	s := strconv.FormatFloat(float64(percent)/100, 'f', -1, 64)
	if percent == 100 && rapid.Bool().Draw(t, "ratio spelled 1.0") {
		s = "1.0"
	}
	return json.RawMessage(s)
}

// drawBudgetCase draws a well-formed conversation of both formats, counts
// it, and chooses a limit and target: on the boundary of a unit removal
// (100·c = p·L for the count c left after some removals, and one token to
// either side), anywhere, or a known model far above the conversation.
func drawBudgetCase(t *rapid.T, s *session) budgetCase {
	n := rapid.OneOf(rapid.IntRange(1, 8), rapid.IntRange(1, 30)).Draw(t, "n")
	c := budgetCase{h: gen.Histories(gen.HistoryOpts{N: n, Marked: true, Tools: -1}).Draw(t, "conversation")}
	res := s.count(gen.Raws(c.h.Msgs))
	c.per, c.total = res.PerMessage, res.Tokens
	if sum := sumAt(c.per, gen.Indices(len(c.per))); sum != c.total {
		s.fail("TOK-3", "budget.count returned tokens %d, but its per-message counts %v add up to %d", c.total, c.per, sum)
	}
	c.model, c.limits = propModel, map[string]int{}
	switch rapid.SampledFrom([]string{"boundary", "boundary", "default ratio", "anywhere", "known model"}).Draw(t, "limit") {
	case "boundary":
		// The count left after the first k removable units.
		k := rapid.IntRange(0, len(c.removable())).Draw(t, "units removed at the boundary")
		left := c.total
		for _, u := range c.removable()[:k] {
			left -= sumAt(c.per, gen.IndexRange(u[0], u[1]))
		}
		c.percent = rapid.SampledFrom(exactPercents).Draw(t, "target percent")
		c.limit = max(1, left*100/c.percent+rapid.IntRange(-1, 1).Draw(t, "limit off the boundary by"))
		c.ratio = ratioJSON(t, c.percent)
	case "default ratio":
		c.percent = 80
		c.limit = max(1, c.total*rapid.IntRange(50, 150).Draw(t, "limit as % of the count")/100)
		if rapid.Bool().Draw(t, "ratio sent as 0.8") {
			c.ratio = json.RawMessage("0.8")
		}
	case "anywhere":
		c.percent = rapid.IntRange(1, 100).Draw(t, "target percent")
		c.limit = rapid.IntRange(1, 2*c.total+10).Draw(t, "limit")
		c.ratio = ratioJSON(t, c.percent)
	default:
		c.model, c.limits = rapid.SampledFrom([]string{"gpt-4o", "claude-3.5-sonnet", "gemini-3-pro"}).Draw(t, "model"), nil
		c.limit = map[string]int{"gpt-4o": 128_000, "claude-3.5-sonnet": 200_000, "gemini-3-pro": 1_000_000}[c.model]
		c.percent = 80
	}
	if c.limits != nil {
		c.limits[propModel] = c.limit
	}
	return c
}

func (c budgetCase) describe() string {
	ratio := "absent (0.80)"
	if c.ratio != nil {
		ratio = string(c.ratio)
	}
	return fmt.Sprintf("model %s with limit %d, target_ratio %s: the target is %d%% of %d; %s", c.model, c.limit, ratio, c.percent, c.limit, c.counts())
}

// counts describes the conversation and its counts.
func (c budgetCase) counts() string {
	var units []string
	for _, u := range c.h.Units {
		if u[1]-u[0] > 1 {
			units = append(units, span(u[0], u[1]-1))
		}
	}
	tools := "no tool-call units"
	if len(units) > 0 {
		tools = "tool-call units input[" + strings.Join(units, " ") + "]"
	}
	return fmt.Sprintf("%s, counted %v (total %d); %s", plural(len(c.h.Msgs), "message"), c.per, c.total, tools)
}
