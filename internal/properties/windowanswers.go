package properties

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// The window properties on what a trim or create answers besides the
// messages it keeps: byte-exact messages, metrics, estimates, warnings,
// units and the effective configuration.

func roundTrip(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	for _, list := range trimLists(res) {
		for i, m := range list.msgs {
			tr := trace(m, in)
			switch {
			case tr.at < 0:
				s.fail("MSG-2", "%s[%d] carries no %s member naming an input message, so it is not an input message returned unchanged: %s",
					list.name, i, gen.MarkerName, abbreviate(m, 200))
			case !tr.equal:
				path, sent, got := jsonDiff(in[tr.at].Raw, m)
				s.failWith("MSG-2", deviation.Parts{Want: string(in[tr.at].Raw), Got: string(m)}, "%s[%d] is not JSON-equal to %s, the input message it stands for: at %s it was sent %s and came back %s\nsent:     %s\nreturned: %s",
					list.name, i, describe(in, tr.at), path, sent, got, in[tr.at].Raw, m)
			}
		}
	}
}

func metrics(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	chars, all := 0, 0
	for _, m := range in {
		all += m.Chars
	}
	for i, m := range res.Trimmed {
		tr := trace(m, in)
		if !tr.equal {
			s.fail("MSG-2", "trimmed[%d] is %s, so estimate(trimmed) cannot be known", i, gotAt(res.Trimmed, i, in, "trimmed"))
		}
		chars += in[tr.at].Chars
	}
	got := res.Metrics
	want := protocol.Metrics{
		TotalMessages:     len(in),
		PreservedMessages: len(res.Trimmed),
		EvictedMessages:   len(res.Evicted),
		EstimatedTokens:   ceil4(chars),
	}
	if got == want {
		return
	}
	var diffs []string
	add := func(name string, g, w int, why string) {
		if g != w {
			diffs = append(diffs, fmt.Sprintf("metrics.%s is %d, wanted %d (%s)", name, g, w, why))
		}
	}
	add("totalMessages", got.TotalMessages, want.TotalMessages, "the number of input messages")
	add("preservedMessages", got.PreservedMessages, want.PreservedMessages, "the number of messages in trimmed")
	add("evictedMessages", got.EvictedMessages, want.EvictedMessages, "the number of messages in evicted")
	add("estimatedTokens", got.EstimatedTokens, want.EstimatedTokens,
		fmt.Sprintf("estimate(trimmed) = ceil(%d characters / 4), trimmed being %s; the estimate of the whole input would be %d",
			chars, traceList(res.Trimmed, in), ceil4(all)))
	s.fail("MET-1", "%s", strings.Join(diffs, "\n"))
}

func checkEstimate(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "EST-1")
	n := rapid.IntRange(0, 12).Draw(t, "n")
	in := make([]gen.Message, n)
	for i := range in {
		in[i] = gen.Messages(i, gen.MessageOpts{Tools: true, Overflow: true}).Draw(t, fmt.Sprintf("input[%d]", i))
	}
	estimate(s, in)
}

// estimate checks window.estimate of in (EST-1 – EST-5).
func estimate(s *session, in []gen.Message) {
	got := s.estimate(in)
	chars := 0
	for _, m := range in {
		chars += m.Chars
	}
	if want := ceil4(chars); got != want {
		s.blameEstimate(in, got)
	}
}

func trimWarning(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	n := len(in)
	warned := countCode(res.Warnings, codePreserveExceedsMax) > 0
	p := model.PlanFor(w.config(), in)
	switch headOnly := p.HeadOnly; {
	case headOnly && !warned:
		s.fail("WIN-3", "n = %d > max_messages %d and the head and tail, grown to whole units, hold |head| + |tail| = %d >= %d messages (preserve_first_n + preserve_last_n = %d): the trim keeps only head and tail and its warnings must contain %q; got %s\n%s",
			n, w.max, p.Head+p.Tail, w.max, w.h+w.t, codePreserveExceedsMax, warningCodes(res.Warnings), explainPlan(p, w))
	case !headOnly && warned:
		why := fmt.Sprintf("n = %d <= max_messages %d, nothing is trimmed", n, w.max)
		switch {
		case w.max == 0:
			why = "max_messages is 0, trimming is off"
		case n > w.max:
			why = fmt.Sprintf("the head and tail, grown to whole units, hold |head| + |tail| = %d < max_messages %d messages", p.Head+p.Tail, w.max)
		}
		s.fail("WIN-8", "%s, so the trim does not take the path of WIN-3 and must not warn %q; got %s",
			why, codePreserveExceedsMax, warningCodes(res.Warnings))
	}
}

