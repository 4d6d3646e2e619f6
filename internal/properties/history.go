package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
)

func historyProperties() []Property {
	return []Property{
		{
			ID:         "prop/history-classify",
			Clauses:    []string{"CLS-1", "UNIT-1"},
			Capability: protocol.CapHistory,
			Doc:        "history.classify gives every message its class and splits the conversation into the units it was built from",
			Check:      checkClassify,
		},
		{
			ID:         "prop/prune-matches-rules",
			Clauses:    []string{"PRUNE-1", "PRUNE-2", "PRUNE-3"},
			Capability: protocol.CapHistory,
			Doc:        "history.prune removes exactly the user prompts of each run but the last, runs ended only by assistant messages, and lists their positions",
			Check:      checkPruneMatchesRules,
		},
		{
			ID:         "prop/prune-only-prompts",
			Clauses:    []string{"PRUNE-3"},
			Capability: protocol.CapHistory,
			Doc:        "pruning returns a subsequence of the input that keeps every message that is not a user prompt, and lists what it removed",
			Check:      checkPruneOnlyPrompts,
		},
		{
			ID:         "prop/prune-no-adjacent-prompts",
			Clauses:    []string{"PRUNE-1"},
			Capability: protocol.CapHistory,
			Doc:        "a pruned history holds no two user prompts without an assistant message between them",
			Check:      checkPruneNoAdjacentPrompts,
		},
		{
			ID:         "prop/prune-keeps-tool-structure",
			Clauses:    []string{"UNIT-3", "PRUNE-2"},
			Capability: protocol.CapHistory,
			Doc:        "pruning well-formed history in either provider format keeps every tool-call unit whole and every system message: no result without its call, no call without its results",
			Check:      checkPruneKeepsToolStructure,
		},
		{
			ID:         "prop/prune-idempotent",
			Clauses:    []string{"PRUNE-4"},
			Capability: protocol.CapHistory,
			Doc:        "pruning a pruned history removes nothing",
			Check:      checkPruneIdempotent,
		},
		{
			ID:         "prop/prune-pure-and-deterministic",
			Clauses:    []string{"MSG-3"},
			Capability: protocol.CapHistory,
			Doc:        "pruning the same input twice, with another prune between, gives the same result",
			Check:      checkPrunePure,
		},
		{
			ID:         "prop/build-well-formed",
			Clauses:    []string{"BUILD-5", "UNIT-3", "BUILD-3"},
			Capability: protocol.CapHistory,
			Doc:        "what build sends is a subsequence of the input with units whole, no two prompts without an assistant between, and the system prompt first",
			Check:      checkBuildWellFormed,
		},
		{
			ID:         "prop/build-bound",
			Clauses:    []string{"BUILD-4"},
			Capability: protocol.CapHistory,
			Doc:        "build sends the leading system messages and at most max_messages others, or exactly the last unit when it alone is longer",
			Check:      checkBuildBound,
		},
		{
			ID:         "prop/build-matches-rules",
			Clauses:    []string{"BUILD-1", "BUILD-2", "BUILD-3", "BUILD-4"},
			Capability: protocol.CapHistory,
			Doc:        "on well-formed history build prunes, then keeps the system prompt and the suffix that starts at the earliest user prompt, else unit, that fits",
			Check:      checkBuildMatchesRules,
		},
		{
			ID:         "prop/build-repairs",
			Clauses:    []string{"BUILD-2"},
			Capability: protocol.CapHistory,
			Doc:        "build drops every message of each broken tool structure, warns once per structure with its code and positions, and otherwise follows the rules",
			Check:      checkBuildRepairs,
		},
	}
}

// ---------------------------------------------------------------------------
// Generators

// historyLen draws a history length, mostly short enough to read.
var historyLen = rapid.OneOf(rapid.IntRange(0, 12), rapid.IntRange(0, 40), rapid.IntRange(0, 40), rapid.IntRange(40, 90))

// wellFormed draws a well-formed history with orphan runs.
func wellFormedHistory(t *rapid.T) history {
	return historyGen(genOpts{n: historyLen.Draw(t, "n"), marked: true, tools: -1, runs: rapid.Bool().Draw(t, "orphan runs")}).Draw(t, "history")
}

