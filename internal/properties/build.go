package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
)

// Building: the properties of history.build (BUILD-1 – BUILD-5), judged
// against the model of package model.

// Building: BUILD-1 – BUILD-4 computed from what the generator knows.

// explainBuild says in words what build must do to in and by which clause.
func explainBuild(bp model.BuildPlan, in []gen.Message) string {
	var b strings.Builder
	if len(bp.Dropped) > 0 {
		fmt.Fprintf(&b, "the repair drops %s (BUILD-2); ", indexList(bp.Dropped))
	}
	fmt.Fprintf(&b, "pruning removes %s (BUILD-1); the leading system messages are %s; the rest R is %s (r = %d)", indexList(bp.Orphans), indexList(bp.Sys), indexList(bp.Rest), len(bp.Rest))
	switch bp.Rule {
	case 0:
		if bp.Max == 0 {
			b.WriteString(", and max_messages 0 means no limit, so all of it is kept")
		} else {
			fmt.Fprintf(&b, ", which fits in max_messages %d, so all of it is kept", bp.Max)
		}
	case 1:
		fmt.Fprintf(&b, "; with max_messages %d the kept suffix starts at the earliest user prompt from which it fits, %s (rule 1)", bp.Max, describe(in, bp.Rest[bp.Start]))
	case 2:
		fmt.Fprintf(&b, "; with max_messages %d no suffix from a user prompt fits, so it starts at the earliest unit boundary from which it fits, %s (rule 2)", bp.Max, describe(in, bp.Rest[bp.Start]))
	case 3:
		fmt.Fprintf(&b, "; with max_messages %d even the last unit, %s, is longer, so it alone is kept (rule 3, BUILD-4)", bp.Max, indexList(bp.Rest[bp.Start:]))
	}
	return b.String()
}

