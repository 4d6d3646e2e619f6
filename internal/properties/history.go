package properties

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/paramsjson"
	"github.com/convspec/convspec/internal/prop"
)

// historyProperties are the properties of capability history, in report order.
func historyProperties(m *edgeMemo) []prop.Property {
	return []prop.Property{
		{ID: "prop/history-classify", Clauses: []string{"CLS-1", "UNIT-1"}, Capability: protocol.CapHistory,
			Doc:   "history.classify gives every message its class and splits the conversation into the units it was built from",
			Check: checkClassify, Examples: historyEdges(m, "CLS-1", wellFormedEdges(), classify)},
		{ID: "prop/prune-matches-rules", Clauses: []string{"PRUNE-1", "PRUNE-2", "PRUNE-3"}, Capability: protocol.CapHistory,
			Doc:   "history.prune removes exactly the user prompts of each run but the last, runs ended only by assistant messages, and lists their positions",
			Check: checkPruneMatchesRules, Examples: historyEdges(m, "PRUNE-1", brokenEdges(0, 4), pruneMatchesRules)},
		{ID: "prop/prune-only-prompts", Clauses: []string{"PRUNE-3"}, Capability: protocol.CapHistory,
			Doc:   "pruning returns a subsequence of the input that keeps every message that is not a user prompt, and lists what it removed",
			Check: checkPruneOnlyPrompts, Examples: historyEdges(m, "PRUNE-3", brokenEdges(0, 4), pruneOnlyPrompts)},
		{ID: "prop/prune-no-adjacent-prompts", Clauses: []string{"PRUNE-1"}, Capability: protocol.CapHistory,
			Doc:   "a pruned history holds no two user prompts without an assistant message between them",
			Check: checkPruneNoAdjacentPrompts, Examples: historyEdges(m, "PRUNE-1", brokenEdges(0, 4), pruneNoAdjacentPrompts)},
		{ID: "prop/prune-keeps-tool-structure", Clauses: []string{"UNIT-3", "PRUNE-2"}, Capability: protocol.CapHistory,
			Doc:   "pruning well-formed history in either provider format keeps every tool-call unit whole and every system message: no result without its call, no call without its results",
			Check: checkPruneKeepsToolStructure, Examples: historyEdges(m, "UNIT-3", wellFormedEdges(), pruneKeepsToolStructure)},
		{ID: "prop/prune-idempotent", Clauses: []string{"PRUNE-4"}, Capability: protocol.CapHistory,
			Doc:   "pruning a pruned history removes nothing",
			Check: checkPruneIdempotent, Examples: historyEdges(m, "PRUNE-4", brokenEdges(0, 4), pruneIdempotent)},
		{ID: "prop/prune-pure-and-deterministic", Clauses: []string{"MSG-3"}, Capability: protocol.CapHistory,
			Doc:   "pruning the same input twice, with another prune between, gives the same result",
			Check: checkPrunePure, Examples: historyEdges(m, "MSG-3", brokenEdges(0, 4), func(s *session, h gen.History) {
				prunePure(s, h, fixedHistoryOf(m, s.tg, wellFormedEdges()[1], 0))
			})},
		onBuilds(m, prop.Property{ID: "prop/build-well-formed", Clauses: []string{"BUILD-5", "UNIT-3", "BUILD-3"}, Capability: protocol.CapHistory,
			Doc: "what build sends is a subsequence of the input with units whole, no two prompts without an assistant between, and the system prompt first",
		}, "BUILD-5", brokenHistories(0, 3), buildWellFormed),
		onBuilds(m, prop.Property{ID: "prop/build-bound", Clauses: []string{"BUILD-4"}, Capability: protocol.CapHistory,
			Doc: "build sends the leading system messages and at most max_messages others, or exactly the last unit when it alone is longer",
		}, "BUILD-4", brokenHistories(0, 2), buildBound),
		onBuilds(m, prop.Property{ID: "prop/build-matches-rules", Clauses: []string{"BUILD-1", "BUILD-2", "BUILD-3", "BUILD-4"}, Capability: protocol.CapHistory,
			Doc: "on well-formed history build prunes, then keeps the system prompt and the suffix that starts at the earliest user prompt, else unit, that fits",
		}, "BUILD-3", wellFormedHistories(), buildMatchesRules),
		onBuilds(m, prop.Property{ID: "prop/build-repairs", Clauses: []string{"BUILD-2"}, Capability: protocol.CapHistory,
			Doc: "build drops every message of each broken tool structure, warns once per structure with its code and positions, and otherwise follows the rules",
		}, "BUILD-2", brokenHistories(1, 3), buildRepairs),
	}
}