// brokenHistory draws a history with lo to hi broken tool structures whose
// code and extent the spec fixes.
func brokenHistory(t *rapid.T, lo, hi int) history {
	return historyGen(genOpts{n: historyLen.Draw(t, "n"), marked: true, tools: rapid.IntRange(1, 3).Draw(t, "tool weight"),
		runs: rapid.Bool().Draw(t, "orphan runs"), defects: [2]int{lo, hi}}).Draw(t, "history")
}

// pruneHistory draws what prune may get: any history, tool structure broken
// or not (prune does not look at it, UNIT-2), with orphan runs, prompts
// separated by system messages, stray tool results between prompts.
func pruneHistory(t *rapid.T, label string) history {
	return historyGen(genOpts{n: historyLen.Draw(t, "n"), marked: true, tools: -1, runs: true,
		defects: [2]int{0, 4}, ambiguous: true}).Draw(t, label)
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

// ---------------------------------------------------------------------------
// Calls

func (s *session) invoke(method string, params, result any) {
	s.t.Helper()
	s.record(method, params)
	raw, err := s.tg.Call(s.ctx, method, params)
	if err != nil {
		s.callFailed(method, err)
	}
	if err := protocol.DecodeResult(raw, result); err != nil {
		s.fail(s.clause, "%s answered with a result that is not protocol v1: %v", method, err)
	}
}

func (s *session) classify(in []msg) protocol.HistoryClassifyResult {
	s.t.Helper()
	var r protocol.HistoryClassifyResult
	s.invoke(protocol.MethodHistoryClassify, protocol.HistoryClassifyParams{Messages: raws(in)}, &r)
	return r
}

func (s *session) prune(msgs []json.RawMessage) protocol.HistoryPruneResult {
	s.t.Helper()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	var r protocol.HistoryPruneResult
	s.invoke(protocol.MethodHistoryPrune, protocol.HistoryPruneParams{Messages: msgs}, &r)
	return r
}

func (s *session) build(in []msg, max json.RawMessage) protocol.HistoryBuildResult {
	s.t.Helper()
	var r protocol.HistoryBuildResult
	s.invoke(protocol.MethodHistoryBuild, protocol.HistoryBuildParams{Messages: raws(in), MaxMessages: max}, &r)
	return r
}

// ---------------------------------------------------------------------------
// Classification

func checkClassify(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "CLS-1")
	h := wellFormedHistory(t)
	in := h.msgs
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
	for k := range max(len(res.Units), len(h.units)) {
		switch {
		case k >= len(res.Units):
			s.fail("UNIT-1", "units ends after %d units, but %s starts unit %d\nwanted units %s\ngot    units %s",
				len(res.Units), describe(in, h.units[k][0]), k, show(h.units), show(res.Units))
		case k >= len(h.units) || res.Units[k] != h.units[k]:
			wanted := "nothing (the units end there)"
			if k < len(h.units) {
				u := h.units[k]
				wanted = fmt.Sprintf("[%d,%d), the unit of %s", u[0], u[1], describe(in, u[0]))
				if u[1]-u[0] > 1 {
					wanted += fmt.Sprintf(" and its %s", plural(u[1]-u[0]-1, "result message"))
				}
			}
			s.fail("UNIT-1", "units[%d] is [%d,%d), wanted %s; a tool call and the results right after it that answer its ids are one unit, every other message a unit of one\nwanted units %s\ngot    units %s",
				k, res.Units[k][0], res.Units[k][1], wanted, show(h.units), show(res.Units))
		}
	}
}

// whyClass says which row of CLS-1 gives a message its class.
func whyClass(m msg) string {
	switch m.Class {
	case clsSystem:
		return fmt.Sprintf("role %q is a system message", m.Role)
	case clsToolCall:
		return "an assistant message with a non-empty tool_calls array or a tool_use block in its content array is a tool call, text beside it or not"
	case clsAssistantText:
		return "an assistant message without a non-empty tool_calls array and without tool_use blocks is assistant text"
	case clsToolResult:
		if m.Role == "tool" {
			return "a tool message is a tool result"
		}
		return "a user message whose content array holds tool_result blocks is a tool result, not a user prompt, whatever text is beside them (D-20)"
	case clsUserPrompt:
		return "a user message whose content is not an array holding a tool_result block is a user prompt"
	default:
		return fmt.Sprintf("role %q is none of system, developer, user, assistant and tool", m.Role)
	}
}

// ---------------------------------------------------------------------------
// Pruning: PRUNE-1 – PRUNE-4 computed from the classes

