package properties

import (
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
)

// windowProperties are the properties of capability window, in report order.
func windowProperties() []prop.Property {
	return []prop.Property{
		onTrims(prop.Property{ID: "prop/window-matches-plan", Clauses: []string{"WIN-1", "WIN-2", "WIN-3", "WIN-4", "WIN-5", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "trimmed and evicted are exactly the head, kept middle and tail the clauses give, cut between units, in input order",
		}, "WIN-5", gen.Maxes, gen.AnyLength, matchesPlan),
		onTrims(prop.Property{ID: "prop/window-head-and-tail-kept", Clauses: []string{"WIN-2", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "a trim keeps the first min(h, n) and the last min(t, n − |head|) messages, grown to whole units, and evicts none of them",
		}, "WIN-2", gen.Maxes, gen.OverCap, headAndTail),
		onTrims(prop.Property{ID: "prop/window-bound", Clauses: []string{"WIN-6"}, Capability: protocol.CapWindow,
			Doc: "trimmed holds at most max_messages messages, or exactly the head and tail (grown to whole units) when they fill the cap",
		}, "WIN-6", gen.Maxes, gen.OverCap, bound),
		onTrims(prop.Property{ID: "prop/window-order-no-duplicates", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc: "trimmed and evicted each hold input messages in input order, none twice",
		}, "WIN-5", gen.Maxes, gen.OverCap, order),
		onTrims(prop.Property{ID: "prop/window-partition", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc: "every input message is in exactly one of trimmed and evicted",
		}, "WIN-5", gen.Maxes, gen.AnyLength, partition),
		onTrims(prop.Property{ID: "prop/window-idempotent", Clauses: []string{"WIN-7"}, Capability: protocol.CapWindow,
			Doc: "trimming is deterministic, and trimming a trimmed conversation again changes nothing",
		}, "WIN-7", gen.Maxes, gen.AnyLength, idempotent),
		onTrims(prop.Property{ID: "prop/window-under-cap-identity", Clauses: []string{"WIN-1", "CFG-5", "WIN-8"}, Capability: protocol.CapWindow,
			Doc: "with n <= max_messages, or max_messages 0, the input comes back unchanged, nothing evicted, no warning",
		}, "WIN-1", rapid.OneOf(rapid.Just(0), gen.Maxes, gen.Maxes), gen.WithinLimit, underCap),
		{ID: "prop/window-cuts-by-position", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc:   "identical messages are distinct messages: the window cuts by position, not by content",
			Check: checkCutsByPosition, Examples: identicalEdges()},
		onTrims(prop.Property{ID: "prop/window-round-trip", Clauses: []string{"MSG-2"}, Capability: protocol.CapWindow,
			Doc: "every returned message is JSON-equal to the input message it stands for, unknown members included",
		}, "MSG-2", gen.Maxes, gen.AnyLength, roundTrip),
		onTrims(prop.Property{ID: "prop/window-metrics", Clauses: []string{"MET-1"}, Capability: protocol.CapWindow,
			Doc: "metrics count the input, trimmed and evicted, and estimate the tokens of trimmed",
		}, "MET-1", gen.Maxes, gen.AnyLength, metrics),
		{ID: "prop/window-estimate", Clauses: []string{"EST-1", "EST-2", "EST-3", "EST-4", "EST-5"}, Capability: protocol.CapWindow,
			Doc:   "window.estimate is ceil(C / 4), C the UTF-16 length of string content or of the JSON.stringify form of other content",
			Check: checkEstimate, Examples: estimateEdges()},
		onTrims(prop.Property{ID: "prop/window-warning", Level: protocol.LevelDiagnostics, Clauses: []string{"WIN-3", "WIN-8"}, Capability: protocol.CapWindow,
			Doc: "a trim warns preserve_exceeds_max exactly when n > max_messages > 0 and |head| + |tail| >= max_messages",
		}, "WIN-3", gen.Maxes, gen.AnyLength, trimWarning),
		onTrims(prop.Property{ID: "prop/window-units-whole", Clauses: []string{"UNIT-3", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "trimmed holds every tool-call unit of the input whole or not at all, each call with all its results right after it",
		}, "WIN-9", gen.Maxes, gen.AnyLength, unitsWhole),
		{ID: "prop/window-refuses-broken-tools", Clauses: []string{"UNIT-2"}, Capability: protocol.CapWindow,
			Doc:   "window.trim refuses a conversation with one broken tool structure with invalid_message naming the code and a position",
			Check: checkRefusesBrokenTools, Examples: brokenToolEdges()},
		{ID: "prop/window-create-warning", Clauses: []string{"CFG-6"}, Capability: protocol.CapWindow,
			Doc:   "window.create warns preserve_exceeds_max once exactly when max_messages > 0 and h + t >= max_messages",
			Check: checkCreateWarning, Examples: configEdges("CFG-6", createWarning)},
		{ID: "prop/window-effective-config", Clauses: []string{"CFG-1", "CFG-2", "CFG-3"}, Capability: protocol.CapWindow,
			Doc:   "window.create returns the config sent with every absent or null member at its default",
			Check: checkEffectiveConfig, Examples: configEdges("CFG-1", func(s *session, c gen.Config) { s.create(c) })},
	}
}

// codePreserveExceedsMax is the warning of CFG-6 and WIN-3.
const codePreserveExceedsMax = "preserve_exceeds_max"

func matchesPlan(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	p := model.PlanFor(w.config(), in)
	wantT, wantE := p.Trimmed(), p.Evicted()
	i, j := firstDiff(res.Trimmed, wantT, in), firstDiff(res.Evicted, wantE, in)
	if i < 0 && j < 0 {
		return
	}
	summary := fmt.Sprintf("%s\nwanted trimmed %s, evicted %s\ngot    trimmed %s, evicted %s",
		explainPlan(p, w), indexList(wantT), indexList(wantE), traceList(res.Trimmed, in), traceList(res.Evicted, in))
	if i >= 0 {
		clause, what := blameTrimmed(p, w, in, res.Trimmed, wantT, i)
		s.fail(clause, "%s\n%s", what, summary)
	}
	s.fail("WIN-5", "evicted[%d] should be %s, but %s; evicted holds the evicted messages in input order\n%s",
		j, wantAt(wantE, j, in), gotAt(res.Evicted, j, in, "evicted"), summary)
}

func headAndTail(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	p := model.PlanFor(w.config(), in)
	if !p.Trims {
		return
	}
	n, got := len(in), res.Trimmed
	ctx := fmt.Sprintf("%s\ngot trimmed %s", explainPlan(p, w), traceList(got, in))
	for i := range p.Head {
		if i >= len(got) || !jsoncmp.Equal(got[i], in[i].Raw) {
			clause, why := "WIN-2", fmt.Sprintf("the first min(preserve_first_n %d, n) = %d messages", w.h, p.H0)
			if i >= p.H0 {
				clause, why = "WIN-9", fmt.Sprintf("the first min(preserve_first_n %d, n) = %d messages grown to the end of the unit they end in", w.h, p.H0)
			}
			s.fail(clause, "the preserved head is %s, %s; trimmed[%d] should be %s, but %s\n%s",
				indexList(gen.Indices(p.Head)), why, i, describe(in, i), gotAt(got, i, in, "trimmed"), ctx)
		}
	}
	for k := 1; k <= p.Tail; k++ {
		at, pos := n-k, len(got)-k
		if pos < 0 || !jsoncmp.Equal(got[pos], in[at].Raw) {
			what := "trimmed is too short to hold it"
			if pos >= 0 {
				what = gotAt(got, pos, in, "trimmed")
			}
			clause, why := "WIN-2", fmt.Sprintf("the last min(preserve_last_n %d, n − |head|) = %d messages", w.t, p.T0)
			if k > p.T0 {
				clause, why = "WIN-9", fmt.Sprintf("the last min(preserve_last_n %d, n − |head|) = %d messages grown back to the start of the unit they start in", w.t, p.T0)
			}
			s.fail(clause, "the preserved tail is %s, %s, so trimmed ends with it; trimmed[%d] should be %s, but %s\n%s",
				indexList(p.TailIdx()), why, pos, describe(in, at), what, ctx)
		}
	}
	if len(got) < p.Head+p.Tail {
		s.fail("WIN-2", "trimmed holds %s, fewer than the preserved head (%d) and tail (%d) together\n%s",
			plural(len(got), "message"), p.Head, p.Tail, ctx)
	}
	for j, e := range res.Evicted {
		if tr := trace(e, in); tr.at >= 0 && p.Zone(tr.at) != "middle" {
			s.fail("WIN-2", "evicted[%d] is %s, a message of the preserved %s, which is always kept\n%s",
				j, describe(in, tr.at), p.Zone(tr.at), ctx)
		}
	}
}

func bound(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	p := model.PlanFor(w.config(), in)
	n, got := len(in), len(res.Trimmed)
	switch {
	case w.max == 0:
		return // no bound: trimming is off (CFG-5)
	case p.HeadOnly:
		if want := p.Head + p.Tail; got != want {
			s.fail("WIN-6", "n = %d > max_messages %d and the head and tail, grown to whole units, hold |head| + |tail| = %d >= %d messages, so trimmed is exactly them (with no tool calls min(n, h + t) = %d); got %d: %s\n%s",
				n, w.max, want, w.max, min(n, w.h+w.t), got, traceList(res.Trimmed, in), explainPlan(p, w))
		}
	case got > w.max:
		s.fail("WIN-6", "max_messages is %d and the head and tail, grown to whole units, hold |head| + |tail| = %d < %d messages, so trimmed holds at most %d messages; got %d: %s\n%s",
			w.max, p.Head+p.Tail, w.max, w.max, got, traceList(res.Trimmed, in), explainPlan(p, w))
	}
}

func order(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	for _, list := range trimLists(res) {
		seen := map[int]int{}
		prev := -1
		for i, m := range list.msgs {
			tr := trace(m, in)
			if tr.at < 0 {
				s.fail("WIN-5", "%s[%d] is %s: every returned message is one of the input messages\n%s %s",
					list.name, i, gotAt(list.msgs, i, in, list.name), list.name, traceList(list.msgs, in))
			}
			if first, dup := seen[tr.at]; dup {
				why := ""
				if n := len(in); n < w.h+w.t && w.max > 0 && n > w.max {
					why = fmt.Sprintf(" (n = %d < h + t = %d: the tail takes only what the head left, WIN-2)", n, w.h+w.t)
				}
				s.fail("WIN-5", "%s appears twice in %s, at %s[%d] and %s[%d]%s\n%s %s",
					describe(in, tr.at), list.name, list.name, first, list.name, i, why, list.name, traceList(list.msgs, in))
			}
			if tr.at < prev {
				s.fail("WIN-5", "%s[%d] is %s but %s[%d] is input[%d]: %s must keep input order\n%s %s",
					list.name, i, describe(in, tr.at), list.name, i-1, prev, list.name, list.name, traceList(list.msgs, in))
			}
			seen[tr.at], prev = i, tr.at
		}
	}
}

func partition(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	where := make([][]string, len(in))
	for _, list := range trimLists(res) {
		for i, m := range list.msgs {
			tr := trace(m, in)
			if tr.at < 0 {
				s.fail("WIN-5", "%s[%d] is %s; trimmed and evicted together must be exactly the input messages\ngot trimmed %s, evicted %s",
					list.name, i, gotAt(list.msgs, i, in, list.name), traceList(res.Trimmed, in), traceList(res.Evicted, in))
			}
			where[tr.at] = append(where[tr.at], fmt.Sprintf("%s[%d]", list.name, i))
		}
	}
	summary := fmt.Sprintf("%s in, %d trimmed + %d evicted\ngot trimmed %s, evicted %s",
		plural(len(in), "message"), len(res.Trimmed), len(res.Evicted), traceList(res.Trimmed, in), traceList(res.Evicted, in))
	for k, ws := range where {
		switch {
		case len(ws) == 0:
			s.fail("WIN-5", "%s is in neither trimmed nor evicted; every input message must be in exactly one\n%s", describe(in, k), summary)
		case len(ws) > 1:
			s.fail("WIN-5", "%s is returned %d times, as %s; every input message must be in exactly one of trimmed and evicted\n%s",
				describe(in, k), len(ws), strings.Join(ws, " and "), summary)
		}
	}
}

func idempotent(s *session, w window, in []gen.Message) {
	first := s.trim(w, in)
	again := s.trimRaw(w, first.Trimmed)
	if i := firstDiffRaw(again.Trimmed, first.Trimmed); i >= 0 || len(again.Evicted) > 0 {
		detail := fmt.Sprintf("it evicted %s", traceList(again.Evicted, in))
		if i >= 0 {
			detail = fmt.Sprintf("trimmed[%d] was %s and is now %s", i, entry(first.Trimmed, i, in), entry(again.Trimmed, i, in))
		}
		s.fail("WIN-7", "trimming the trimmed result (%s) again with the same window must return it unchanged and evict nothing; %s\nfirst trim:  trimmed %s, evicted %s\nsecond trim: trimmed %s, evicted %s",
			plural(len(first.Trimmed), "message"), detail, traceList(first.Trimmed, in), traceList(first.Evicted, in), traceList(again.Trimmed, in), traceList(again.Evicted, in))
	}
	repeat := s.trim(w, in)
	i, j := firstDiffRaw(repeat.Trimmed, first.Trimmed), firstDiffRaw(repeat.Evicted, first.Evicted)
	if i >= 0 || j >= 0 {
		s.fail("WIN-7", "trimming the same input twice with the same window gave different results\nfirst:  trimmed %s, evicted %s\nsecond: trimmed %s, evicted %s",
			traceList(first.Trimmed, in), traceList(first.Evicted, in), traceList(repeat.Trimmed, in), traceList(repeat.Evicted, in))
	}
}

func underCap(s *session, w window, in []gen.Message) {
	res := s.trim(w, in)
	clause, why := "WIN-1", fmt.Sprintf("n = %d <= max_messages %d", len(in), w.max)
	if w.max == 0 {
		clause, why = "CFG-5", "max_messages is 0, which disables trimming whatever the other members say"
	}
	if i := firstDiff(res.Trimmed, gen.Indices(len(in)), in); i >= 0 || len(res.Evicted) > 0 {
		detail := fmt.Sprintf("evicted holds %s", traceList(res.Evicted, in))
		if i >= 0 {
			detail = fmt.Sprintf("trimmed[%d] should be %s, but %s", i, describe(in, i), gotAt(res.Trimmed, i, in, "trimmed"))
		}
		s.fail(clause, "%s: trimmed must be the input unchanged and nothing evicted; %s\ngot trimmed %s, evicted %s",
			why, detail, traceList(res.Trimmed, in), traceList(res.Evicted, in))
	}
	if len(res.Warnings) > 0 && prop.Diagnostics(s.tg) {
		s.fail("WIN-8", "%s: a trim that changes nothing raises no warning at all; got %s", why, warningCodes(res.Warnings))
	}
}

func checkCutsByPosition(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "WIN-5")
	cfg := gen.Configs(gen.Maxes).Draw(t, "config")
	w := s.create(cfg)
	n := gen.Lengths(w.max, w.h, w.t, gen.OverCap).Draw(t, "n")
	cutsByPosition(s, w, gen.IdenticalConversations(n).Draw(t, "conversation"))
}

// cutsByPosition trims conv, whose messages are copies of a few
// templates, with w.
func cutsByPosition(s *session, w window, conv gen.Identical) {
	in := conv.Messages()
	res := s.trim(w, in)
	p := model.PlanFor(w.config(), in)
	label := func(k int) string {
		if conv.Of(k) < 0 {
			return describe(in, k)
		}
		return fmt.Sprintf("input[%d] (copy of template %c, role %s)", k, 'A'+conv.Of(k), in[k].Role)
	}
	// letter is a returned message's template, '*' for a tool unit's
	// message and '?' for no input message.
	letter := func(m json.RawMessage) byte {
		for k, tm := range conv.Templates {
			if jsoncmp.Equal(m, tm.Raw) {
				return byte('A' + k)
			}
		}
		for _, x := range in {
			if jsoncmp.Equal(m, x.Raw) {
				return '*'
			}
		}
		return '?'
	}
	templ := func(list []json.RawMessage, i int) string {
		if i >= len(list) {
			return "it is missing"
		}
		switch c := letter(list[i]); c {
		case '*':
			return "it is a message of a tool-call unit: " + abbreviate(list[i], 120)
		case '?':
			return "it is no input message: " + abbreviate(list[i], 120)
		default:
			return fmt.Sprintf("it is a copy of template %c", c)
		}
	}
	pattern := func(list []json.RawMessage) string {
		var b strings.Builder
		for _, m := range list {
			b.WriteByte(letter(m))
		}
		return fmt.Sprintf("%q (%d messages)", b.String(), len(list))
	}
	wantPattern := func(idx []int) string {
		var b strings.Builder
		for _, k := range idx {
			b.WriteByte(conv.Letter(k))
		}
		return fmt.Sprintf("%q (%d messages)", b.String(), len(idx))
	}
	for _, list := range []struct {
		name string
		got  []json.RawMessage
		want []int
	}{{"trimmed", res.Trimmed, p.Trimmed()}, {"evicted", res.Evicted, p.Evicted()}} {
		if i := firstDiff(list.got, list.want, in); i >= 0 {
			wanted := "nothing (it should end there)"
			if i < len(list.want) {
				wanted = label(list.want[i])
			}
			s.fail("WIN-5", "the conversation is %s, identical messages that only their position tells apart (* a message of a tool-call unit); %s[%d] should be %s, but %s\n%s\nwanted trimmed %s, evicted %s\ngot    trimmed %s, evicted %s",
				wantPattern(gen.Indices(len(in))), list.name, i, wanted, templ(list.got, i), explainPlan(p, w),
				wantPattern(p.Trimmed()), wantPattern(p.Evicted()), pattern(res.Trimmed), pattern(res.Evicted))
		}
	}
}