// Generators

// historyLen draws a history length, mostly short enough to read.
var historyLen = rapid.OneOf(rapid.IntRange(0, 12), rapid.IntRange(0, 40), rapid.IntRange(0, 40), rapid.IntRange(40, 90))

// wellFormed draws a well-formed history with orphan runs.
func wellFormedHistory(t *rapid.T) gen.History {
	return gen.Histories(gen.HistoryOpts{N: historyLen.Draw(t, "n"), Marked: true, Tools: -1, Runs: rapid.Bool().Draw(t, "orphan runs")}).Draw(t, "history")
}

// brokenHistory draws a history with lo to hi broken tool structures whose
// code and extent the spec fixes.
func brokenHistory(t *rapid.T, lo, hi int) gen.History {
	return gen.Histories(gen.HistoryOpts{N: historyLen.Draw(t, "n"), Marked: true, Tools: rapid.IntRange(1, 3).Draw(t, "tool weight"),
		Runs: rapid.Bool().Draw(t, "orphan runs"), Defects: [2]int{lo, hi}}).Draw(t, "history")
}

// histories is the histories a property is checked on: drawn at random,
// and its edge examples.
type histories struct {
	draw  func(*rapid.T) gen.History
	edges []historyEdge
}

// wellFormedHistories are wellFormedHistory and its edges.
func wellFormedHistories() histories {
	return histories{draw: wellFormedHistory, edges: wellFormedEdges()}
}

// brokenHistories are brokenHistory and its edges, with lo to hi broken
// tool structures.
func brokenHistories(lo, hi int) histories {
	return histories{draw: func(t *rapid.T) gen.History { return brokenHistory(t, lo, hi) }, edges: brokenEdges(lo, hi)}
}

// pruneHistory draws what prune may get: any history, tool structure broken
// or not (prune does not look at it, UNIT-2), with orphan runs, prompts
// separated by system messages, stray tool results between prompts.
func pruneHistory(t *rapid.T, label string) gen.History {
	return gen.Histories(gen.HistoryOpts{N: historyLen.Draw(t, "n"), Marked: true, Tools: -1, Runs: true,
		Defects: [2]int{0, 4}, Ambiguous: true}).Draw(t, label)
}

// buildMax draws max_messages for build: small values, where the rules
// differ, and 0, which means no limit.
var buildMax = rapid.OneOf(rapid.SampledFrom([]int{0, 1, 2, 3, 4, 5, 6, 8, 10}), rapid.IntRange(0, 40))

// maxRaw spells a count as JSON, sometimes as 3.0 or 3e0 (CFG-3).
func maxRaw(t *rapid.T, n int) json.RawMessage {
	s := strconv.Itoa(n)
	switch rapid.IntRange(0, 9).Draw(t, "max_messages spelling") {
	case 0:
		s += ".0"
	case 1:
		s += "e0"
	}
	return json.RawMessage(s)
}

// Calls

func (s *session) invoke(method string, params, result any) {
	s.t.Helper()
	s.invokeAsking(method, params, result, func() (json.RawMessage, error) { return s.tg.Call(s.ctx, method, params) })
}

// invokeShared is invoke, with the answer shared by every property of the
// run that asks the same question (D-97): for a method whose answer is a
// function of its params, asked where no check depends on asking again.
func (s *session) invokeShared(method string, params, result any) {
	s.t.Helper()
	s.invokeAsking(method, params, result, func() (json.RawMessage, error) {
		answers := prop.AnswersOf(s.tg)
		if answers == nil {
			return s.tg.Call(s.ctx, method, params) // not in a run: nothing to share
		}
		p, err := paramsjson.Marshal(params)
		if err != nil {
			return s.tg.Call(s.ctx, method, params) // a bad params' error is the call's to report
		}
		raw := json.RawMessage(p) // written once: the question, and what is sent
		return prop.Ask(answers, method+"\x00"+string(p), func(r json.RawMessage) int { return len(r) }, func() (json.RawMessage, error) {
			return s.tg.Call(s.ctx, method, raw)
		})
	})
}

// invokeAsking is invoke with the request asked by ask.
func (s *session) invokeAsking(method string, params, result any, ask func() (json.RawMessage, error)) {
	s.t.Helper()
	s.record(method, params)
	raw, err := ask()
	if err != nil {
		s.callFailed(method, err)
	}
	if err := target.DecodeResult(method, raw, result); err != nil {
		s.fail(s.clause, "%s answered with a result that is not protocol v1: %v", method, err)
	}
}