// pruneRemoved is what PRUNE-1 removes from the messages at positions idx
// of in (in order): of every run of user prompts with no assistant message
// between them, all but the last.
func pruneRemoved(in []msg, idx []int) []int {
	removed := []int{}
	last := -1
	for _, i := range idx {
		switch c := in[i].Class; {
		case c == clsUserPrompt:
			if last >= 0 {
				removed = append(removed, last)
			}
			last = i
		case isAssistant(c):
			last = -1
		}
	}
	return removed
}

func without(idx, drop []int) []int {
	out := []int{}
	for _, i := range idx {
		if !slices.Contains(drop, i) {
			out = append(out, i)
		}
	}
	return out
}

// runOf is the run of user prompts that prompt i belongs to, within the
// positions idx, and what lies between its members.
func runOf(in []msg, idx []int, i int) (prompts, between []int) {
	k := slices.Index(idx, i)
	lo, hi := k, k
	for lo > 0 && !isAssistant(in[idx[lo-1]].Class) {
		lo--
	}
	for hi+1 < len(idx) && !isAssistant(in[idx[hi+1]].Class) {
		hi++
	}
	for _, j := range idx[lo : hi+1] {
		if in[j].Class == clsUserPrompt {
			prompts = append(prompts, j)
		}
	}
	for _, j := range idx[lo : hi+1] {
		if j > prompts[0] && j < prompts[len(prompts)-1] && in[j].Class != clsUserPrompt {
			between = append(between, j)
		}
	}
	return prompts, between
}

func checkPruneMatchesRules(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRUNE-1")
	h := pruneHistory(t, "history")
	in := h.msgs
	res := s.prune(raws(in))
	removed := pruneRemoved(in, seqIdx(len(in)))
	want := without(seqIdx(len(in)), removed)
	summary := fmt.Sprintf("wanted %s, removed %s\ngot    %s, removed %v", indexList(want), indexList(removed), traceList(res.Messages, in), res.Removed)
	if firstDiff(res.Messages, want, in) >= 0 {
		clause, what := blamePrune(in, res.Messages, want, removed)
		s.fail(clause, "%s\n%s", what, summary)
	}
	if !slices.Equal(res.Removed, removed) {
		s.fail("PRUNE-3", "the pruned messages are right, but removed is %v; it lists the input positions removed, ascending: %v\n%s", res.Removed, removed, summary)
	}
}

// blamePrune explains the first input message that pruning got wrong.
func blamePrune(in []msg, got []json.RawMessage, want, removed []int) (clause, what string) {
	tr := traceAll(got, in)
	prev := -1
	has := map[int]bool{}
	for k, x := range tr {
		switch {
		case x.at < 0:
			return "PRUNE-3", fmt.Sprintf("messages[%d] is %s; pruning returns input messages only", k, whatIs(got[k], in))
		case !x.equal:
			path, sent, back := jsonDiff(in[x.at].Raw, got[k])
			return "MSG-2", fmt.Sprintf("messages[%d] is not JSON-equal to %s: at %s it was sent %s and came back %s", k, describe(in, x.at), path, sent, back)
		case x.at <= prev:
			return "PRUNE-3", fmt.Sprintf("messages[%d] is %s, after messages[%d] = input[%d]: every kept message is returned once, in order", k, describe(in, x.at), k-1, prev)
		}
		prev = x.at
		has[x.at] = true
	}
	all := seqIdx(len(in))
	// What was removed wrongly first: keeping the wrong prompt of a run
	// shows as both, and the removed last prompt says it best.
	for i := range in {
		if !slices.Contains(removed, i) && !has[i] {
			return blameOne(in, all, has, i, false)
		}
	}
	for i := range in {
		if slices.Contains(removed, i) && has[i] {
			return blameOne(in, all, has, i, true)
		}
	}
	return "PRUNE-3", "the pruned list holds the right messages, but not as wanted"
}