func unitsWhole(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	p := model.PlanFor(w.config(), in)
	tr := traceAll(res.Trimmed, in)
	kept := map[int]bool{}
	var list []int
	for i, x := range tr {
		if x.at < 0 {
			s.fail("WIN-5", "trimmed[%d] is %s; trimmed holds input messages only", i, whatIs(res.Trimmed[i], in))
		}
		kept[x.at] = true
		list = append(list, x.at)
	}
	summary := fmt.Sprintf("%s\ngot trimmed %s, evicted %s", explainPlan(p, w), traceList(res.Trimmed, in), traceList(res.Evicted, in))
	for _, u := range p.Units {
		var in1, out1 []int
		for i := u[0]; i < u[1]; i++ {
			if kept[i] {
				in1 = append(in1, i)
			} else {
				out1 = append(out1, i)
			}
		}
		if len(in1) == 0 || len(out1) == 0 {
			continue
		}
		where := "the kept part of the middle starts inside it"
		switch {
		case !p.Trims:
			where = "nothing is trimmed here (WIN-1), so nothing may be evicted"
		case u[0] < p.H0 && p.H0 < u[1]:
			where = fmt.Sprintf("the preserved head, the first min(h, n) = %d messages, ends inside it and must grow to its end", p.H0)
		case p.T0 > 0 && u[0] < p.N-p.T0 && p.N-p.T0 < u[1]:
			where = fmt.Sprintf("the preserved tail, the last min(t, n − |head|) = %d messages, starts inside it and must grow back to its start", p.T0)
		}
		s.fail("WIN-9", "the unit %s — %s and its results — is split: trimmed holds %s but not %s; a trim cuts between units only (%s)\n%s",
			indexList(gen.IndexRange(u[0], u[1])), describe(in, u[0]), indexList(in1), indexList(out1), where, summary)
	}
	if at, problem := toolProblem(list, in); at >= 0 {
		s.fail("UNIT-3", "trimmed[%d]: %s\n%s", at, problem, summary)
	}
}

func checkRefusesBrokenTools(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "UNIT-2")
	w := s.create(gen.Configs(gen.Maxes).Draw(t, "config"))
	n := rapid.OneOf(rapid.IntRange(0, 12), gen.Lengths(w.max, w.h, w.t, gen.AnyLength)).Draw(t, "n")
	h := gen.Histories(gen.HistoryOpts{N: n, Marked: true, Tools: rapid.IntRange(1, 3).Draw(t, "tool weight"), Defects: [2]int{1, 1}, Ambiguous: true}).Draw(t, "conversation")
	refusesBrokenTools(s, w, h)
}

// refusesBrokenTools trims h, which has one broken tool structure, with w.
func refusesBrokenTools(s *session, w window, h gen.History) {
	b := h.Broken[0]
	what := fmt.Sprintf("the conversation has one broken tool structure (%s, injected as %q): %s", strings.Join(b.Codes, " or "), b.Defect, describeAll(h.Msgs, b.Idx))
	msgs := gen.Raws(h.Msgs)
	s.record(protocol.MethodWindowTrim, protocol.WindowTrimParams{Window: w.handle, Messages: msgs})
	res, err := target.Trim(s.ctx, s.tg, w.handle, msgs)
	if err == nil {
		s.fail("UNIT-2", "%s; window.trim must refuse it with %s, but it trimmed: trimmed %s, evicted %s",
			what, protocol.KindInvalidMessage, traceList(res.Trimmed, h.Msgs), traceList(res.Evicted, h.Msgs))
	}
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Kind() != protocol.KindInvalidMessage {
		s.fail("UNIT-2", "%s; window.trim must refuse it with %s, but failed with: %v", what, protocol.KindInvalidMessage, err)
	}
	if !slices.ContainsFunc(b.Codes, func(c string) bool { return strings.Contains(pe.Message, c) }) {
		s.fail("UNIT-2", "%s; window.trim refused it, but its error message names none of %s: %q", what, strings.Join(b.Codes, ", "), pe.Message)
	}
	if !namesIndex(pe.Message, b.Named) {
		s.fail("UNIT-2", "%s; window.trim refused it, but its error message names no position of the structure (%s): %q", what, indexList(b.Named), pe.Message)
	}
}

// namesIndex reports whether an error message names one of the positions,
// as messages[3] or [3].
func namesIndex(message string, idx []int) bool {
	for _, i := range idx {
		if strings.Contains(message, fmt.Sprintf("[%d]", i)) {
			return true
		}
	}
	return false
}

func describeAll(in []gen.Message, idx []int) string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = describe(in, i)
	}
	return strings.Join(out, ", ")
}

func checkCreateWarning(t *rapid.T, tg target.Target) {
	createWarning(newSession(t, tg, "CFG-6"), gen.Configs(gen.Maxes).Draw(t, "config"))
}

func createWarning(s *session, c gen.Config) {
	w := s.create(c)
	got := countCode(w.warnings, codePreserveExceedsMax)
	switch fills := w.max > 0 && w.h+w.t >= w.max; {
	case fills && got != 1:
		s.fail("CFG-6", "max_messages %d > 0 and preserve_first_n + preserve_last_n = %d >= %d: window.create must warn %q once; got %s",
			w.max, w.h+w.t, w.max, codePreserveExceedsMax, warningCodes(w.warnings))
	case !fills && got > 0:
		why := fmt.Sprintf("preserve_first_n + preserve_last_n = %d < max_messages %d", w.h+w.t, w.max)
		if w.max == 0 {
			why = "max_messages is 0 (trimming is off)"
		}
		s.fail("CFG-6", "%s: window.create must not warn %q; got %s", why, codePreserveExceedsMax, warningCodes(w.warnings))
	}
}

func checkEffectiveConfig(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "CFG-1")
	s.create(gen.Configs(gen.Maxes).Draw(t, "config")) // create checks the effective config
}
