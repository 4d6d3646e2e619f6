package properties

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoneq"
)

// codePreserveExceedsMax is the warning of CFG-6 and WIN-3.
const codePreserveExceedsMax = "preserve_exceeds_max"

func windowProperties() []Property {
	return []Property{
		{
			ID:         "prop/window-matches-plan",
			Clauses:    []string{"WIN-1", "WIN-2", "WIN-3", "WIN-4", "WIN-5", "WIN-9"},
			Capability: protocol.CapWindow,
			Doc:        "trimmed and evicted are exactly the head, kept middle and tail the clauses give, cut between units, in input order",
			Check:      checkMatchesPlan,
		},
		{
			ID:         "prop/window-head-and-tail-kept",
			Clauses:    []string{"WIN-2", "WIN-9"},
			Capability: protocol.CapWindow,
			Doc:        "a trim keeps the first min(h, n) and the last min(t, n − |head|) messages, grown to whole units, and evicts none of them",
			Check:      checkHeadAndTail,
		},
		{
			ID:         "prop/window-bound",
			Clauses:    []string{"WIN-6"},
			Capability: protocol.CapWindow,
			Doc:        "trimmed holds at most max_messages messages, or exactly the head and tail (grown to whole units) when they fill the cap",
			Check:      checkBound,
		},
		{
			ID:         "prop/window-order-no-duplicates",
			Clauses:    []string{"WIN-5"},
			Capability: protocol.CapWindow,
			Doc:        "trimmed and evicted each hold input messages in input order, none twice",
			Check:      checkOrder,
		},
		{
			ID:         "prop/window-partition",
			Clauses:    []string{"WIN-5"},
			Capability: protocol.CapWindow,
			Doc:        "every input message is in exactly one of trimmed and evicted",
			Check:      checkPartition,
		},
		{
			ID:         "prop/window-idempotent",
			Clauses:    []string{"WIN-7"},
			Capability: protocol.CapWindow,
			Doc:        "trimming is deterministic, and trimming a trimmed conversation again changes nothing",
			Check:      checkIdempotent,
		},
		{
			ID:         "prop/window-under-cap-identity",
			Clauses:    []string{"WIN-1", "CFG-5", "WIN-8"},
			Capability: protocol.CapWindow,
			Doc:        "with n <= max_messages, or max_messages 0, the input comes back unchanged, nothing evicted, no warning",
			Check:      checkUnderCap,
		},
		{
			ID:         "prop/window-cuts-by-position",
			Clauses:    []string{"WIN-5"},
			Capability: protocol.CapWindow,
			Doc:        "identical messages are distinct messages: the window cuts by position, not by content",
			Check:      checkCutsByPosition,
		},
		{
			ID:         "prop/window-round-trip",
			Clauses:    []string{"MSG-2"},
			Capability: protocol.CapWindow,
			Doc:        "every returned message is JSON-equal to the input message it stands for, unknown members included",
			Check:      checkRoundTrip,
		},
		{
			ID:         "prop/window-metrics",
			Clauses:    []string{"MET-1"},
			Capability: protocol.CapWindow,
			Doc:        "metrics count the input, trimmed and evicted, and estimate the tokens of trimmed",
			Check:      checkMetrics,
		},
		{
			ID:         "prop/window-estimate",
			Clauses:    []string{"EST-1", "EST-2", "EST-3", "EST-4", "EST-5"},
			Capability: protocol.CapWindow,
			Doc:        "window.estimate is ceil(C / 4), C the UTF-16 length of string content or of the JSON.stringify form of other content",
			Check:      checkEstimate,
		},
		{
			ID:         "prop/window-warning",
			Clauses:    []string{"WIN-3", "WIN-8"},
			Capability: protocol.CapWindow,
			Doc:        "a trim warns preserve_exceeds_max exactly when n > max_messages > 0 and |head| + |tail| >= max_messages",
			Check:      checkTrimWarning,
		},
		{
			ID:         "prop/window-units-whole",
			Clauses:    []string{"UNIT-3", "WIN-9"},
			Capability: protocol.CapWindow,
			Doc:        "trimmed holds every tool-call unit of the input whole or not at all, each call with all its results right after it",
			Check:      checkUnitsWhole,
		},
		{
			ID:         "prop/window-refuses-broken-tools",
			Clauses:    []string{"UNIT-2"},
			Capability: protocol.CapWindow,
			Doc:        "window.trim refuses a conversation with one broken tool structure with invalid_message naming the code and a position",
			Check:      checkRefusesBrokenTools,
		},
		{
			ID:         "prop/window-create-warning",
			Clauses:    []string{"CFG-6"},
			Capability: protocol.CapWindow,
			Doc:        "window.create warns preserve_exceeds_max once exactly when max_messages > 0 and h + t >= max_messages",
			Check:      checkCreateWarning,
		},
		{
			ID:         "prop/window-effective-config",
			Clauses:    []string{"CFG-1", "CFG-2", "CFG-3"},
			Capability: protocol.CapWindow,
			Doc:        "window.create returns the config sent with every absent or null member at its default",
			Check:      checkEffectiveConfig,
		},
	}
}