// blameOne explains why input[i] was wrongly kept (kept) or removed.
func blameOne(in []msg, all []int, has map[int]bool, i int, kept bool) (clause, what string) {
	{
		m := in[i]
		switch keep := !kept; {
		case keep && !has[i] && m.Class == clsUserPrompt:
			prompts, _ := runOf(in, all, i)
			if len(prompts) == 1 {
				return "PRUNE-1", fmt.Sprintf("%s was removed, but it is a run of one, which is never pruned", describe(in, i))
			}
			return "PRUNE-1", fmt.Sprintf("%s was removed, but it is the last user prompt of the run %s, and of every run the last prompt is kept", describe(in, i), indexList(prompts))
		case keep && !has[i] && m.Class == clsToolResult:
			return "PRUNE-2", fmt.Sprintf("%s was removed: a tool result, in either format, is never a member of a run and is never pruned", describe(in, i))
		case keep && !has[i]:
			return "PRUNE-3", fmt.Sprintf("%s was removed: pruning removes user prompts and nothing else", describe(in, i))
		case !keep && has[i]:
			prompts, between := runOf(in, all, i)
			next := prompts[slices.Index(prompts, i)+1]
			var mid []int
			for _, j := range between {
				if j > i && j < next {
					mid = append(mid, j)
				}
			}
			if len(mid) > 0 {
				return "PRUNE-2", fmt.Sprintf("%s was kept, but it is in the run %s: between it and %s there is only %s, and only an assistant message ends a run (tool results, system messages and other roles do not)",
					describe(in, i), indexList(prompts), describe(in, next), describeAll(in, mid))
			}
			return "PRUNE-1", fmt.Sprintf("%s was kept, but %s follows it with no assistant message between them: of the run %s only the last, %s, is kept",
				describe(in, i), describe(in, next), indexList(prompts), describe(in, prompts[len(prompts)-1]))
		}
	}
	return "PRUNE-3", "the pruned list holds the right messages, but not as wanted"
}

func checkPruneOnlyPrompts(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRUNE-3")
	h := pruneHistory(t, "history")
	in := h.msgs
	res := s.prune(raws(in))
	summary := fmt.Sprintf("got %s, removed %v", traceList(res.Messages, in), res.Removed)
	kept := map[int]bool{}
	prev := -1
	for k, x := range traceAll(res.Messages, in) {
		switch {
		case x.at < 0:
			s.fail("PRUNE-3", "messages[%d] is %s; the pruned history is a subsequence of the input\n%s", k, whatIs(res.Messages[k], in), summary)
		case !x.equal:
			path, sent, back := jsonDiff(in[x.at].Raw, res.Messages[k])
			s.fail("MSG-2", "messages[%d] is not JSON-equal to %s: at %s it was sent %s and came back %s\n%s", k, describe(in, x.at), path, sent, back, summary)
		case x.at <= prev:
			s.fail("PRUNE-3", "messages[%d] is %s, after messages[%d] = input[%d]: the pruned history keeps input order and holds each message once\n%s", k, describe(in, x.at), k-1, prev, summary)
		}
		kept[x.at] = true
		prev = x.at
	}
	var missing []int
	for i, m := range in {
		if kept[i] {
			continue
		}
		if m.Class != clsUserPrompt {
			s.fail("PRUNE-3", "%s was removed: only user prompts are ever removed, every other message is returned unchanged\n%s", describe(in, i), summary)
		}
		missing = append(missing, i)
	}
	if len(res.Removed) != len(missing) || !slices.Equal(res.Removed, missing) {
		s.fail("PRUNE-3", "removed is %v, but the positions missing from the pruned history are %v: removed lists the input positions removed, ascending\n%s", res.Removed, nonNilInts(missing), summary)
	}
}

