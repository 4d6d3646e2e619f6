package properties

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/convspec/convspec/conformance/target"
)

// The pruning properties' edge examples (PRN-1 – PRN-5): the target placed
// exactly on the count left after removing none, one and every removable
// unit, and one token of limit to either side — where "below the target"
// and "at the target" part — on a conversation without tool calls, one of
// mixed units and one of tool-call units only, before any random case.

// budgetEdges runs check on every boundary case.
func budgetEdges(clause string, check func(s *session, c budgetCase)) []Example {
	var out []Example
	for k, cv := range []struct {
		name string
		o    genOpts
	}{{"no tool calls", genOpts{n: 6}}, {"a mix of units", genOpts{n: 7, tools: -1}}, {"tool-call units only", genOpts{n: 9, tools: 1, force: "tool"}}} {
		for _, removed := range []string{"none", "one", "all"} {
			out = append(out, Example{
				Name: fmt.Sprintf("%s, the target at the count left after removing %s of the removable units, and one token to either side", cv.name, removed),
				Run: func(f Failer, tg target.Target) {
					s := fixedSession(f, tg, clause)
					o := cv.o
					o.exact, o.marked, o.formats = true, true, tg.Info().Formats
					h := fixedHistory(o.formats, o, k, func(h history) bool { return len(h.units) > 3 })
					for _, off := range []int{-1, 0, 1} {
						check(s, s.boundaryCase(h, removed, 80, off))
					}
				},
			})
		}
	}
	return out
}

// boundaryCase is the budget case of h whose target, percent % of the
// limit, is exactly the count left after removing none, one or all of the
// removable units (PRN-1), with the limit then moved by off tokens.
func (s *session) boundaryCase(h history, removed string, percent, off int) budgetCase {
	c := budgetCase{h: h, model: propModel, percent: percent}
	res := s.count(raws(h.msgs))
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
		left -= sumAt(c.per, rangeIdx(u[0], u[1]))
	}
	c.limit = max(1, left*100/percent+off)
	c.limits = map[string]int{propModel: c.limit}
	c.ratio = json.RawMessage(strconv.FormatFloat(float64(percent)/100, 'f', -1, 64))
	return c
}

// thresholdEdges: budget.check with the count exactly at 80 % and 95 % of
// the limit and one token of limit to either side (THR-1, THR-2), for
// the empty conversation and a mix of units.
func thresholdEdges() []Example {
	var out []Example
	for k, cv := range []struct {
		name string
		o    genOpts
	}{{"the empty conversation", genOpts{}}, {"a mix of units", genOpts{n: 5, tools: -1}}} {
		for _, at := range []int{80, 95} {
			out = append(out, Example{
				Name: fmt.Sprintf("%s filled to exactly %d%% of a limit, and one token to either side", cv.name, at),
				Run: func(f Failer, tg target.Target) {
					s := fixedSession(f, tg, "THR-1")
					o := cv.o
					o.exact, o.marked, o.formats = true, true, tg.Info().Formats
					msgs := raws(fixedHistory(o.formats, o, k, nil).msgs)
					msgs, c := s.fillTo(msgs, s.count(msgs).Tokens, at)
					for _, off := range []int{-1, 0, 1} {
						thresholds(s, msgs, c, max(1, c*100/at+off))
					}
				},
			})
		}
	}
	return out
}

// additiveEdges: budget.count of the empty list, one message, a mix of
// units and tool-call units only, cut at the start, the middle and the
// end (TOK-3).
func additiveEdges() []Example {
	var out []Example
	for k, cv := range []struct {
		name string
		o    genOpts
	}{{"the empty conversation", genOpts{}}, {"one message", genOpts{n: 1}}, {"a mix of units", genOpts{n: 8, tools: -1}}, {"tool-call units only", genOpts{n: 8, tools: 1, force: "tool"}}} {
		out = append(out, Example{
			Name: cv.name + ", cut at the start, the middle and the end",
			Run: func(f Failer, tg target.Target) {
				s := fixedSession(f, tg, "TOK-3")
				o := cv.o
				o.exact, o.marked, o.formats = true, true, tg.Info().Formats
				in := fixedHistory(o.formats, o, k, nil).msgs
				for _, cut := range []int{0, len(in) / 2, len(in)} {
					countAdditive(s, in, cut)
				}
			},
		})
	}
	return out
}