// ---------------------------------------------------------------------------
// The properties

func checkMatchesPlan(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-5", maxGen, anyLength)
	res := s.trim(w, in)
	p := planFor(w, in)
	wantT, wantE := p.trimmed(), p.evicted()
	i, j := firstDiff(res.Trimmed, wantT, in), firstDiff(res.Evicted, wantE, in)
	if i < 0 && j < 0 {
		return
	}
	summary := fmt.Sprintf("%s\nwanted trimmed %s, evicted %s\ngot    trimmed %s, evicted %s",
		p.explain(w), indexList(wantT), indexList(wantE), traceList(res.Trimmed, in), traceList(res.Evicted, in))
	if i >= 0 {
		clause, what := blameTrimmed(p, w, in, res.Trimmed, wantT, i)
		s.fail(clause, "%s\n%s", what, summary)
	}
	s.fail("WIN-5", "evicted[%d] should be %s, but %s; evicted holds the evicted messages in input order\n%s",
		j, wantAt(wantE, j, in), gotAt(res.Evicted, j, in, "evicted"), summary)
}

func checkHeadAndTail(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-2", maxGen, overCap)
	res := s.trim(w, in)
	p := planFor(w, in)
	if !p.trims {
		return
	}
	n, got := len(in), res.Trimmed
	ctx := fmt.Sprintf("%s\ngot trimmed %s", p.explain(w), traceList(got, in))
	for i := range p.head {
		if i >= len(got) || !jsoneq.Equal(got[i], in[i].Raw) {
			clause, why := "WIN-2", fmt.Sprintf("the first min(preserve_first_n %d, n) = %d messages", w.h, p.h0)
			if i >= p.h0 {
				clause, why = "WIN-9", fmt.Sprintf("the first min(preserve_first_n %d, n) = %d messages grown to the end of the unit they end in", w.h, p.h0)
			}
			s.fail(clause, "the preserved head is %s, %s; trimmed[%d] should be %s, but %s\n%s",
				indexList(seqIdx(p.head)), why, i, describe(in, i), gotAt(got, i, in, "trimmed"), ctx)
		}
	}
	for k := 1; k <= p.tail; k++ {
		at, pos := n-k, len(got)-k
		if pos < 0 || !jsoneq.Equal(got[pos], in[at].Raw) {
			what := "trimmed is too short to hold it"
			if pos >= 0 {
				what = gotAt(got, pos, in, "trimmed")
			}
			clause, why := "WIN-2", fmt.Sprintf("the last min(preserve_last_n %d, n − |head|) = %d messages", w.t, p.t0)
			if k > p.t0 {
				clause, why = "WIN-9", fmt.Sprintf("the last min(preserve_last_n %d, n − |head|) = %d messages grown back to the start of the unit they start in", w.t, p.t0)
			}
			s.fail(clause, "the preserved tail is %s, %s, so trimmed ends with it; trimmed[%d] should be %s, but %s\n%s",
				indexList(p.tailIdx()), why, pos, describe(in, at), what, ctx)
		}
	}
	if len(got) < p.head+p.tail {
		s.fail("WIN-2", "trimmed holds %s, fewer than the preserved head (%d) and tail (%d) together\n%s",
			plural(len(got), "message"), p.head, p.tail, ctx)
	}
	for j, e := range res.Evicted {
		if tr := trace(e, in); tr.at >= 0 && p.zone(tr.at) != "middle" {
			s.fail("WIN-2", "evicted[%d] is %s, a message of the preserved %s, which is always kept\n%s",
				j, describe(in, tr.at), p.zone(tr.at), ctx)
		}
	}
}