func nonNilInts(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

func checkPruneNoAdjacentPrompts(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRUNE-1")
	h := pruneHistory(t, "history")
	in := h.msgs
	res := s.prune(raws(in))
	last := -1 // position in the output of a prompt no assistant message followed yet
	tr := traceAll(res.Messages, in)
	for k, x := range tr {
		if x.at < 0 {
			continue // prop/prune-only-prompts reports it
		}
		switch c := in[x.at].Class; {
		case c == clsUserPrompt && last >= 0:
			var mid []int
			for _, y := range tr[last+1 : k] {
				mid = append(mid, y.at)
			}
			between := "nothing"
			if len(mid) > 0 {
				between = "only " + describeAll(in, mid)
			}
			s.fail("PRUNE-1", "messages[%d] is %s and messages[%d] is %s, two user prompts with %s between them; only an assistant message ends a run, and of a run only the last prompt is kept\ngot %s, removed %v",
				last, describe(in, tr[last].at), k, describe(in, x.at), between, traceList(res.Messages, in), res.Removed)
		case c == clsUserPrompt:
			last = k
		case isAssistant(c):
			last = -1
		}
	}
}

func checkPruneKeepsToolStructure(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "UNIT-3")
	h := wellFormedHistory(t)
	in := h.msgs
	res := s.prune(raws(in))
	summary := fmt.Sprintf("got %s, removed %v", traceList(res.Messages, in), res.Removed)
	var list []int
	for k, x := range traceAll(res.Messages, in) {
		if x.at < 0 {
			s.fail("PRUNE-3", "messages[%d] is %s; the pruned history is a subsequence of the input\n%s", k, whatIs(res.Messages[k], in), summary)
		}
		list = append(list, x.at)
	}
	for _, u := range h.units {
		var has, lacks []int
		for i := u[0]; i < u[1]; i++ {
			if slices.Contains(list, i) {
				has = append(has, i)
			} else {
				lacks = append(lacks, i)
			}
		}
		if len(has) > 0 && len(lacks) > 0 {
			s.fail("UNIT-3", "the unit %s — %s and its results — is split: pruning keeps %s but removes %s; a tool result is never a member of a run (PRUNE-2)\n%s",
				indexList(rangeIdx(u[0], u[1])), describe(in, u[0]), indexList(has), indexList(lacks), summary)
		}
	}
	if at, problem := toolProblem(list, in); at >= 0 {
		s.fail("UNIT-3", "messages[%d]: %s\n%s", at, problem, summary)
	}
	for i, m := range in {
		if m.Class == clsSystem && !slices.Contains(list, i) {
			s.fail("PRUNE-2", "%s was removed: system messages are not user prompts and do not end a run; pruning never removes them\n%s", describe(in, i), summary)
		}
	}
}

func checkPruneIdempotent(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRUNE-4")
	h := pruneHistory(t, "history")
	in := h.msgs
	first := s.prune(raws(in))
	again := s.prune(first.Messages)
	if i := firstDiffRaw(again.Messages, first.Messages); i >= 0 || len(again.Removed) > 0 {
		s.fail("PRUNE-4", "pruning the pruned history (%s) again must remove nothing, but it removed positions %v of it and returned %s\nfirst prune:  %s, removed %v",
			plural(len(first.Messages), "message"), again.Removed, traceList(again.Messages, in), traceList(first.Messages, in), first.Removed)
	}
}

func checkPrunePure(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "MSG-3")
	h := pruneHistory(t, "history")
	other := pruneHistory(t, "another history")
	in := h.msgs
	first := s.prune(raws(in))
	s.prune(raws(other.msgs))
	again := s.prune(raws(in))
	i, j := firstDiffRaw(again.Messages, first.Messages), -1
	if !slices.Equal(again.Removed, first.Removed) {
		j = 0
	}
	if i >= 0 || j >= 0 {
		s.fail("MSG-3", "the same history pruned twice, with another history pruned between, gave different results: an operation's result depends only on its inputs\nfirst:  %s, removed %v\nsecond: %s, removed %v",
			traceList(first.Messages, in), first.Removed, traceList(again.Messages, in), again.Removed)
	}
}

// ---------------------------------------------------------------------------
// Building: BUILD-1 – BUILD-4 computed from what the generator knows

// buildPlan is what build must do to a history.
type buildPlan struct {
	max      int
	dropped  []int // by the repair (BUILD-2)
	repaired []int
	pruned   []int // after pruning (BUILD-1)
	orphans  []int // the prompts pruning removes
	sys      []int // the leading system messages of the pruned history
	rest     []int // R
	start    int   // where the kept suffix of R starts
	rule     int   // of BUILD-3: 0 when all of R is kept
	out      []int
}

func planBuild(h history, max int) buildPlan {
	bp := buildPlan{max: max, dropped: []int{}}
	for _, b := range h.broken {
		bp.dropped = append(bp.dropped, b.idx...)
	}
	slices.Sort(bp.dropped)
	bp.repaired = without(seqIdx(len(h.msgs)), bp.dropped)
	bp.orphans = pruneRemoved(h.msgs, bp.repaired)
	bp.pruned = without(bp.repaired, bp.orphans)
	bp.sys, bp.rest, bp.start, bp.rule = buildWindow(h, bp.pruned, max)
	bp.out = append(slices.Clone(bp.sys), bp.rest[bp.start:]...)
	return bp
}

