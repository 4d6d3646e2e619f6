package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The history properties' edge examples (CLS, PRUNE, BUILD): histories
// chosen for the shapes the rules part at — runs of user prompts first and
// last, prompts separated by a system message or a stray tool result,
// tool-call units only, several leading system messages — and, for build,
// max_messages 0, 1, 2 and one below, at and one above the messages
// after the system prompt, before any random case.

// historyEdge is one shape of history, drawn from the generator with o
// until accept takes one.
type historyEdge struct {
	name   string
	o      gen.HistoryOpts
	accept func(gen.History) bool
}

// classesAt reports whether the classes of h's messages hold want at some
// position, in order.
func classesAt(want ...string) func(gen.History) bool {
	return func(h gen.History) bool {
		for i := 0; i+len(want) <= len(h.Msgs); i++ {
			if slices.EqualFunc(h.Msgs[i:i+len(want)], want, func(m gen.Message, c string) bool { return m.Class == c }) {
				return true
			}
		}
		return false
	}
}

// startsWith and endsWith report whether h starts or ends with messages of
// the classes given.
func startsWith(want ...string) func(gen.History) bool {
	return func(h gen.History) bool {
		return len(h.Msgs) >= len(want) && classesAt(want...)(gen.History{Msgs: h.Msgs[:len(want)]})
	}
}

func endsWith(want ...string) func(gen.History) bool {
	return func(h gen.History) bool {
		return len(h.Msgs) >= len(want) && classesAt(want...)(gen.History{Msgs: h.Msgs[len(h.Msgs)-len(want):]})
	}
}

// wellFormedEdges are well-formed histories (UNIT-1) of every shape the
// pruning and window rules part at.
func wellFormedEdges() []historyEdge {
	runs := gen.HistoryOpts{N: 10, Tools: -1, Runs: true}
	return []historyEdge{
		{"the empty history", gen.HistoryOpts{}, nil},
		{"a run of prompts first", runs, startsWith(gen.ClassUserPrompt, gen.ClassUserPrompt)},
		{"a run of prompts last", runs, endsWith(gen.ClassUserPrompt, gen.ClassUserPrompt)},
		{"prompts separated by a system message", runs, classesAt(gen.ClassUserPrompt, gen.ClassSystem, gen.ClassUserPrompt)},
		{"two leading system messages", runs, startsWith(gen.ClassSystem, gen.ClassSystem)},
		{"tool-call units only", gen.HistoryOpts{N: 9, Tools: 1, Force: "tool"}, nil},
	}
}

// brokenEdges are histories with lo to hi broken tool structures (UNIT-2):
// a stray result between prompts, and structures at the start and end.
func brokenEdges(lo, hi int) []historyEdge {
	o := gen.HistoryOpts{N: 10, Tools: 2, Runs: true, Defects: [2]int{lo, hi}}
	edges := []historyEdge{
		{"a broken structure first", o, func(h gen.History) bool { return len(h.Broken) > 0 && h.Msgs[0].Unit[0] < 0 }},
		{"a broken structure last", o, func(h gen.History) bool { return len(h.Broken) > 0 && h.Msgs[len(h.Msgs)-1].Unit[0] < 0 }},
		{"a stray tool result between prompts", o, func(h gen.History) bool {
			return len(h.Broken) > 0 && classesAt(gen.ClassUserPrompt, gen.ClassToolResult, gen.ClassUserPrompt)(h)
		}},
	}
	if lo == 0 {
		edges = append(wellFormedEdges(), edges...)
	}
	return edges
}

// fixedHistoryOf is the history of edge e for tg's declared formats,
// found once per run when m keeps it.
func fixedHistoryOf(m *edgeMemo, tg target.Target, e historyEdge, seed int) gen.History {
	o := e.o
	o.Exact, o.Marked, o.Formats = true, true, tg.Info().Formats
	return m.history("history edge "+e.name, o, seed, e.accept)
}

// edgeMemo keeps the edge examples' histories for one run of the
// properties (one call of All, which makes it): one edge serves several
// properties, and finding a history the edge accepts can take a hundred
// draws and more ("two leading system messages"). Each property gets a
// copy of the lists, so that none sees what another does with them. A nil
// memo keeps nothing.
type edgeMemo struct {
	mu    sync.Mutex
	found map[string]gen.History
}

func newEdgeMemo() *edgeMemo { return &edgeMemo{found: map[string]gen.History{}} }

// history is fixedHistory(o.Formats, o, seed, accept); name says which
// edge it is, as accept cannot.
func (m *edgeMemo) history(name string, o gen.HistoryOpts, seed int, accept func(gen.History) bool) gen.History {
	if m == nil {
		return fixedHistory(o.Formats, o, seed, accept)
	}
	key := fmt.Sprintf("%s|%+v|%d", name, o, seed)
	m.mu.Lock()
	h, ok := m.found[key]
	m.mu.Unlock()
	if !ok {
		h = fixedHistory(o.Formats, o, seed, accept) // the same for every caller: the search is deterministic
		m.mu.Lock()
		m.found[key] = h
		m.mu.Unlock()
	}
	h.Msgs, h.Units, h.Broken = slices.Clone(h.Msgs), slices.Clone(h.Units), slices.Clone(h.Broken)
	return h
}

// historyEdges runs check on each edge's history; m keeps the histories
// for the run (nil: edges found at once, nothing worth keeping).
func historyEdges(m *edgeMemo, clause string, edges []historyEdge, check func(s *session, h gen.History)) []prop.Example {
	out := make([]prop.Example, len(edges))
	for k, e := range edges {
		out[k] = prop.Example{Name: e.name, Run: func(f prop.Failer, tg target.Target) {
			check(fixedSession(f, tg, clause), fixedHistoryOf(m, tg, e, k))
		}}
	}
	return out
}

// buildEdges runs check on each edge's history with max_messages 0, 1, 2
// and r − 1, r and r + 1, r the messages after the leading system ones
// (BUILD-3).
func buildEdges(m *edgeMemo, clause string, edges []historyEdge, check func(s *session, h gen.History, max int, raw json.RawMessage)) []prop.Example {
	out := make([]prop.Example, len(edges))
	for k, e := range edges {
		out[k] = prop.Example{Name: fmt.Sprintf("%s, max_messages 0, 1, 2 and around the messages after the system prompt", e.name), Run: func(f prop.Failer, tg target.Target) {
			s := fixedSession(f, tg, clause)
			h := fixedHistoryOf(m, tg, e, k)
			sys := 0
			for sys < len(h.Msgs) && h.Msgs[sys].Class == gen.ClassSystem {
				sys++
			}
			r := len(h.Msgs) - sys
			var maxes []int
			for _, m := range []int{0, 1, 2, r - 1, r, r + 1} {
				if m >= 0 && !slices.Contains(maxes, m) {
					maxes = append(maxes, m)
				}
			}
			for _, m := range maxes {
				check(s, h, m, json.RawMessage(strconv.Itoa(m)))
			}
		}}
	}
	return out
}
