package properties

// The invariants every history trimmer must keep, whatever its algorithm
// (SPEC "Any trimmer", ANY-1 – ANY-9). Each property checks one guarantee
// on the declared trimmers that claim it; where no trimmer claims it, the
// property is not applicable.

import (
	"encoding/json"
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/message"
)

// trimGuarantee is one guarantee of ANY-1 – ANY-9 and its check, shared by
// its property and by golden replay (CheckTrimmerGuarantee).
type trimGuarantee struct {
	id, clause, guarantee, doc string
	check                      func(s trimSession, c trimCase, out []json.RawMessage)
}

var trimGuarantees = []trimGuarantee{
	{"trimmer-subsequence", "ANY-1", protocol.GuaranteeSubsequence,
		"a trimmer's output is a subsequence of its input: order kept, nothing duplicated, invented or altered", checkTrimSubsequence},
	{"trimmer-units-whole", "ANY-2", protocol.GuaranteeUnits,
		"a trimmer's output has every tool call with all its results and every result with its call, in both formats", checkTrimUnits},
	{"trimmer-keeps-system", "ANY-3", protocol.GuaranteeSystem,
		"a trimmer's output starts with the system messages its input starts with", checkTrimSystem},
	{"trimmer-keeps-last-prompt", "ANY-4", protocol.GuaranteeLastPrompt,
		"a trimmer's output holds the latest user prompt of its input", checkTrimLastPrompt},
	{"trimmer-keeps-last-unit", "ANY-5", protocol.GuaranteeLastUnit,
		"a trimmer's output ends with the last unit of its input, whole", checkTrimLastUnit},
	{"trimmer-bound", "ANY-6", protocol.GuaranteeBound,
		"a trimmer's output counts at most the limit by its declared counter, or is exactly the floor when the floor alone exceeds it", checkTrimBound},
	{"trimmer-fits", "ANY-7", protocol.GuaranteeFits,
		"a conversation within the limit comes back unchanged", checkTrimFits},
	{"trimmer-idempotent", "ANY-8", protocol.GuaranteeIdempotent,
		"trimming a trimmer's output again with the same limit changes nothing", checkTrimIdempotent},
	{"trimmer-total", "ANY-9", protocol.GuaranteeTotal,
		"a trimmer answers every valid conversation and limit, the empty conversation and limit 0 included", checkTrimTotal},
}

// checkCase trims c and checks the guarantee on the output.
func (g trimGuarantee) checkCase(s trimSession, c trimCase) {
	if out, ok := s.first(c); ok {
		g.check(s, c, out)
	}
}

func trimmerProperties() []Property {
	var out []Property
	for _, g := range trimGuarantees {
		out = append(out, Property{
			ID: "prop/" + g.id, Clauses: []string{g.clause}, Capability: protocol.GuaranteeCapability(g.guarantee), Doc: g.doc,
			Check: func(t *rapid.T, tg target.Target) {
				limits := anyLimit
				if g.guarantee == protocol.GuaranteeFits {
					limits = fittingLimit
				}
				c := drawTrimCase(t, tg, g.guarantee, limits)
				g.checkCase(trimSession{newSession(t, tg, g.clause)}, c)
			},
			Examples: trimmerEdges(g.clause, g.guarantee, g.checkCase),
		})
	}
	return out
}

// first trims the case, for every check; ok is false when a trimmer that
// does not claim total declined it (ANY-9), and there is no output to check.
func (s trimSession) first(c trimCase) (out []json.RawMessage, ok bool) {
	s.t.Helper()
	out, err := s.trim(c.decl, raws(c.h.msgs), c.limit)
	return out, !errors.Is(err, errDeclined)
}

func checkTrimSubsequence(s trimSession, c trimCase, out []json.RawMessage) {
	for k, p := range match(c.h.msgs, out) {
		if p >= 0 {
			continue
		}
		why := "is not an input message: invented or altered"
		for i, m := range c.h.msgs {
			if jsoncmp.Equal(m.Raw, out[k]) {
				why = fmt.Sprintf("is in[%d] again, or out of order: the messages before it already stand for in[%d] or later", i, i)
				break
			}
		}
		if _, err := message.Parse(out[k]); err != nil {
			why = "is not a message at all (" + err.Error() + ")"
		}
		s.fail("ANY-1", "out[%d] %s\n%s\n%s", k, why, c.describe(), describeOut(out))
	}
}