// buildWindow applies BUILD-3 to the messages at positions list.
func buildWindow(h history, list []int, max int) (sys, rest []int, start, rule int) {
	k := 0
	for k < len(list) && h.msgs[list[k]].Class == clsSystem {
		k++
	}
	sys, rest = list[:k], list[k:]
	r := len(rest)
	if max == 0 || r <= max {
		return sys, rest, 0, 0
	}
	for j, i := range rest {
		if h.unitStart(i) && h.msgs[i].Class == clsUserPrompt && r-j <= max {
			return sys, rest, j, 1
		}
	}
	for j, i := range rest {
		if h.unitStart(i) && r-j <= max {
			return sys, rest, j, 2
		}
	}
	last := 0
	for j, i := range rest {
		if h.unitStart(i) {
			last = j
		}
	}
	return sys, rest, last, 3
}

func (bp buildPlan) explain(in []msg) string {
	var b strings.Builder
	if len(bp.dropped) > 0 {
		fmt.Fprintf(&b, "the repair drops %s (BUILD-2); ", indexList(bp.dropped))
	}
	fmt.Fprintf(&b, "pruning removes %s (BUILD-1); the leading system messages are %s; the rest R is %s (r = %d)", indexList(bp.orphans), indexList(bp.sys), indexList(bp.rest), len(bp.rest))
	switch bp.rule {
	case 0:
		if bp.max == 0 {
			b.WriteString(", and max_messages 0 means no limit, so all of it is kept")
		} else {
			fmt.Fprintf(&b, ", which fits in max_messages %d, so all of it is kept", bp.max)
		}
	case 1:
		fmt.Fprintf(&b, "; with max_messages %d the kept suffix starts at the earliest user prompt from which it fits, %s (rule 1)", bp.max, describe(in, bp.rest[bp.start]))
	case 2:
		fmt.Fprintf(&b, "; with max_messages %d no suffix from a user prompt fits, so it starts at the earliest unit boundary from which it fits, %s (rule 2)", bp.max, describe(in, bp.rest[bp.start]))
	case 3:
		fmt.Fprintf(&b, "; with max_messages %d even the last unit, %s, is longer, so it alone is kept (rule 3, BUILD-4)", bp.max, indexList(bp.rest[bp.start:]))
	}
	return b.String()
}

// traceBuild traces build's output to input positions; it fails on a
// message that is no input message, an altered one, or one out of order
// (BUILD-5, MSG-2).
func (s *session) traceBuild(in []msg, got []json.RawMessage, summary string) []int {
	s.t.Helper()
	var list []int
	for k, x := range traceAll(got, in) {
		switch {
		case x.at < 0:
			s.fail("BUILD-5", "messages[%d] is %s; what build sends is a subsequence of the input\n%s", k, whatIs(got[k], in), summary)
		case !x.equal:
			path, sent, back := jsonDiff(in[x.at].Raw, got[k])
			s.fail("MSG-2", "messages[%d] is not JSON-equal to %s: at %s it was sent %s and came back %s\n%s", k, describe(in, x.at), path, sent, back, summary)
		case len(list) > 0 && x.at <= list[len(list)-1]:
			s.fail("BUILD-5", "messages[%d] is %s, after messages[%d] = input[%d]: what build sends is a subsequence of the input, in order\n%s", k, describe(in, x.at), k-1, list[len(list)-1], summary)
		}
		list = append(list, x.at)
	}
	return list
}

func drawBuild(t *rapid.T) (int, json.RawMessage) {
	n := buildMax.Draw(t, "max_messages")
	return n, maxRaw(t, n)
}

func checkBuildMatchesRules(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "BUILD-3")
	h := wellFormedHistory(t)
	max, raw := drawBuild(t)
	res := s.build(h.msgs, raw)
	bp := planBuild(h, max)
	if len(res.Warnings) > 0 {
		s.fail("BUILD-2", "the history is well-formed, so the repair changes nothing, but build warned %s", repairs(res.Warnings))
	}
	s.matchBuild(h, bp, res)
}