// traceBuild traces build's output to input positions; it fails on a
// message that is no input message, an altered one, or one out of order
// (BUILD-5, MSG-2).
func (s *session) traceBuild(in []gen.Message, got []json.RawMessage, summary string) []int {
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

// onBuilds makes p a property of history.build: its Check builds a
// history that hs draws, with max_messages drawn by drawBuild, and its
// Examples build each of hs's edges at the boundaries of max_messages
// (buildEdges); check judges each build.
func onBuilds(m *edgeMemo, p prop.Property, clause string, hs histories, check func(s *session, h gen.History, max int, raw json.RawMessage)) prop.Property {
	p.Check = func(t *rapid.T, tg target.Target) {
		s := newSession(t, tg, clause)
		h := hs.draw(t)
		max, raw := drawBuild(t)
		check(s, h, max, raw)
	}
	p.Examples = buildEdges(m, clause, hs.edges, check)
	return p
}

// built builds h with max_messages max, spelled raw, and plans what build
// must do (BUILD-1 – BUILD-5).
func (s *session) built(h gen.History, max int, raw json.RawMessage) (protocol.HistoryBuildResult, model.BuildPlan) {
	return s.build(h.Msgs, raw), model.PlanBuild(h, max)
}

func buildMatchesRules(s *session, h gen.History, max int, raw json.RawMessage) {
	res, bp := s.built(h, max, raw)
	if len(res.Warnings) > 0 && prop.Diagnostics(s.tg) {
		s.fail("BUILD-2", "the history is well-formed, so the repair changes nothing, but build warned %s", repairs(res.Warnings))
	}
	s.matchBuild(h, bp, res)
}

func buildRepairs(s *session, h gen.History, max int, raw json.RawMessage) {
	res, bp := s.built(h, max, raw)
	in := h.Msgs
	summary := fmt.Sprintf("broken structures: %s\n%s\nwanted %s\ngot    %s", brokenList(h), explainBuild(bp, in), indexList(bp.Out), traceList(res.Messages, in))
	for k, x := range traceAll(res.Messages, in) {
		for _, b := range h.Broken {
			if x.at >= 0 && slices.Contains(b.Idx, x.at) {
				s.fail("BUILD-2", "messages[%d] is %s, a message of the broken structure %s (%s): every message of a broken structure is dropped\n%s",
					k, describe(in, x.at), indexList(b.Idx), b.Codes[0], summary)
			}
		}
	}
	if !prop.Diagnostics(s.tg) {
		s.matchBuild(h, bp, res) // the warnings are diagnostics (D-42)
		return
	}
	used := make([]bool, len(res.Warnings))
	for _, b := range h.Broken {
		found := slices.IndexFunc(res.Warnings, func(w protocol.Repair) bool {
			return w.Code == b.Codes[0] && slices.Equal(sortedInts(w.Indexes), b.Idx)
		})
		for found >= 0 && used[found] {
			next := slices.IndexFunc(res.Warnings[found+1:], func(w protocol.Repair) bool {
				return w.Code == b.Codes[0] && slices.Equal(sortedInts(w.Indexes), b.Idx)
			})
			if next < 0 {
				found = -1
				break
			}
			found += 1 + next
		}
		if found < 0 {
			s.fail("BUILD-2", "no warning names the broken structure %s (injected as %q): wanted one with code %q and indexes %v; got %s\n%s",
				describeAll(in, b.Idx), b.Defect, b.Codes[0], b.Idx, repairs(res.Warnings), summary)
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
func (s *session) matchBuild(h gen.History, bp model.BuildPlan, res protocol.HistoryBuildResult) {
	s.t.Helper()
	in := h.Msgs
	if firstDiff(res.Messages, bp.Out, in) < 0 {
		return
	}
	summary := fmt.Sprintf("%s\nwanted %s\ngot    %s", explainBuild(bp, in), indexList(bp.Out), traceList(res.Messages, in))
	if len(h.Broken) > 0 {
		summary = "broken structures: " + brokenList(h) + "\n" + summary
	}
	got := s.traceBuild(in, res.Messages, summary)
	for _, i := range got {
		switch {
		case slices.Contains(bp.Dropped, i):
			s.fail("BUILD-2", "%s is part of a broken tool structure and must be dropped\n%s", describe(in, i), summary)
		case slices.Contains(bp.Orphans, i):
			s.fail("BUILD-1", "%s is an orphaned prompt: build prunes (PRUNE-1) before the window, so it is never sent\n%s", describe(in, i), summary)
		}
	}
	if alt := windowThenPrune(h, bp); slices.Equal(got, alt) {
		s.fail("BUILD-1", "build applied the window before pruning: the window must be applied to the pruned history, so that its budget is not spent on orphaned prompts (D-17)\n%s", summary)
	}
	for k, i := range bp.Sys {
		if k >= len(got) || got[k] != i {
			s.fail("BUILD-3", "%s is a leading system message of the pruned history, always kept first and not counted; messages[%d] is %s\n%s",
				describe(in, i), k, entryIdx(got, k, in), summary)
		}
	}
	rest := got[len(bp.Sys):]
	if len(rest) > 0 {
		if k := slices.Index(bp.Rest, rest[0]); k < 0 || !slices.Equal(bp.Rest[k:], rest) {
			s.fail("BUILD-3", "after the leading system messages, build sends a suffix of the rest R = %s, but sends %s\n%s", indexList(bp.Rest), indexList(rest), summary)
		}
	}
	clause := "BUILD-3"
	if bp.Rule == 3 {
		clause = "BUILD-4"
	}
	from := "nothing"
	if len(rest) > 0 {
		from = describe(in, rest[0])
	}
	want := "nothing"
	if bp.Start < len(bp.Rest) {
		want = describe(in, bp.Rest[bp.Start])
	}
	s.fail(clause, "the kept part of R should start at %s, but starts at %s\n%s", want, from, summary)
}

// windowThenPrune is what build sends if it applies the window before
// pruning (the order D-17 rules out).
func windowThenPrune(h gen.History, bp model.BuildPlan) []int {
	sys, rest, start, _ := model.BuildWindow(h, bp.Repaired, bp.Max)
	w := append(slices.Clone(sys), rest[start:]...)
	return model.Without(w, model.PruneRemoved(h.Msgs, w))
}

func entryIdx(list []int, k int, in []gen.Message) string {
	if k >= len(list) {
		return "missing"
	}
	return describe(in, list[k])
}

func buildWellFormed(s *session, h gen.History, max int, raw json.RawMessage) {
	res, bp := s.built(h, max, raw)
	in := h.Msgs
	summary := fmt.Sprintf("max_messages %d; got %s", max, traceList(res.Messages, in))
	if len(h.Broken) > 0 {
		summary += "\nbroken structures: " + brokenList(h)
	}
	got := s.traceBuild(in, res.Messages, summary)
	kept := map[int]bool{}
	for _, i := range got {
		kept[i] = true
	}
	if u, has, lacks, ok := splitUnit(h.Units, func(i int) bool { return kept[i] }); ok {
		s.fail("UNIT-3", "the unit %s — %s and its results — is split: build sends %s but not %s\n%s",
			indexList(gen.IndexRange(u[0], u[1])), describe(in, u[0]), indexList(has), indexList(lacks), summary)
	}
	if at, problem := toolProblem(got, in); at >= 0 {
		s.fail("UNIT-3", "messages[%d]: %s\n%s", at, problem, summary)
	}
	last := -1
	for k, i := range got {
		switch c := in[i].Class; {
		case c == gen.ClassUserPrompt && last >= 0:
			s.fail("BUILD-5", "messages[%d] is %s and messages[%d] is %s: two user prompts with no assistant message between them are never sent\n%s",
				last, describe(in, got[last]), k, describe(in, i), summary)
		case c == gen.ClassUserPrompt:
			last = k
		case gen.IsAssistant(c):
			last = -1
		}
	}
	for k, i := range bp.Sys {
		if k >= len(got) || got[k] != i {
			s.fail("BUILD-3", "the pruned history starts with the system messages %s, which build always sends first; messages[%d] is %s\n%s",
				indexList(bp.Sys), k, entryIdx(got, k, in), summary)
		}
	}
}

func buildBound(s *session, h gen.History, max int, raw json.RawMessage) {
	res, bp := s.built(h, max, raw)
	in := h.Msgs
	if max == 0 {
		return // no limit
	}
	summary := fmt.Sprintf("%s\ngot %s", explainBuild(bp, in), traceList(res.Messages, in))
	got := s.traceBuild(in, res.Messages, summary)
	var others []int
	for _, i := range got {
		if !slices.Contains(bp.Sys, i) {
			others = append(others, i)
		}
	}
	lastUnit := []int{}
	for j := len(bp.Rest) - 1; j >= 0; j-- {
		lastUnit = append([]int{bp.Rest[j]}, lastUnit...)
		if h.UnitStart(bp.Rest[j]) {
			break
		}
	}
	switch {
	case len(lastUnit) > max && !slices.Equal(others, lastUnit):
		s.fail("BUILD-4", "the last unit %s alone is longer than max_messages %d, so build sends the leading system messages and exactly that unit; besides the leading system messages it sends %s\n%s",
			indexList(lastUnit), max, indexList(others), summary)
	case len(lastUnit) <= max && len(others) > max:
		s.fail("BUILD-4", "build sends %s besides the leading system messages %s, more than max_messages %d (the last unit, %s, fits)\n%s",
			plural(len(others), "message"), indexList(bp.Sys), max, indexList(lastUnit), summary)
	}
}

func brokenList(h gen.History) string {
	var parts []string
	for _, b := range h.Broken {
		parts = append(parts, fmt.Sprintf("%s %s (injected as %q)", b.Codes[0], indexList(b.Idx), b.Defect))
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
