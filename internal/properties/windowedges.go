package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The window properties' edge examples: every invariant of a trim checked,
// before any random case, on windows at the boundaries the clauses draw —
// trimming off (CFG-5), a cap of one, head and tail one below, at and one
// above max_messages (WIN-3), conversations of exactly max_messages, one
// over and two over (WIN-1, WIN-6) — so that a bound broken by one never
// depends on the seed.

// windowCase is a window property's check of one trim: the window it
// created and the conversation it trims.
type windowCase func(s *session, w window, in []gen.Message)

// onTrims makes p a property of one trim: its random cases create a window
// from a generated configuration (max_messages drawn by maxes) and trim a
// conversation whose length mode places around the window's boundaries;
// its edge examples are windowEdges'; check judges each trim.
func onTrims(p prop.Property, clause string, maxes *rapid.Generator[int], mode gen.LengthMode, check windowCase) prop.Property {
	p.Check = func(t *rapid.T, tg target.Target) {
		s, w, in := start(t, tg, clause, maxes, mode)
		check(s, w, in)
	}
	p.Examples = windowEdges(clause, mode, check)
	return p
}

// windowEdge is a window and a conversation length at a boundary.
type windowEdge struct {
	max, first, last, n int
}

// windowEdgeList: each line one boundary of CFG-5, WIN-1, WIN-3 or WIN-6.
func windowEdgeList() []windowEdge {
	return []windowEdge{
		{max: 0, first: 1, last: 1, n: 5},   // trimming off, whatever head and tail say
		{max: 1, first: 0, last: 0, n: 2},   // a cap of one, nothing preserved
		{max: 1, first: 1, last: 0, n: 2},   // a head that fills the cap
		{max: 1, first: 0, last: 1, n: 3},   // a tail that fills the cap
		{max: 3, first: 1, last: 1, n: 0},   // nothing at all
		{max: 3, first: 1, last: 1, n: 3},   // n = max: nothing to trim
		{max: 3, first: 2, last: 1, n: 3},   // n = max and h + t = max: no warning either
		{max: 3, first: 1, last: 1, n: 4},   // h + t = max − 1, one over
		{max: 3, first: 2, last: 1, n: 4},   // h + t = max, one over
		{max: 3, first: 2, last: 2, n: 5},   // h + t = max + 1, two over
		{max: 3, first: 3, last: 3, n: 4},   // head and tail overlap: n < h + t
		{max: 3, first: 0, last: 3, n: 5},   // all tail
		{max: 3, first: 3, last: 0, n: 5},   // all head
		{max: 5, first: 2, last: 2, n: 6},   // one over, a middle of one
		{max: 5, first: 0, last: 0, n: 7},   // nothing preserved, two over
		{max: 5, first: 2, last: 3, n: 11},  // h + t = max, far over
		{max: 8, first: 3, last: 4, n: 9},   // h + t = max − 1, one over
		{max: 8, first: 1, last: 1, n: 12},  // head and tail of one, grown to whole units
		{max: 10, first: 2, last: 3, n: 15}, // head, middle and tail each cut near a unit
	}
}

// windowEdges runs check on every edge whose length mode allows it (a
// property of trims that evict needs n > max > 0), each on conversations
// of its own (edgeConversations, seeded by the edge's position in the
// list), so that the edges between them meet every message shape and
// tool-call units cut at different places.
func windowEdges(clause string, mode gen.LengthMode, check windowCase) []prop.Example {
	var out []prop.Example
	for k, e := range windowEdgeList() {
		trims := e.max > 0 && e.n > e.max
		if mode == gen.OverCap && !trims || mode == gen.WithinLimit && trims {
			continue
		}
		out = append(out, prop.Example{
			Name: fmt.Sprintf("max_messages %d, preserve_first_n %d, preserve_last_n %d, %d messages", e.max, e.first, e.last, e.n),
			Run: func(f prop.Failer, tg target.Target) {
				s := fixedSession(f, tg, clause)
				w := s.create(fixedConfig(e.max, e.first, e.last))
				for _, in := range edgeConversations(tg.Info().Formats, e.n, k) {
					check(s, w, in)
				}
			},
		})
	}
	return out
}

