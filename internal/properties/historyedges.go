package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/convspec/convspec/conformance/target"
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
	o      genOpts
	accept func(history) bool
}

// classesAt reports whether the classes of h's messages hold want at some
// position, in order.
func classesAt(want ...string) func(history) bool {
	return func(h history) bool {
		for i := 0; i+len(want) <= len(h.msgs); i++ {
			if slices.EqualFunc(h.msgs[i:i+len(want)], want, func(m msg, c string) bool { return m.Class == c }) {
				return true
			}
		}
		return false
	}
}

// startsWith and endsWith report whether h starts or ends with messages of
// the classes given.
func startsWith(want ...string) func(history) bool {
	return func(h history) bool {
		return len(h.msgs) >= len(want) && classesAt(want...)(history{msgs: h.msgs[:len(want)]})
	}
}

func endsWith(want ...string) func(history) bool {
	return func(h history) bool {
		return len(h.msgs) >= len(want) && classesAt(want...)(history{msgs: h.msgs[len(h.msgs)-len(want):]})
	}
}

// wellFormedEdges are well-formed histories (UNIT-1) of every shape the
// pruning and window rules part at.
func wellFormedEdges() []historyEdge {
	runs := genOpts{n: 10, tools: -1, runs: true}
	return []historyEdge{
		{"the empty history", genOpts{}, nil},
		{"a run of prompts first", runs, startsWith(clsUserPrompt, clsUserPrompt)},
		{"a run of prompts last", runs, endsWith(clsUserPrompt, clsUserPrompt)},
		{"prompts separated by a system message", runs, classesAt(clsUserPrompt, clsSystem, clsUserPrompt)},
		{"two leading system messages", runs, startsWith(clsSystem, clsSystem)},
		{"tool-call units only", genOpts{n: 9, tools: 1, force: "tool"}, nil},
	}
}

// brokenEdges are histories with lo to hi broken tool structures (UNIT-2):
// a stray result between prompts, and structures at the start and end.
func brokenEdges(lo, hi int) []historyEdge {
	o := genOpts{n: 10, tools: 2, runs: true, defects: [2]int{lo, hi}}
	edges := []historyEdge{
		{"a broken structure first", o, func(h history) bool { return len(h.broken) > 0 && h.msgs[0].Unit[0] < 0 }},
		{"a broken structure last", o, func(h history) bool { return len(h.broken) > 0 && h.msgs[len(h.msgs)-1].Unit[0] < 0 }},
		{"a stray tool result between prompts", o, func(h history) bool {
			return len(h.broken) > 0 && classesAt(clsUserPrompt, clsToolResult, clsUserPrompt)(h)
		}},
	}
	if lo == 0 {
		edges = append(wellFormedEdges(), edges...)
	}
	return edges
}

// fixedHistoryOf is the history of edge e for tg's declared formats.
func fixedHistoryOf(tg target.Target, e historyEdge, seed int) history {
	o := e.o
	o.exact, o.marked, o.formats = true, true, tg.Info().Formats
	return fixedHistory(o.formats, o, seed, e.accept)
}

// historyEdges runs check on each edge's history.
func historyEdges(clause string, edges []historyEdge, check func(s *session, h history)) []Example {
	out := make([]Example, len(edges))
	for k, e := range edges {
		out[k] = Example{Name: e.name, Run: func(f Failer, tg target.Target) {
			check(fixedSession(f, tg, clause), fixedHistoryOf(tg, e, k))
		}}
	}
	return out
}

// buildEdges runs check on each edge's history with max_messages 0, 1, 2
// and r − 1, r and r + 1, r the messages after the leading system ones
// (BUILD-3).
func buildEdges(clause string, edges []historyEdge, check func(s *session, h history, max int, raw json.RawMessage)) []Example {
	out := make([]Example, len(edges))
	for k, e := range edges {
		out[k] = Example{Name: fmt.Sprintf("%s, max_messages 0, 1, 2 and around the messages after the system prompt", e.name), Run: func(f Failer, tg target.Target) {
			s := fixedSession(f, tg, clause)
			h := fixedHistoryOf(tg, e, k)
			sys := 0
			for sys < len(h.msgs) && h.msgs[sys].Class == clsSystem {
				sys++
			}
			r := len(h.msgs) - sys
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