func checkBuildRepairs(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "BUILD-2")
	h := brokenHistory(t, 1, 3)
	max, raw := drawBuild(t)
	res := s.build(h.msgs, raw)
	bp := planBuild(h, max)
	in := h.msgs
	summary := fmt.Sprintf("broken structures: %s\n%s\nwanted %s\ngot    %s", brokenList(h), bp.explain(in), indexList(bp.out), traceList(res.Messages, in))
	for k, x := range traceAll(res.Messages, in) {
		for _, b := range h.broken {
			if x.at >= 0 && slices.Contains(b.idx, x.at) {
				s.fail("BUILD-2", "messages[%d] is %s, a message of the broken structure %s (%s): every message of a broken structure is dropped\n%s",
					k, describe(in, x.at), indexList(b.idx), b.codes[0], summary)
			}
		}
	}
	used := make([]bool, len(res.Warnings))
	for _, b := range h.broken {
		found := slices.IndexFunc(res.Warnings, func(w protocol.Repair) bool {
			return w.Code == b.codes[0] && slices.Equal(sortedInts(w.Indexes), b.idx)
		})
		for found >= 0 && used[found] {
			next := slices.IndexFunc(res.Warnings[found+1:], func(w protocol.Repair) bool {
				return w.Code == b.codes[0] && slices.Equal(sortedInts(w.Indexes), b.idx)
			})
			if next < 0 {
				found = -1
				break
			}
			found += 1 + next
		}
		if found < 0 {
			s.fail("BUILD-2", "no warning names the broken structure %s (injected as %q): wanted one with code %q and indexes %v; got %s\n%s",
				describeAll(in, b.idx), b.defect, b.codes[0], b.idx, repairs(res.Warnings), summary)
		}
		used[found] = true
	}
	for k, w := range res.Warnings {
		if !used[k] {
			s.fail("BUILD-2", "warnings[%d] (code %q, indexes %v) names no broken structure: one warning per structure, nothing else is changed; got %s\n%s",
				k, w.Code, w.Indexes, repairs(res.Warnings), summary)
		}
	}
	s.matchBuild(h, bp, res)
}

// matchBuild compares build's messages with the plan and explains the
// first difference.
func (s *session) matchBuild(h history, bp buildPlan, res protocol.HistoryBuildResult) {
	s.t.Helper()
	in := h.msgs
	if firstDiff(res.Messages, bp.out, in) < 0 {
		return
	}
	summary := fmt.Sprintf("%s\nwanted %s\ngot    %s", bp.explain(in), indexList(bp.out), traceList(res.Messages, in))
	if len(h.broken) > 0 {
		summary = "broken structures: " + brokenList(h) + "\n" + summary
	}
	got := s.traceBuild(in, res.Messages, summary)
	for _, i := range got {
		switch {
		case slices.Contains(bp.dropped, i):
			s.fail("BUILD-2", "%s is part of a broken tool structure and must be dropped\n%s", describe(in, i), summary)
		case slices.Contains(bp.orphans, i):
			s.fail("BUILD-1", "%s is an orphaned prompt: build prunes (PRUNE-1) before the window, so it is never sent\n%s", describe(in, i), summary)
		}
	}
	if alt := windowThenPrune(h, bp); slices.Equal(got, alt) {
		s.fail("BUILD-1", "build applied the window before pruning: the window must be applied to the pruned history, so that its budget is not spent on orphaned prompts (D-17)\n%s", summary)
	}
	for k, i := range bp.sys {
		if k >= len(got) || got[k] != i {
			s.fail("BUILD-3", "%s is a leading system message of the pruned history, always kept first and not counted; messages[%d] is %s\n%s",
				describe(in, i), k, entryIdx(got, k, in), summary)
		}
	}
	rest := got[len(bp.sys):]
	if len(rest) > 0 {
		if k := slices.Index(bp.rest, rest[0]); k < 0 || !slices.Equal(bp.rest[k:], rest) {
			s.fail("BUILD-3", "after the leading system messages, build sends a suffix of the rest R = %s, but sends %s\n%s", indexList(bp.rest), indexList(rest), summary)
		}
	}
	clause := "BUILD-3"
	if bp.rule == 3 {
		clause = "BUILD-4"
	}
	from := "nothing"
	if len(rest) > 0 {
		from = describe(in, rest[0])
	}
	want := "nothing"
	if bp.start < len(bp.rest) {
		want = describe(in, bp.rest[bp.start])
	}
	s.fail(clause, "the kept part of R should start at %s, but starts at %s\n%s", want, from, summary)
}

// windowThenPrune is what build sends if it applies the window before
// pruning (the order D-17 rules out).
func windowThenPrune(h history, bp buildPlan) []int {
	sys, rest, start, _ := buildWindow(h, bp.repaired, bp.max)
	w := append(slices.Clone(sys), rest[start:]...)
	return without(w, pruneRemoved(h.msgs, w))
}

