package properties

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The pruning properties' edge examples (PRN-1 – PRN-5): the target placed
// exactly on the count left after removing none, one and every removable
// unit, and one token of limit to either side — where "below the target"
// and "at the target" part — on a conversation without tool calls, one of
// mixed units and one of tool-call units only, before any random case.

// budgetEdges runs check on every boundary case.
func budgetEdges(clause string, check func(s *session, c budgetCase)) []prop.Example {
	many := func(h gen.History) bool { return len(h.Units) > 3 }
	var out []prop.Example
	for _, removed := range []string{"none", "one", "all"} {
		var edges []historyEdge
		for _, e := range []historyEdge{{"no tool calls", gen.HistoryOpts{N: 6}, many}, {"a mix of units", gen.HistoryOpts{N: 7, Tools: -1}, many}, {"tool-call units only", gen.HistoryOpts{N: 9, Tools: 1, Force: "tool"}, many}} {
			e.name = fmt.Sprintf("%s, the target at the count left after removing %s of the removable units, and one token to either side", e.name, removed)
			edges = append(edges, e)
		}
		out = append(out, historyEdges(nil, clause, edges, func(s *session, h gen.History) {
			for _, off := range []int{-1, 0, 1} {
				check(s, s.boundaryCase(h, removed, 80, off))
			}
		})...)
	}
	return out
}

// boundaryCase is the budget case of h whose target, percent % of the
// limit, is exactly the count left after removing none, one or all of the
// removable units (PRN-1), with the limit then moved by off tokens.
func (s *session) boundaryCase(h gen.History, removed string, percent, off int) budgetCase {
	c := budgetCase{h: h, model: propModel, percent: percent}
	res := s.count(gen.Raws(h.Msgs))
	c.per, c.total = res.PerMessage, res.Tokens
	units := c.removable()
	switch removed {
	case "none":
		units = nil
	case "one":
		units = units[:min(1, len(units))]
	}
	left := c.total
	for _, u := range units {
		left -= sumAt(c.per, gen.IndexRange(u[0], u[1]))
	}
	c.limit = max(1, left*100/percent+off)
	c.limits = map[string]int{propModel: c.limit}
	c.ratio = json.RawMessage(strconv.FormatFloat(float64(percent)/100, 'f', -1, 64))
	return c
}

// thresholdEdges: budget.check with the count exactly at 80 % and 95 % of
// the limit and one token of limit to either side (THR-1, THR-2), for
// the empty conversation and a mix of units.
func thresholdEdges() []prop.Example {
	var out []prop.Example
	for _, at := range []int{80, 95} {
		edges := []historyEdge{{"the empty conversation", gen.HistoryOpts{}, nil}, {"a mix of units", gen.HistoryOpts{N: 5, Tools: -1}, nil}}
		for i := range edges {
			edges[i].name = fmt.Sprintf("%s filled to exactly %d%% of a limit, and one token to either side", edges[i].name, at)
		}
		out = append(out, historyEdges(nil, "THR-1", edges, func(s *session, h gen.History) {
			msgs := gen.Raws(h.Msgs)
			msgs, c := s.fillTo(msgs, s.count(msgs).Tokens, at)
			for _, off := range []int{-1, 0, 1} {
				thresholds(s, msgs, c, max(1, c*100/at+off))
			}
		})...)
	}
	return out
}

// additiveEdges: budget.count of the empty list, one message, a mix of
// units and tool-call units only, cut at the start, the middle and the
// end (TOK-3).
func additiveEdges() []prop.Example {
	edges := []historyEdge{{"the empty conversation", gen.HistoryOpts{}, nil}, {"one message", gen.HistoryOpts{N: 1}, nil}, {"a mix of units", gen.HistoryOpts{N: 8, Tools: -1}, nil}, {"tool-call units only", gen.HistoryOpts{N: 8, Tools: 1, Force: "tool"}, nil}}
	for i := range edges {
		edges[i].name += ", cut at the start, the middle and the end"
	}
	return historyEdges(nil, "TOK-3", edges, func(s *session, h gen.History) {
		for _, cut := range []int{0, len(h.Msgs) / 2, len(h.Msgs)} {
			countAdditive(s, h.Msgs, cut)
		}
	})
}