func checkBound(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-6", maxGen, overCap)
	res := s.trim(w, in)
	p := planFor(w, in)
	n, got := len(in), len(res.Trimmed)
	switch {
	case w.max == 0:
		return // no bound: trimming is off (CFG-5)
	case p.headOnly:
		if want := p.head + p.tail; got != want {
			s.fail("WIN-6", "n = %d > max_messages %d and the head and tail, grown to whole units, hold |head| + |tail| = %d >= %d messages, so trimmed is exactly them (with no tool calls min(n, h + t) = %d); got %d: %s\n%s",
				n, w.max, want, w.max, min(n, w.h+w.t), got, traceList(res.Trimmed, in), p.explain(w))
		}
	case got > w.max:
		s.fail("WIN-6", "max_messages is %d and the head and tail, grown to whole units, hold |head| + |tail| = %d < %d messages, so trimmed holds at most %d messages; got %d: %s\n%s",
			w.max, p.head+p.tail, w.max, w.max, got, traceList(res.Trimmed, in), p.explain(w))
	}
}

func checkOrder(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-5", maxGen, overCap)
	res := s.trim(w, in)
	for _, list := range []struct {
		name string
		msgs []json.RawMessage
	}{{"trimmed", res.Trimmed}, {"evicted", res.Evicted}} {
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

func checkPartition(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-5", maxGen, anyLength)
	res := s.trim(w, in)
	where := make([][]string, len(in))
	for _, list := range []struct {
		name string
		msgs []json.RawMessage
	}{{"trimmed", res.Trimmed}, {"evicted", res.Evicted}} {
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

func checkIdempotent(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-7", maxGen, anyLength)
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

func checkUnderCap(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-1", rapid.OneOf(rapid.Just(0), maxGen, maxGen), withinLimit)
	res := s.trim(w, in)
	clause, why := "WIN-1", fmt.Sprintf("n = %d <= max_messages %d", len(in), w.max)
	if w.max == 0 {
		clause, why = "CFG-5", "max_messages is 0, which disables trimming whatever the other members say"
	}
	if i := firstDiff(res.Trimmed, seqIdx(len(in)), in); i >= 0 || len(res.Evicted) > 0 {
		detail := fmt.Sprintf("evicted holds %s", traceList(res.Evicted, in))
		if i >= 0 {
			detail = fmt.Sprintf("trimmed[%d] should be %s, but %s", i, describe(in, i), gotAt(res.Trimmed, i, in, "trimmed"))
		}
		s.fail(clause, "%s: trimmed must be the input unchanged and nothing evicted; %s\ngot trimmed %s, evicted %s",
			why, detail, traceList(res.Trimmed, in), traceList(res.Evicted, in))
	}
	if len(res.Warnings) > 0 {
		s.fail("WIN-8", "%s: a trim that changes nothing raises no warning at all; got %s", why, warningCodes(res.Warnings))
	}
}

func checkCutsByPosition(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "WIN-5")
	cfg := configGen(maxGen).Draw(t, "config")
	w := s.create(cfg)
	n := lengthGen(w.max, w.h, w.t, overCap).Draw(t, "n")
	conv := identicalConversationGen(n).Draw(t, "conversation")
	in := conv.messages()
	res := s.trim(w, in)
	p := planFor(w, in)
	label := func(k int) string {
		if conv.of(k) < 0 {
			return describe(in, k)
		}
		return fmt.Sprintf("input[%d] (copy of template %c, role %s)", k, 'A'+conv.of(k), in[k].Role)
	}
	// letter is a returned message's template, '*' for a tool unit's
	// message and '?' for no input message.
	letter := func(m json.RawMessage) byte {
		for k, tm := range conv.templates {
			if jsoneq.Equal(m, tm.Raw) {
				return byte('A' + k)
			}
		}
		for _, x := range in {
			if jsoneq.Equal(m, x.Raw) {
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
			b.WriteByte(conv.letter(k))
		}
		return fmt.Sprintf("%q (%d messages)", b.String(), len(idx))
	}
	for _, list := range []struct {
		name string
		got  []json.RawMessage
		want []int
	}{{"trimmed", res.Trimmed, p.trimmed()}, {"evicted", res.Evicted, p.evicted()}} {
		if i := firstDiff(list.got, list.want, in); i >= 0 {
			wanted := "nothing (it should end there)"
			if i < len(list.want) {
				wanted = label(list.want[i])
			}
			s.fail("WIN-5", "the conversation is %s, identical messages that only their position tells apart (* a message of a tool-call unit); %s[%d] should be %s, but %s\n%s\nwanted trimmed %s, evicted %s\ngot    trimmed %s, evicted %s",
				wantPattern(seqIdx(n)), list.name, i, wanted, templ(list.got, i), p.explain(w),
				wantPattern(p.trimmed()), wantPattern(p.evicted()), pattern(res.Trimmed), pattern(res.Evicted))
		}
	}
}

func checkRoundTrip(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "MSG-2", maxGen, anyLength)
	res := s.trim(w, in)
	for _, list := range []struct {
		name string
		msgs []json.RawMessage
	}{{"trimmed", res.Trimmed}, {"evicted", res.Evicted}} {
		for i, m := range list.msgs {
			tr := trace(m, in)
			switch {
			case tr.at < 0:
				s.fail("MSG-2", "%s[%d] carries no %s member naming an input message, so it is not an input message returned unchanged: %s",
					list.name, i, markerName, abbreviate(m, 200))
			case !tr.equal:
				path, sent, got := jsonDiff(in[tr.at].Raw, m)
				s.fail("MSG-2", "%s[%d] is not JSON-equal to %s, the input message it stands for: at %s it was sent %s and came back %s\nsent:     %s\nreturned: %s",
					list.name, i, describe(in, tr.at), path, sent, got, in[tr.at].Raw, m)
			}
		}
	}
}

func checkMetrics(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "MET-1", maxGen, anyLength)
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
	in := make([]msg, n)
	for i := range in {
		in[i] = msgGen(i, msgOpts{tools: true, overflow: true}).Draw(t, fmt.Sprintf("input[%d]", i))
	}
	got := s.estimate(in)
	chars := 0
	for _, m := range in {
		chars += m.Chars
	}
	if want := ceil4(chars); got != want {
		s.blameEstimate(in, got)
	}
}

func checkTrimWarning(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-3", maxGen, anyLength)
	res := s.trim(w, in)
	n := len(in)
	warned := countCode(res.Warnings, codePreserveExceedsMax) > 0
	p := planFor(w, in)
	switch headOnly := p.headOnly; {
	case headOnly && !warned:
		s.fail("WIN-3", "n = %d > max_messages %d and the head and tail, grown to whole units, hold |head| + |tail| = %d >= %d messages (preserve_first_n + preserve_last_n = %d): the trim keeps only head and tail and its warnings must contain %q; got %s\n%s",
			n, w.max, p.head+p.tail, w.max, w.h+w.t, codePreserveExceedsMax, warningCodes(res.Warnings), p.explain(w))
	case !headOnly && warned:
		why := fmt.Sprintf("n = %d <= max_messages %d, nothing is trimmed", n, w.max)
		switch {
		case w.max == 0:
			why = "max_messages is 0, trimming is off"
		case n > w.max:
			why = fmt.Sprintf("the head and tail, grown to whole units, hold |head| + |tail| = %d < max_messages %d messages", p.head+p.tail, w.max)
		}
		s.fail("WIN-8", "%s, so the trim does not take the path of WIN-3 and must not warn %q; got %s",
			why, codePreserveExceedsMax, warningCodes(res.Warnings))
	}
}

func checkUnitsWhole(t *rapid.T, tg target.Target) {
	s, w, in := start(t, tg, "WIN-9", maxGen, anyLength)
	res := s.trim(w, in)
	p := planFor(w, in)
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
	summary := fmt.Sprintf("%s\ngot trimmed %s, evicted %s", p.explain(w), traceList(res.Trimmed, in), traceList(res.Evicted, in))
	for _, u := range p.units {
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
		case !p.trims:
			where = "nothing is trimmed here (WIN-1), so nothing may be evicted"
		case u[0] < p.h0 && p.h0 < u[1]:
			where = fmt.Sprintf("the preserved head, the first min(h, n) = %d messages, ends inside it and must grow to its end", p.h0)
		case p.t0 > 0 && u[0] < p.n-p.t0 && p.n-p.t0 < u[1]:
			where = fmt.Sprintf("the preserved tail, the last min(t, n − |head|) = %d messages, starts inside it and must grow back to its start", p.t0)
		}
		s.fail("WIN-9", "the unit %s — %s and its results — is split: trimmed holds %s but not %s; a trim cuts between units only (%s)\n%s",
			indexList(rangeIdx(u[0], u[1])), describe(in, u[0]), indexList(in1), indexList(out1), where, summary)
	}
	if at, problem := toolProblem(list, in); at >= 0 {
		s.fail("UNIT-3", "trimmed[%d]: %s\n%s", at, problem, summary)
	}
}

func checkRefusesBrokenTools(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "UNIT-2")
	w := s.create(configGen(maxGen).Draw(t, "config"))
	n := rapid.OneOf(rapid.IntRange(0, 12), lengthGen(w.max, w.h, w.t, anyLength)).Draw(t, "n")
	h := historyGen(genOpts{n: n, marked: true, tools: rapid.IntRange(1, 3).Draw(t, "tool weight"), defects: [2]int{1, 1}, ambiguous: true}).Draw(t, "conversation")
	b := h.broken[0]
	what := fmt.Sprintf("the conversation has one broken tool structure (%s, injected as %q): %s", strings.Join(b.codes, " or "), b.defect, describeAll(h.msgs, b.idx))
	msgs := raws(h.msgs)
	s.record(protocol.MethodWindowTrim, protocol.WindowTrimParams{Window: w.handle, Messages: msgs})
	res, err := target.Trim(s.ctx, s.tg, w.handle, msgs)
	if err == nil {
		s.fail("UNIT-2", "%s; window.trim must refuse it with %s, but it trimmed: trimmed %s, evicted %s",
			what, protocol.KindInvalidMessage, traceList(res.Trimmed, h.msgs), traceList(res.Evicted, h.msgs))
	}
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Kind() != protocol.KindInvalidMessage {
		s.fail("UNIT-2", "%s; window.trim must refuse it with %s, but failed with: %v", what, protocol.KindInvalidMessage, err)
	}
	if !slices.ContainsFunc(b.codes, func(c string) bool { return strings.Contains(pe.Message, c) }) {
		s.fail("UNIT-2", "%s; window.trim refused it, but its error message names none of %s: %q", what, strings.Join(b.codes, ", "), pe.Message)
	}
	if !namesIndex(pe.Message, b.named) {
		s.fail("UNIT-2", "%s; window.trim refused it, but its error message names no position of the structure (%s): %q", what, indexList(b.named), pe.Message)
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

func describeAll(in []msg, idx []int) string {
	out := make([]string, len(idx))
	for k, i := range idx {
		out[k] = describe(in, i)
	}
	return strings.Join(out, ", ")
}

func checkCreateWarning(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "CFG-6")
	w := s.create(configGen(maxGen).Draw(t, "config"))
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
	s.create(configGen(maxGen).Draw(t, "config")) // create checks the effective config
}

// ---------------------------------------------------------------------------
// Sessions: calls that remember what they sent, and failures that show it

type session struct {
	t   *rapid.T
	tg  target.Target
	ctx context.Context
	// clause is the clause a failed call is reported under.
	clause string
	sent   []string
	// handles maps each window handle the target gave to w1, w2, … in the
	// order of creation: a failure message must read the same when rapid
	// replays the case against a target that hands out other handles, or
	// rapid takes it for a flaky failure and does not shrink it.
	handles map[string]string
}

// stable replaces the target's window handles in text by their aliases.
func (s *session) stable(text string) string {
	for h, alias := range s.handles {
		text = strings.ReplaceAll(text, strconv.Quote(h), strconv.Quote(alias))
	}
	return text
}

func newSession(t *rapid.T, tg target.Target, clause string) *session {
	return &session{t: t, tg: tg, ctx: t.Context(), clause: clause}
}

// start creates a window from a generated config and draws a conversation
// whose length is chosen around the window's boundaries.
func start(t *rapid.T, tg target.Target, clause string, maxes *rapid.Generator[int], mode lengthMode) (*session, window, []msg) {
	s := newSession(t, tg, clause)
	w := s.create(configGen(maxes).Draw(t, "config"))
	n := lengthGen(w.max, w.h, w.t, mode).Draw(t, "n")
	return s, w, conversationGen(n).Draw(t, "conversation")
}

// fail ends the case: the clause first, then what was wanted and what came
// back, then every request sent.
func (s *session) fail(clause, format string, args ...any) {
	s.t.Helper()
	s.t.Fatalf("%s", s.stable(fmt.Sprintf("%s: %s\nrequests sent:\n  %s", clause, fmt.Sprintf(format, args...), strings.Join(s.sent, "\n  "))))
}

func (s *session) record(method string, params any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(params); err != nil {
		s.sent = append(s.sent, fmt.Sprintf("%s %+v", method, params))
		return
	}
	s.sent = append(s.sent, method+" "+strings.TrimSpace(b.String()))
}

// callFailed reports an error from the target. Every request the
// properties send is valid, so any error is a failure.
func (s *session) callFailed(method string, err error) {
	s.t.Helper()
	clause := s.clause
	var pe *protocol.Error
	if errors.As(err, &pe) {
		switch pe.Kind() {
		case protocol.KindInvalidMessage:
			clause = "MSG-1"
			if slices.ContainsFunc(structureCodes, func(c string) bool { return strings.Contains(pe.Message, c) }) {
				clause = "UNIT-2" // a well-formed structure refused
			}
		case protocol.KindInvalidConfig:
			clause = "CFG-3"
		}
	}
	s.fail(clause, "%s failed on a valid request: %v", method, err)
}

// window is a created window and its effective configuration.
type window struct {
	handle    string
	max, h, t int
	warnings  []protocol.Warning
}

// create creates a window and checks its effective configuration: a member
// sent is kept as sent, an absent or null one takes its default (CFG-1 –
// CFG-3). The properties then use the effective configuration.
func (s *session) create(c cfgCase) window {
	s.t.Helper()
	s.record(protocol.MethodWindowCreate, protocol.WindowCreateParams{Config: c.Raw})
	res, err := target.CreateWindow(s.ctx, s.tg, c.Raw)
	if err != nil {
		s.callFailed(protocol.MethodWindowCreate, err)
	}
	got := res.Config
	wm, wh, wt, ws := c.want()
	for _, f := range []struct {
		name      string
		sent      *int
		got, want int
	}{
		{"max_messages", c.Max, got.MaxMessages, wm},
		{"preserve_first_n", c.First, got.PreserveFirstN, wh},
		{"preserve_last_n", c.Last, got.PreserveLastN, wt},
	} {
		if f.got != f.want {
			s.fail(c.clause(f.name), "the effective config has %s %d, wanted %d (%s)\neffective config: %s",
				f.name, f.got, f.want, c.how(f.name), mustJSON(got))
		}
	}
	if got.SummarizeOnTrim != ws {
		s.fail(c.clause("summarize_on_trim"), "the effective config has summarize_on_trim %v, wanted %v (%s)\neffective config: %s",
			got.SummarizeOnTrim, ws, c.how("summarize_on_trim"), mustJSON(got))
	}
	if s.handles == nil {
		s.handles = map[string]string{}
	}
	s.handles[res.Window] = fmt.Sprintf("w%d", len(s.handles)+1)
	return window{handle: res.Window, max: got.MaxMessages, h: got.PreserveFirstN, t: got.PreserveLastN, warnings: res.Warnings}
}

func (s *session) trim(w window, in []msg) protocol.WindowTrimResult {
	s.t.Helper()
	return s.trimRaw(w, raws(in))
}

func (s *session) trimRaw(w window, msgs []json.RawMessage) protocol.WindowTrimResult {
	s.t.Helper()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	s.record(protocol.MethodWindowTrim, protocol.WindowTrimParams{Window: w.handle, Messages: msgs})
	res, err := target.Trim(s.ctx, s.tg, w.handle, msgs)
	if err != nil {
		s.callFailed(protocol.MethodWindowTrim, err)
	}
	return res
}

func (s *session) estimate(in []msg) int {
	s.t.Helper()
	msgs := raws(in)
	s.record(protocol.MethodWindowEstimate, protocol.WindowEstimateParams{Messages: msgs})
	tokens, err := target.Estimate(s.ctx, s.tg, msgs)
	if err != nil {
		s.callFailed(protocol.MethodWindowEstimate, err)
	}
	return tokens
}

// blameEstimate explains a wrong estimate and names the clause it breaks.
// It asks the target a few more estimates: of one-character messages, to
// check the rounding (EST-1), and of four copies of each message, which is
// exactly the number of characters the target counts for it (⌈4c / 4⌉ = c),
// to find the first message counted wrong; then of that message without
// its content, to tell content from other members (EST-2 – EST-5).
func (s *session) blameEstimate(in []msg, got int) {
	s.t.Helper()
	total := 0
	var table []string
	for i, m := range in {
		total += m.Chars
		table = append(table, fmt.Sprintf("  input[%d] (role %s): %d characters (%s content)", i, m.Role, m.Chars, m.Kind))
	}
	head := fmt.Sprintf("window.estimate returned %s for %s, wanted %d = ⌈%d characters / 4⌉", plural(got, "token"), plural(len(in), "message"), ceil4(total), total)
	if len(in) == 0 {
		s.fail("EST-1", "%s: an empty list estimates 0", head)
	}
	est := func(msgs ...json.RawMessage) int {
		tokens, err := target.Estimate(s.ctx, s.tg, msgs)
		if err != nil {
			return -1
		}
		return tokens
	}
	four := func(m json.RawMessage) int { return est(m, m, m, m) }
	perMessage := "characters per message:\n" + strings.Join(table, "\n")

	one := json.RawMessage(`{"role":"user","content":"x"}`)
	switch a, b := est(one), est(one, one); {
	case a == 0:
		s.fail("EST-1", "%s\nthe estimate rounds down: %s alone estimates 0 tokens, but ⌈1 / 4⌉ = 1\n%s", head, one, perMessage)
	case a == 1 && b == 2:
		s.fail("EST-1", "%s\nthe estimate is rounded per message: two copies of %s estimate 2 tokens, but the division is done once, on the total: ⌈2 / 4⌉ = 1\n%s", head, one, perMessage)
	}
	for i, m := range in {
		counted := four(m.Raw)
		if counted == m.Chars {
			continue
		}
		without := four(m.withoutContent)
		otherCounted := without != 0
		if m.Kind == "absent" {
			// The message is its other members; tell them apart from an
			// absent content by varying the role and adding a name.
			bare := four(json.RawMessage(`{"role":"user"}`))
			otherCounted = bare != four(json.RawMessage(`{"role":"a-much-longer-role"}`)) ||
				bare != four(json.RawMessage(`{"role":"user","name":"a-long-name"}`))
		}
		var clause, why string
		switch {
		case otherCounted:
			clause, why = "EST-5", fmt.Sprintf("members other than content are counted: without its content, four copies of it estimate %d, wanted 0", without)
		case m.Kind == "absent" || m.Kind == "null":
			clause, why = "EST-4", fmt.Sprintf("its content is %s and counts nothing", m.Kind)
		case m.Kind == "string":
			clause, why = "EST-2", fmt.Sprintf("its content is a string of %d UTF-16 code units: %q", m.Chars, m.Counted)
		default:
			clause, why = "EST-3", fmt.Sprintf("its content is %s %s whose JSON.stringify form %s has %d characters", article(m.Kind), m.Kind, m.Counted, m.Chars)
		}
		s.fail(clause, "%s\nthe first message counted wrong is input[%d] (role %s): four copies of it estimate %d tokens, so %d characters are counted for it, wanted %d; %s\n%s",
			head, i, m.Role, counted, counted, m.Chars, why, perMessage)
	}
	s.fail("EST-1", "%s\nfour copies of each message estimate its own character count, yet the list is estimated wrong\n%s", head, perMessage)
}

// ---------------------------------------------------------------------------
// Tracing returned messages back to the input

// traced is a returned message traced back to the input by its marker.
type traced struct {
	at    int  // the input message its marker names, -1 if none
	equal bool // JSON-equal to that input message
}

func trace(raw json.RawMessage, in []msg) traced {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return traced{at: -1}
	}
	var seq float64
	if json.Unmarshal(members[markerName], &seq) != nil || seq != float64(int(seq)) || seq < 0 || int(seq) >= len(in) || in[int(seq)].Seq != int(seq) {
		return traced{at: -1}
	}
	at := int(seq)
	return traced{at: at, equal: jsoneq.Equal(raw, in[at].Raw)}
}

func traceAll(list []json.RawMessage, in []msg) []traced {
	out := make([]traced, len(list))
	for i, m := range list {
		out[i] = trace(m, in)
	}
	return out
}

func wantAt(want []int, i int, in []msg) string {
	if i >= len(want) {
		return "nothing (it should end there)"
	}
	return describe(in, want[i])
}

// gotAt says what list[i], a returned message, is: "it is input[3] (role
// user)", or that the list ends before it.
func gotAt(list []json.RawMessage, i int, in []msg, name string) string {
	switch {
	case len(list) == 0:
		return name + " is empty"
	case i >= len(list):
		return fmt.Sprintf("%s ends after %s", name, plural(len(list), "message"))
	}
	return "it is " + whatIs(list[i], in)
}

// entry names list[i], or says that the list is too short to have it.
func entry(list []json.RawMessage, i int, in []msg) string {
	if i >= len(list) {
		return fmt.Sprintf("nothing (the list had %s)", plural(len(list), "message"))
	}
	return whatIs(list[i], in)
}

// whatIs names a returned message by the input message it stands for.
func whatIs(m json.RawMessage, in []msg) string {
	switch tr := trace(m, in); {
	case tr.at < 0:
		return "no input message: " + abbreviate(m, 120)
	case !tr.equal:
		return "an altered copy of " + describe(in, tr.at)
	default:
		return describe(in, tr.at)
	}
}

// traceList writes a returned list as the input positions it holds:
// input[0 3-5 ~7 ?], where ~7 is an altered copy of input[7] and ? a
// message that is no input message.
func traceList(list []json.RawMessage, in []msg) string {
	var items []string
	tr := traceAll(list, in)
	for i := 0; i < len(tr); {
		x := tr[i]
		switch {
		case x.at < 0:
			items = append(items, "?")
			i++
		case !x.equal:
			items = append(items, "~"+strconv.Itoa(x.at))
			i++
		default:
			j := i
			for j+1 < len(tr) && tr[j+1].equal && tr[j+1].at == tr[j].at+1 {
				j++
			}
			items = append(items, span(tr[i].at, tr[j].at))
			i = j + 1
		}
	}
	if len(list) == 0 {
		return "none"
	}
	return fmt.Sprintf("input[%s] (%s)", strings.Join(items, " "), plural(len(list), "message"))
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// indexList writes input positions as input[0 3-5].
func indexList(idx []int) string {
	if len(idx) == 0 {
		return "none"
	}
	var items []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		items = append(items, span(idx[i], idx[j]))
		i = j + 1
	}
	return "input[" + strings.Join(items, " ") + "]"
}

func span(a, b int) string {
	if a == b {
		return strconv.Itoa(a)
	}
	return fmt.Sprintf("%d-%d", a, b)
}

// firstDiff is the first position where got is not JSON-equal to the input
// messages at positions want, -1 when there is none.
func firstDiff(got []json.RawMessage, want []int, in []msg) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoneq.Equal(got[i], in[want[i]].Raw) {
			return i
		}
	}
	return -1
}