// fixedConfig is a configuration with every count set.
func fixedConfig(maxN, first, last int) gen.Config {
	c := gen.Config{Max: &maxN, First: &first, Last: &last, Sent: map[string]string{}}
	var mems []string
	for _, m := range []struct {
		name string
		v    int
	}{{"max_messages", maxN}, {"preserve_first_n", first}, {"preserve_last_n", last}} {
		c.Sent[m.name] = strconv.Itoa(m.v)
		mems = append(mems, fmt.Sprintf("%q:%d", m.name, m.v))
	}
	c.Raw = json.RawMessage("{" + strings.Join(mems, ",") + "}")
	return c
}

// edgeConversations are the conversations of n messages an edge runs on,
// in the formats given (nil: both): the generator's mix of units for seed,
// and tool-call units only, so that every cut falls inside or next to a
// unit (UNIT-3, WIN-9).
func edgeConversations(formats []string, n, seed int) [][]gen.Message {
	o := gen.HistoryOpts{N: n, Exact: true, Marked: true, Tools: -1, Formats: formats}
	tools := o
	tools.Tools, tools.Force = 1, "tool"
	return [][]gen.Message{fixedHistory(formats, o, seed, nil).Msgs, fixedHistory(formats, tools, seed, nil).Msgs}
}

// fixedHistory is the conversation generator's fixed example for seed, or
// the next one, in steps of a prime, that accept takes (nil: any) and
// whose messages use only the provider formats given (D-42): a generator
// reads the declared formats from its rapid.T's context, which a fixed
// example does not have, so they are passed in the options and checked.
// Should no example be of the kind accept asks for, the first in the
// formats stands in: an edge that cannot be reached in a format is no
// fault of the implementation (TestEveryEdgeIsReached keeps them reached).
func fixedHistory(formats []string, o gen.HistoryOpts, seed int, accept func(gen.History) bool) gen.History {
	if h, ok := findHistory(formats, o, seed, accept); ok {
		return h
	}
	h, _ := findHistory(formats, o, seed, nil)
	return h
}

// findHistory is fixedHistory without the stand-in.
func findHistory(formats []string, o gen.HistoryOpts, seed int, accept func(gen.History) bool) (gen.History, bool) {
	g := gen.Histories(o)
	for try := range 500 {
		h := g.Example(seed + try*7919)
		if inFormats(formats, h.Msgs) && (accept == nil || accept(h)) {
			return h, true
		}
	}
	return gen.History{}, false
}

// inFormats reports whether every message of in uses one of formats.
func inFormats(formats []string, in []gen.Message) bool {
	if len(formats) == 0 {
		return true
	}
	for _, m := range in {
		if f := gen.MessageFormat(m.Raw); f != "" && !slices.Contains(formats, f) {
			return false
		}
	}
	return true
}

// configEdges creates a window with each edge's configuration, and with
// the configurations that leave a member to its default (CFG-1, CFG-2:
// absent, null) or spell a count as 3.0 and 3e0 (CFG-3), and checks each
// with check.
func configEdges(clause string, check func(s *session, c gen.Config)) []prop.Example {
	var out []prop.Example
	for _, e := range windowEdgeList() {
		out = append(out, prop.Example{
			Name: fmt.Sprintf("max_messages %d, preserve_first_n %d, preserve_last_n %d", e.max, e.first, e.last),
			Run: func(f prop.Failer, tg target.Target) {
				check(fixedSession(f, tg, clause), fixedConfig(e.max, e.first, e.last))
			},
		})
	}
	three := 3
	for _, c := range []gen.Config{
		{},
		{Raw: json.RawMessage(`{}`), Sent: map[string]string{}},
		{Raw: json.RawMessage(`{"max_messages":null,"preserve_first_n":null,"preserve_last_n":null,"summarize_on_trim":null}`),
			Sent: map[string]string{"max_messages": "null", "preserve_first_n": "null", "preserve_last_n": "null", "summarize_on_trim": "null"}},
		{Raw: json.RawMessage(`{"max_messages":3.0,"preserve_first_n":3e0}`), Max: &three, First: &three,
			Sent: map[string]string{"max_messages": "3.0", "preserve_first_n": "3e0"}},
	} {
		name := "no config member"
		if c.Raw != nil {
			name = "config " + string(c.Raw)
		}
		out = append(out, prop.Example{Name: name, Run: func(f prop.Failer, tg target.Target) { check(fixedSession(f, tg, clause), c) }})
	}
	return out
}

