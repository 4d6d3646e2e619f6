package properties

// The invariants every history trimmer must keep, whatever its algorithm
// (SPEC "Any trimmer", ANY-1 – ANY-14). Each property checks one guarantee
// on each declared trimmer that claims it, one trimmer at a time (D-75);
// where no trimmer claims it, the property is not applicable.

import (
	"encoding/json"
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/judgemsg"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/trimout"
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
		"a trimmer answers every valid conversation and limit of its domain, the empty conversation and limit 0 included; a crash is never an answer", checkTrimTotal},
	{"trimmer-keeps-head", "ANY-11", protocol.GuaranteeHead,
		"a trimmer's output starts with the head of messages it declares", checkTrimHead},
	{"trimmer-start-rule", "ANY-12", protocol.GuaranteeStart,
		"after what it always keeps, a trimmer's output starts on a user prompt, as its start rule declares", checkTrimStart},
	{"trimmer-native-counter", "ANY-13", protocol.GuaranteeCounter,
		"a trimmer's native counter is sane: never negative, never smaller when content is added, additive per message where declared", checkTrimCounter},
	{"trimmer-last-message-fallback", "ANY-14", protocol.GuaranteeFallback,
		"when the last message does not fit with what a trimmer always keeps, the output is exactly those and the last message, as its fallback declares", checkTrimFallback},
}

// checkCase trims c and checks the guarantee on the output; the native
// counter's check needs no output.
func (g trimGuarantee) checkCase(s trimSession, c trimCase) {
	if g.guarantee == protocol.GuaranteeCounter {
		g.check(s, c, nil)
		return
	}
	if out, ok := s.first(c); ok {
		g.check(s, c, out)
	}
}

func trimmerProperties(m *edgeMemo) []prop.Property {
	var out []prop.Property
	for _, g := range trimGuarantees {
		capability := protocol.GuaranteeCapability(g.guarantee)
		if g.guarantee == protocol.GuaranteeTotal {
			// Every trimmer is checked for crashes, whatever it claims
			// (ANY-9, D-60).
			capability = protocol.CapTrimmer
		}
		out = append(out, prop.Property{
			ID: "prop/" + g.id, Clauses: []string{g.clause}, Capability: capability, Doc: g.doc,
			Check: func(t *rapid.T, tg target.Target) {
				limits := anyLimit
				if g.guarantee == protocol.GuaranteeFits {
					limits = fittingLimit
				}
				s := newTrimSession(newSession(t, tg, g.clause))
				g.checkCase(s, drawTrimCase(t, s, g.guarantee, limits))
			},
			Examples: trimmerEdges(m, g.clause, g.guarantee, g.checkCase),
			Subjects: trimmerSubjects(g.guarantee),
		})
	}
	return out
}

// first trims the case, for every check; ok is false when the trimmer
// declined it (ANY-9), and there is no output to check. The answer is the
// run's (D-97): every property that draws the case checks the one answer.
func (s trimSession) first(c trimCase) (out []json.RawMessage, ok bool) {
	s.t.Helper()
	out, err := s.trimShared(c.decl, gen.Raws(c.h.Msgs), c.limit)
	return out, !errors.Is(err, errDeclined)
}

func checkTrimSubsequence(s trimSession, c trimCase, all []json.RawMessage) {
	out := trimout.Strip(c.decl, all)
	for k, p := range match(c.h.Msgs, out) {
		if p >= 0 {
			continue
		}
		why := "is not an input message: invented or altered"
		for i, m := range c.h.Msgs {
			if jsoncmp.Equal(m.Raw, out[k]) {
				why = fmt.Sprintf("is in[%d] again, or out of order: the messages before it already stand for in[%d] or later", i, i)
				break
			}
		}
		if _, err := judgemsg.Parse(out[k]); err != nil {
			why = "is not a message at all (" + err.Error() + ")"
		}
		if c.decl.Markers != nil {
			why += fmt.Sprintf(", and no marker (role %q, text starting %q)", c.decl.Markers.Role, c.decl.Markers.Prefix)
		}
		s.fail("ANY-1", "out[%d] of the output without markers %s\n%s\n%s", k, why, c.describe(), describeOut(all))
	}
}