func firstDiffRaw(got, want []json.RawMessage) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoneq.Equal(got[i], want[i]) {
			return i
		}
	}
	return -1
}

// jsonDiff finds where two JSON texts first differ: a path such as
// $.content[0].input.city and what each holds there.
func jsonDiff(want, got []byte) (path, w, g string) {
	a, errA := decodeJSON(want)
	b, errB := decodeJSON(got)
	if errA != nil || errB != nil {
		return "$", abbreviate(want, 80), abbreviate(got, 80)
	}
	path, w, g, _ = diffValues("$", a, b)
	return path, w, g
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func diffValues(path string, a, b any) (string, string, string, bool) {
	show := func(v any) string { return abbreviate(mustJSON(v), 80) }
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path, show(a), show(b), true
		}
		names := make([]string, 0, len(x)+len(y))
		for k := range x {
			names = append(names, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			p := path + memberPath(k)
			xv, inX := x[k]
			yv, inY := y[k]
			switch {
			case !inY:
				return p, show(xv), "nothing (the member is missing)", true
			case !inX:
				return p, "nothing (no such member)", show(yv), true
			}
			if p, w, g, differ := diffValues(p, xv, yv); differ {
				return p, w, g, true
			}
		}
		return "", "", "", false
	case []any:
		y, ok := b.([]any)
		if !ok {
			return path, show(a), show(b), true
		}
		for i := range max(len(x), len(y)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(y):
				return p, show(x[i]), "nothing (the array is shorter)", true
			case i >= len(x):
				return p, "nothing (the array is longer)", show(y[i]), true
			}
			if p, w, g, differ := diffValues(p, x[i], y[i]); differ {
				return p, w, g, true
			}
		}
		return "", "", "", false
	default:
		if !jsoneq.Equal(mustJSON(a), mustJSON(b)) {
			return path, show(a), show(b), true
		}
		return "", "", "", false
	}
}