func entryIdx(list []int, k int, in []msg) string {
	if k >= len(list) {
		return "missing"
	}
	return describe(in, list[k])
}

func checkBuildWellFormed(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "BUILD-5")
	h := brokenHistory(t, 0, 3)
	max, raw := drawBuild(t)
	res := s.build(h.msgs, raw)
	bp := planBuild(h, max)
	in := h.msgs
	summary := fmt.Sprintf("max_messages %d; got %s", max, traceList(res.Messages, in))
	if len(h.broken) > 0 {
		summary += "\nbroken structures: " + brokenList(h)
	}
	got := s.traceBuild(in, res.Messages, summary)
	kept := map[int]bool{}
	for _, i := range got {
		kept[i] = true
	}
	for _, u := range h.units {
		var has, lacks []int
		for i := u[0]; i < u[1]; i++ {
			if kept[i] {
				has = append(has, i)
			} else {
				lacks = append(lacks, i)
			}
		}
		if len(has) > 0 && len(lacks) > 0 {
			s.fail("UNIT-3", "the unit %s — %s and its results — is split: build sends %s but not %s\n%s",
				indexList(rangeIdx(u[0], u[1])), describe(in, u[0]), indexList(has), indexList(lacks), summary)
		}
	}
	if at, problem := toolProblem(got, in); at >= 0 {
		s.fail("UNIT-3", "messages[%d]: %s\n%s", at, problem, summary)
	}
	last := -1
	for k, i := range got {
		switch c := in[i].Class; {
		case c == clsUserPrompt && last >= 0:
			s.fail("BUILD-5", "messages[%d] is %s and messages[%d] is %s: two user prompts with no assistant message between them are never sent\n%s",
				last, describe(in, got[last]), k, describe(in, i), summary)
		case c == clsUserPrompt:
			last = k
		case isAssistant(c):
			last = -1
		}
	}
	for k, i := range bp.sys {
		if k >= len(got) || got[k] != i {
			s.fail("BUILD-3", "the pruned history starts with the system messages %s, which build always sends first; messages[%d] is %s\n%s",
				indexList(bp.sys), k, entryIdx(got, k, in), summary)
		}
	}
}

func checkBuildBound(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "BUILD-4")
	h := brokenHistory(t, 0, 2)
	max, raw := drawBuild(t)
	res := s.build(h.msgs, raw)
	bp := planBuild(h, max)
	in := h.msgs
	if max == 0 {
		return // no limit
	}
	summary := fmt.Sprintf("%s\ngot %s", bp.explain(in), traceList(res.Messages, in))
	got := s.traceBuild(in, res.Messages, summary)
	var others []int
	for _, i := range got {
		if !slices.Contains(bp.sys, i) {
			others = append(others, i)
		}
	}
	lastUnit := []int{}
	for j := len(bp.rest) - 1; j >= 0; j-- {
		lastUnit = append([]int{bp.rest[j]}, lastUnit...)
		if h.unitStart(bp.rest[j]) {
			break
		}
	}
	switch {
	case len(lastUnit) > max && !slices.Equal(others, lastUnit):
		s.fail("BUILD-4", "the last unit %s alone is longer than max_messages %d, so build sends the leading system messages and exactly that unit; besides the leading system messages it sends %s\n%s",
			indexList(lastUnit), max, indexList(others), summary)
	case len(lastUnit) <= max && len(others) > max:
		s.fail("BUILD-4", "build sends %s besides the leading system messages %s, more than max_messages %d (the last unit, %s, fits)\n%s",
			plural(len(others), "message"), indexList(bp.sys), max, indexList(lastUnit), summary)
	}
}

func brokenList(h history) string {
	var parts []string
	for _, b := range h.broken {
		parts = append(parts, fmt.Sprintf("%s %s (injected as %q)", b.codes[0], indexList(b.idx), b.defect))
	}
	return strings.Join(parts, "; ")
}

func repairs(ws []protocol.Repair) string {
	if len(ws) == 0 {
		return "no warnings"
	}
	var parts []string
	for _, w := range ws {
		parts = append(parts, fmt.Sprintf("{%s %v}", w.Code, w.Indexes))
	}
	return "warnings " + strings.Join(parts, " ")
}

func sortedInts(s []int) []int {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