func checkTrimUnits(s trimSession, c trimCase, out []json.RawMessage) {
	msgs := trimout.Read(out) // what is not a message is ANY-1's to report
	if _, problems := judgemsg.Structure(msgs); len(problems) > 0 {
		p := problems[0]
		s.fail("ANY-2", "the output splits a tool-call unit: %s at out[%d] (%s); the provider rejects this request\n%s\n%s",
			p.Code, p.At, p.Reason, c.describe(), describeOut(out))
	}
}

func checkTrimSystem(s trimSession, c trimCase, all []json.RawMessage) {
	in := c.input()
	kept := trimout.SystemKept(c.decl, in)
	out := trimout.Strip(c.decl, all)
	which := c.decl.System
	if which == "" {
		which = protocol.SystemLeading
	}
	if which == protocol.SystemLeading || which == protocol.SystemFirst {
		for k, i := range kept {
			if k >= len(out) || !jsoncmp.Equal(out[k], c.h.Msgs[i].Raw) {
				s.fail("ANY-3", "the trimmer keeps the %s system message(s), %s, but out[%d] is not in[%d]: the system prompt is dropped or moved\n%s\n%s",
					which, positions(kept), k, i, c.describe(), describeOut(all))
			}
		}
		return
	}
	held := map[int]bool{}
	for _, p := range match(c.h.Msgs, out) {
		held[p] = true
	}
	for _, i := range kept {
		if !held[i] {
			s.fail("ANY-3", "the trimmer keeps the %s system message(s), %s, but in[%d] is not in the output\n%s\n%s",
				which, positions(kept), i, c.describe(), describeOut(all))
		}
	}
}

func checkTrimLastPrompt(s trimSession, c trimCase, all []json.RawMessage) {
	i := lastPrompt(c.h)
	if i < 0 {
		return
	}
	for _, o := range trimout.Strip(c.decl, all) {
		if jsoncmp.Equal(o, c.h.Msgs[i].Raw) {
			return
		}
	}
	s.fail("ANY-4", "the latest user prompt in[%d] is not in the output\n%s\n%s", i, c.describe(), describeOut(all))
}

func checkTrimLastUnit(s trimSession, c trimCase, all []json.RawMessage) {
	if len(c.h.Msgs) == 0 {
		return
	}
	n := len(c.h.Msgs)
	u := c.h.Msgs[n-1].Unit[0]
	if !trimout.Effective(c.decl, c.input())[u] {
		return // the start rule leaves no unit after the kept messages (ANY-12)
	}
	out := trimout.Strip(c.decl, all)
	want := gen.Raws(c.h.Msgs[u:])
	if len(out) < len(want) || !equalLists(out[len(out)-len(want):], want) {
		s.fail("ANY-5", "the output does not end with the last unit %s\n%s\n%s", positions(gen.IndexRange(u, n)), c.describe(), describeOut(all))
	}
}

func checkTrimBound(s trimSession, c trimCase, all []json.RawMessage) {
	in := c.input()
	fl := trimout.Floor(c.decl, in)
	var flMsgs []json.RawMessage
	for _, i := range fl {
		flMsgs = append(flMsgs, c.h.Msgs[i].Raw)
	}
	out := trimout.Strip(c.decl, all)
	if _, applies := s.fallback(c); applies {
		return // nothing fits: the output is ANY-14's to judge
	}
	got, need := s.count(c.decl, out), s.count(c.decl, flMsgs)
	switch {
	case need <= c.limit && got > c.limit:
		if c.decl.Slack == protocol.SlackUnit {
			if rest, ok := trimout.WithoutStraddling(in, out, fl); ok && s.count(c.decl, rest) <= c.limit {
				return // the overshoot is the one unit that straddles the cut
			}
		}
		s.fail("ANY-6", "the output counts %d %s, above the limit %d%s (the floor, %s, counts %d)\n%s\n%s",
			got, unit(c.decl), c.limit, slackNote(c.decl), positions(fl), need, c.describe(), describeOut(all))
	case need > c.limit && !equalLists(out, flMsgs):
		s.fail("ANY-6", "the floor (%s) alone counts %d %s, above the limit %d, so the output must be exactly the floor; it counts %d\n%s\n%s",
			positions(fl), need, unit(c.decl), c.limit, got, c.describe(), describeOut(all))
	}
}

func slackNote(d protocol.TrimmerDecl) string {
	if d.Slack == protocol.SlackUnit {
		return ", and more than the one unit that straddles the cut"
	}
	return ""
}