func checkTrimUnits(s trimSession, c trimCase, out []json.RawMessage) {
	msgs := trimout.Messages(out) // what is not a message is ANY-1's to report
	if _, problems := message.Structure(msgs); len(problems) > 0 {
		p := problems[0]
		s.fail("ANY-2", "the output splits a tool-call unit: %s at out[%d] (%s); the provider rejects this request\n%s\n%s",
			p.Code, p.At, p.Reason, c.describe(), describeOut(out))
	}
}

func checkTrimSystem(s trimSession, c trimCase, out []json.RawMessage) {
	for i := range leadingSystem(c.h) {
		if i >= len(out) || !jsoncmp.Equal(out[i], c.h.msgs[i].Raw) {
			s.fail("ANY-3", "the input starts with %d system message(s), but out[%d] is not in[%d]: the system prompt is dropped or moved\n%s\n%s",
				leadingSystem(c.h), i, i, c.describe(), describeOut(out))
		}
	}
}

func checkTrimLastPrompt(s trimSession, c trimCase, out []json.RawMessage) {
	i := lastPrompt(c.h)
	if i < 0 {
		return
	}
	for _, o := range out {
		if jsoncmp.Equal(o, c.h.msgs[i].Raw) {
			return
		}
	}
	s.fail("ANY-4", "the latest user prompt in[%d] is not in the output\n%s\n%s", i, c.describe(), describeOut(out))
}

func checkTrimLastUnit(s trimSession, c trimCase, out []json.RawMessage) {
	if len(c.h.msgs) == 0 {
		return
	}
	n := len(c.h.msgs)
	u := c.h.msgs[n-1].Unit[0]
	want := raws(c.h.msgs[u:])
	if len(out) < len(want) || !equalLists(out[len(out)-len(want):], want) {
		s.fail("ANY-5", "the output does not end with the last unit %s\n%s\n%s", positions(rangeIdx(u, n)), c.describe(), describeOut(out))
	}
}

func checkTrimBound(s trimSession, c trimCase, out []json.RawMessage) {
	fl := floor(c.decl, c.h)
	var flMsgs []json.RawMessage
	for _, i := range fl {
		flMsgs = append(flMsgs, c.h.msgs[i].Raw)
	}
	got, need := trimout.Count(c.decl, out), trimout.Count(c.decl, flMsgs)
	switch {
	case need <= c.limit && got > c.limit:
		s.fail("ANY-6", "the output counts %d %s, above the limit %d (the floor, %s, counts %d)\n%s\n%s",
			got, unit(c.decl), c.limit, positions(fl), need, c.describe(), describeOut(out))
	case need > c.limit && !equalLists(out, flMsgs):
		s.fail("ANY-6", "the floor (%s) alone counts %d %s, above the limit %d, so the output must be exactly the floor; it counts %d\n%s\n%s",
			positions(fl), need, unit(c.decl), c.limit, got, c.describe(), describeOut(out))
	}
}

func checkTrimFits(s trimSession, c trimCase, out []json.RawMessage) {
	if !equalLists(out, raws(c.h.msgs)) {
		s.fail("ANY-7", "the input fits the limit, yet the output differs from it (first difference at out[%d])\n%s\n%s",
			firstDiffRaw(out, raws(c.h.msgs)), c.describe(), describeOut(out))
	}
}

func checkTrimIdempotent(s trimSession, c trimCase, out []json.RawMessage) {
	if len(trimout.Messages(out)) < len(out) {
		return // an output that is not all messages cannot be trimmed again; ANY-1 reports it
	}
	again, err := s.trim(c.decl, out, c.limit)
	if errors.Is(err, errDeclined) {
		s.fail("ANY-8", "trimming the output again failed: the trimmer refuses its own output\n%s\n%s", c.describe(), describeOut(out))
	}
	if !equalLists(again, out) {
		s.fail("ANY-8", "trimming the output again with limit %d changed it (first difference at out[%d])\n%s\n%s\n%s",
			c.limit, firstDiffRaw(again, out), c.describe(), describeOut(out), describeList("the second output", again))
	}
}

// checkTrimTotal has nothing left to check: first, which trims the case,
// fails it under ANY-9 on any error.
func checkTrimTotal(trimSession, trimCase, []json.RawMessage) {}