// brokenToolEdges trims, with a window that trims and one that does not,
// a conversation with one broken tool structure of each kind the
// generator makes (UNIT-2), early and late in the conversation.
func brokenToolEdges() []prop.Example {
	var out []prop.Example
	for k, kind := range append(slices.Clone(gen.SureDefects), gen.AmbiguousDefects...) {
		for _, where := range []string{"early", "late"} {
			out = append(out, prop.Example{
				Name: fmt.Sprintf("one broken structure (%s) %s", kind, where),
				Run: func(f prop.Failer, tg target.Target) {
					s := fixedSession(f, tg, "UNIT-2")
					o := brokenToolOpts(tg.Info().Formats)
					h := fixedHistory(o.Formats, o, k, brokenAt(kind, where))
					if len(h.Broken) == 0 { // not reachable in these formats: nothing to refuse
						return
					}
					for _, c := range []gen.Config{fixedConfig(3, 1, 1), fixedConfig(0, 0, 0)} {
						refusesBrokenTools(s, s.create(c), h)
					}
				},
			})
		}
	}
	return out
}

// brokenToolOpts generate conversations with one broken tool structure.
func brokenToolOpts(formats []string) gen.HistoryOpts {
	return gen.HistoryOpts{N: 8, Exact: true, Marked: true, Tools: 2, Defects: [2]int{1, 1}, Ambiguous: true, Formats: formats}
}

// brokenAt accepts a history whose one broken structure is of kind and
// starts in its first half (where "early") or ends in its second
// ("late").
func brokenAt(kind, where string) func(gen.History) bool {
	return func(h gen.History) bool {
		if len(h.Broken) == 0 || h.Broken[0].Defect != kind {
			return false
		}
		idx, n := h.Broken[0].Idx, len(h.Msgs)
		return len(idx) > 0 && (where == "early" && 2*idx[0] < n || where == "late" && 2*idx[len(idx)-1] >= n)
	}
}

// identicalEdges trims, with every boundary window that trims,
// conversations of copies of a few templates (WIN-5: the window cuts by
// position, not by content).
func identicalEdges() []prop.Example {
	var out []prop.Example
	for k, e := range windowEdgeList() {
		if e.max == 0 || e.n <= e.max {
			continue
		}
		out = append(out, prop.Example{
			Name: fmt.Sprintf("copies of a few messages, max_messages %d, preserve_first_n %d, preserve_last_n %d, %d messages", e.max, e.first, e.last, e.n),
			Run: func(f prop.Failer, tg target.Target) {
				s := fixedSession(f, tg, "WIN-5")
				w := s.create(fixedConfig(e.max, e.first, e.last))
				g := gen.IdenticalConversations(e.n)
				for try := range 200 {
					if conv := g.Example(k + try*7919); inFormats(tg.Info().Formats, conv.Msgs) || try == 199 {
						cutsByPosition(s, w, conv)
						return
					}
				}
			},
		})
	}
	return out
}

// estimateEdges estimates the empty list, one message with content of
// each JSON type, and pairs of them whose characters add up to one over
// and to a multiple of 4 (EST-1: the division is done once, on the total).
func estimateEdges() []prop.Example {
	of := func(kind string) func(gen.Message) bool { return func(m gen.Message) bool { return m.Kind == kind } }
	kinds := []func(gen.Message) bool{of("string"), of("array"), of("object"), of("null"), of("absent"), of("number"), of("boolean"),
		// a string written with escapes: EST-2 counts its value, not its JSON text
		func(m gen.Message) bool { return m.Kind == "string" && strings.Contains(string(m.Raw), `\\`) }}
	return []prop.Example{{Name: "the empty list, then one message of each content type and an escaped string, then pairs around multiples of 4", Run: func(f prop.Failer, tg target.Target) {
		s := fixedSession(f, tg, "EST-1")
		estimate(s, nil)
		g := gen.Messages(0, gen.MessageOpts{Tools: true, Overflow: true})
		var ones []gen.Message
		for k, kind := range kinds {
			for try := range 500 {
				if m := g.Example(k + try*7919); kind(m) && inFormats(tg.Info().Formats, []gen.Message{m}) {
					ones = append(ones, m)
					break
				}
			}
		}
		for _, m := range ones {
			estimate(s, []gen.Message{m})
		}
		for i, a := range ones {
			for _, b := range ones[i+1:] {
				if r := (a.Chars + b.Chars) % 4; r == 0 || r == 1 {
					estimate(s, []gen.Message{a, b})
				}
			}
		}
	}}}
}