func memberPath(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "[" + string(mustJSON(name)) + "]"
		}
	}
	return "." + name
}

// ---------------------------------------------------------------------------
// Small helpers

func raws(in []msg) []json.RawMessage {
	out := make([]json.RawMessage, len(in))
	for i, m := range in {
		out[i] = m.Raw
	}
	return out
}

func seqIdx(n int) []int { return rangeIdx(0, n) }

func rangeIdx(from, to int) []int {
	out := []int{}
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

func ceil4(chars int) int { return (chars + 3) / 4 }

func countCode(ws []protocol.Warning, code string) int {
	n := 0
	for _, w := range ws {
		if w.Code == code {
			n++
		}
	}
	return n
}

func warningCodes(ws []protocol.Warning) string {
	if len(ws) == 0 {
		return "no warnings"
	}
	codes := make([]string, len(ws))
	for i, w := range ws {
		codes[i] = strconv.Quote(w.Code)
	}
	return "warnings [" + strings.Join(codes, ", ") + "]"
}

func mapsEqual(a, b map[int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func article(word string) string {
	if strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// mustJSON encodes v compactly without HTML escaping.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf("%v", v))
	}
	return bytes.TrimSpace(b.Bytes())
}

func abbreviate(b []byte, limit int) string {
	s := string(b)
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}