func checkTrimFits(s trimSession, c trimCase, all []json.RawMessage) {
	want := trimout.Pick(c.input(), trimout.Effective(c.decl, c.input()))
	out := trimout.Strip(c.decl, all)
	if !equalLists(out, want) {
		what := "the input"
		if c.decl.Start != "" {
			what = "the input after its start rule"
		}
		s.fail("ANY-7", "%s fits the limit, yet the output differs from it (first difference at out[%d])\n%s\n%s",
			what, firstDiffRaw(out, want), c.describe(), describeOut(all))
	}
}

func checkTrimIdempotent(s trimSession, c trimCase, out []json.RawMessage) {
	msgs := trimout.Read(out)
	if len(msgs) < len(out) {
		return // an output that is not all messages cannot be trimmed again; ANY-1 reports it
	}
	if _, problems := judgemsg.Structure(msgs); len(problems) > 0 {
		return // a split unit is no valid input to trim again; ANY-2 reports it
	}
	again, err := s.trim(c.decl, out, c.limit)
	if errors.Is(err, errDeclined) {
		s.fail("ANY-8", "trimming the output again failed: the trimmer refuses its own output\n%s\n%s", c.describe(), describeOut(out))
	}
	if !equalLists(trimout.Strip(c.decl, again), trimout.Strip(c.decl, out)) {
		s.fail("ANY-8", "trimming the output again with limit %d changed it%s (first difference at out[%d])\n%s\n%s\n%s",
			c.limit, markersNote(c.decl), firstDiffRaw(again, out), c.describe(), describeOut(out), describeList("the second output", again))
	}
}

func markersNote(d protocol.TrimmerDecl) string {
	if d.Markers != nil {
		return ", markers aside"
	}
	return ""
}

// checkTrimTotal has nothing left to check: first, which trims the case,
// fails it under ANY-9 on any error it may not give.
func checkTrimTotal(trimSession, trimCase, []json.RawMessage) {}

func checkTrimHead(s trimSession, c trimCase, all []json.RawMessage) {
	out := trimout.Strip(c.decl, all)
	n := min(c.decl.Head, len(c.h.Msgs))
	if len(out) < n || !equalLists(out[:n], gen.Raws(c.h.Msgs[:n])) {
		s.fail("ANY-11", "the trimmer declares a head of %d message(s), but the output does not start with %s\n%s\n%s",
			c.decl.Head, positions(gen.IndexRange(0, n)), c.describe(), describeOut(all))
	}
}

// fallback is the answer a declared fallback requires (ANY-14) and
// whether it applies: the kept messages with the last message count more
// than the limit.
func (s trimSession) fallback(c trimCase) (want []json.RawMessage, applies bool) {
	in := c.input()
	sel, ok := trimout.Fallback(c.decl, in)
	if !ok {
		return nil, false
	}
	want = trimout.Pick(in, sel)
	return want, s.count(c.decl, want) > c.limit
}

func checkTrimFallback(s trimSession, c trimCase, all []json.RawMessage) {
	want, applies := s.fallback(c)
	if !applies {
		return
	}
	if out := trimout.Strip(c.decl, all); !equalLists(out, want) {
		s.fail("ANY-14", "the last message in[%d] with what the trimmer always keeps counts %d %s, above the limit %d, so the output must be exactly them (%d message(s), fallback %q); it differs at out[%d]\n%s\n%s",
			len(c.h.Msgs)-1, s.count(c.decl, want), unit(c.decl), c.limit, len(want), c.decl.Fallback, firstDiffRaw(out, want), c.describe(), describeOut(all))
	}
}

func checkTrimStart(s trimSession, c trimCase, all []json.RawMessage) {
	kept := trimout.Kept(c.decl, c.input())
	out := trimout.Strip(c.decl, all)
	for k, p := range match(c.h.Msgs, out) {
		if p < 0 || kept[p] {
			continue // ANY-1 reports what is not an input message
		}
		if c.h.Msgs[p].Class != gen.ClassUserPrompt {
			s.fail("ANY-12", "after what it always keeps, the output starts on out[%d] = in[%d], a %s message, not a user prompt (start rule %q)\n%s\n%s",
				k, p, c.h.Msgs[p].Class, c.decl.Start, c.describe(), describeOut(all))
		}
		return
	}
}