func (s *session) classify(in []gen.Message) protocol.HistoryClassifyResult {
	s.t.Helper()
	var r protocol.HistoryClassifyResult
	s.invoke(protocol.MethodHistoryClassify, protocol.HistoryClassifyParams{Messages: gen.Raws(in)}, &r)
	return r
}

func (s *session) prune(msgs []json.RawMessage) protocol.HistoryPruneResult {
	s.t.Helper()
	msgs = nonNil(msgs)
	var r protocol.HistoryPruneResult
	s.invokeShared(protocol.MethodHistoryPrune, protocol.HistoryPruneParams{Messages: msgs}, &r)
	return r
}

// pruneAsked is prune, asked every time: MSG-3's and PRUNE-4's checks ask
// what they were answered before, and must hear it again.
func (s *session) pruneAsked(msgs []json.RawMessage) protocol.HistoryPruneResult {
	s.t.Helper()
	msgs = nonNil(msgs)
	var r protocol.HistoryPruneResult
	s.invoke(protocol.MethodHistoryPrune, protocol.HistoryPruneParams{Messages: msgs}, &r)
	return r
}

func (s *session) build(in []gen.Message, max json.RawMessage) protocol.HistoryBuildResult {
	s.t.Helper()
	var r protocol.HistoryBuildResult
	s.invokeShared(protocol.MethodHistoryBuild, protocol.HistoryBuildParams{Messages: gen.Raws(in), MaxMessages: max}, &r)
	return r
}

// Classification

func checkClassify(t *rapid.T, tg target.Target) {
	classify(newSession(t, tg, "CLS-1"), wellFormedHistory(t))
}

func classify(s *session, h gen.History) {
	in := h.Msgs
	res := s.classify(in)
	if len(res.Classes) != len(in) {
		s.fail("CLS-1", "classes holds %d entries for %s; every message has one class", len(res.Classes), plural(len(in), "message"))
	}
	for i, c := range res.Classes {
		if c != in[i].Class {
			s.fail("CLS-1", "classes[%d] is %q, wanted %q: %s; %s", i, c, in[i].Class, describe(in, i), whyClass(in[i]))
		}
	}
	show := func(us [][2]int) string {
		var parts []string
		for _, u := range us {
			parts = append(parts, fmt.Sprintf("[%d,%d)", u[0], u[1]))
		}
		return strings.Join(parts, " ")
	}
	for k := range max(len(res.Units), len(h.Units)) {
		switch {
		case k >= len(res.Units):
			s.fail("UNIT-1", "units ends after %d units, but %s starts unit %d\nwanted units %s\ngot    units %s",
				len(res.Units), describe(in, h.Units[k][0]), k, show(h.Units), show(res.Units))
		case k >= len(h.Units) || res.Units[k] != h.Units[k]:
			wanted := "nothing (the units end there)"
			if k < len(h.Units) {
				u := h.Units[k]
				wanted = fmt.Sprintf("[%d,%d), the unit of %s", u[0], u[1], describe(in, u[0]))
				if u[1]-u[0] > 1 {
					wanted += fmt.Sprintf(" and its %s", plural(u[1]-u[0]-1, "result message"))
				}
			}
			s.fail("UNIT-1", "units[%d] is [%d,%d), wanted %s; a tool call and the results right after it that answer its ids are one unit, every other message a unit of one\nwanted units %s\ngot    units %s",
				k, res.Units[k][0], res.Units[k][1], wanted, show(h.Units), show(res.Units))
		}
	}
}

// whyClass says which row of CLS-1 gives a message its class.
func whyClass(m gen.Message) string {
	switch m.Class {
	case gen.ClassSystem:
		return fmt.Sprintf("role %q is a system message", m.Role)
	case gen.ClassToolCall:
		return "an assistant message with a non-empty tool_calls array or a tool_use block in its content array is a tool call, text beside it or not"
	case gen.ClassAssistantText:
		return "an assistant message without a non-empty tool_calls array and without tool_use blocks is assistant text"
	case gen.ClassToolResult:
		if m.Role == "tool" {
			return "a tool message is a tool result"
		}
		return "a user message whose content array holds tool_result blocks is a tool result, not a user prompt, whatever text is beside them (D-20)"
	case gen.ClassUserPrompt:
		return "a user message whose content is not an array holding a tool_result block is a user prompt"
	default:
		return fmt.Sprintf("role %q is none of system, developer, user, assistant and tool", m.Role)
	}
}
