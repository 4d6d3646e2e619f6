package properties

import (
	"encoding/json"
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// Pruning: PRUNE-1 – PRUNE-4 computed from the classes.

func checkPruneMatchesRules(t *rapid.T, tg target.Target) {
	pruneMatchesRules(newSession(t, tg, "PRUNE-1"), pruneHistory(t, "history"))
}

func pruneMatchesRules(s *session, h gen.History) {
	in := h.Msgs
	res := s.prune(gen.Raws(in))
	removed := model.PruneRemoved(in, gen.Indices(len(in)))
	want := model.Without(gen.Indices(len(in)), removed)
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
func blamePrune(in []gen.Message, got []json.RawMessage, want, removed []int) (clause, what string) {
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
	all := gen.Indices(len(in))
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
func blameOne(in []gen.Message, all []int, has map[int]bool, i int, kept bool) (clause, what string) {
	{
		m := in[i]
		switch keep := !kept; {
		case keep && !has[i] && m.Class == gen.ClassUserPrompt:
			prompts, _ := model.RunOf(in, all, i)
			if len(prompts) == 1 {
				return "PRUNE-1", fmt.Sprintf("%s was removed, but it is a run of one, which is never pruned", describe(in, i))
			}
			return "PRUNE-1", fmt.Sprintf("%s was removed, but it is the last user prompt of the run %s, and of every run the last prompt is kept", describe(in, i), indexList(prompts))
		case keep && !has[i] && m.Class == gen.ClassToolResult:
			return "PRUNE-2", fmt.Sprintf("%s was removed: a tool result, in either format, is never a member of a run and is never pruned", describe(in, i))
		case keep && !has[i]:
			return "PRUNE-3", fmt.Sprintf("%s was removed: pruning removes user prompts and nothing else", describe(in, i))
		case !keep && has[i]:
			prompts, between := model.RunOf(in, all, i)
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
	pruneOnlyPrompts(newSession(t, tg, "PRUNE-3"), pruneHistory(t, "history"))
}

func pruneOnlyPrompts(s *session, h gen.History) {
	in := h.Msgs
	res := s.prune(gen.Raws(in))
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
		if m.Class != gen.ClassUserPrompt {
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
	pruneNoAdjacentPrompts(newSession(t, tg, "PRUNE-1"), pruneHistory(t, "history"))
}

func pruneNoAdjacentPrompts(s *session, h gen.History) {
	in := h.Msgs
	res := s.prune(gen.Raws(in))
	last := -1 // position in the output of a prompt no assistant message followed yet
	tr := traceAll(res.Messages, in)
	for k, x := range tr {
		if x.at < 0 {
			continue // prop/prune-only-prompts reports it
		}
		switch c := in[x.at].Class; {
		case c == gen.ClassUserPrompt && last >= 0:
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
		case c == gen.ClassUserPrompt:
			last = k
		case gen.IsAssistant(c):
			last = -1
		}
	}
}

func checkPruneKeepsToolStructure(t *rapid.T, tg target.Target) {
	pruneKeepsToolStructure(newSession(t, tg, "UNIT-3"), wellFormedHistory(t))
}

func pruneKeepsToolStructure(s *session, h gen.History) {
	in := h.Msgs
	res := s.prune(gen.Raws(in))
	summary := fmt.Sprintf("got %s, removed %v", traceList(res.Messages, in), res.Removed)
	var list []int
	for k, x := range traceAll(res.Messages, in) {
		if x.at < 0 {
			s.fail("PRUNE-3", "messages[%d] is %s; the pruned history is a subsequence of the input\n%s", k, whatIs(res.Messages[k], in), summary)
		}
		list = append(list, x.at)
	}
	for _, u := range h.Units {
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
				indexList(gen.IndexRange(u[0], u[1])), describe(in, u[0]), indexList(has), indexList(lacks), summary)
		}
	}
	if at, problem := toolProblem(list, in); at >= 0 {
		s.fail("UNIT-3", "messages[%d]: %s\n%s", at, problem, summary)
	}
	for i, m := range in {
		if m.Class == gen.ClassSystem && !slices.Contains(list, i) {
			s.fail("PRUNE-2", "%s was removed: system messages are not user prompts and do not end a run; pruning never removes them\n%s", describe(in, i), summary)
		}
	}
}

func checkPruneIdempotent(t *rapid.T, tg target.Target) {
	pruneIdempotent(newSession(t, tg, "PRUNE-4"), pruneHistory(t, "history"))
}

func pruneIdempotent(s *session, h gen.History) {
	in := h.Msgs
	first := s.prune(gen.Raws(in))
	again := s.pruneAsked(first.Messages)
	if i := firstDiffRaw(again.Messages, first.Messages); i >= 0 || len(again.Removed) > 0 {
		s.fail("PRUNE-4", "pruning the pruned history (%s) again must remove nothing, but it removed positions %v of it and returned %s\nfirst prune:  %s, removed %v",
			plural(len(first.Messages), "message"), again.Removed, traceList(again.Messages, in), traceList(first.Messages, in), first.Removed)
	}
}

func checkPrunePure(t *rapid.T, tg target.Target) {
	prunePure(newSession(t, tg, "MSG-3"), pruneHistory(t, "history"), pruneHistory(t, "another history"))
}

func prunePure(s *session, h, other gen.History) {
	in := h.Msgs
	// Each asked, none taken from the run's answers (D-97): the check is
	// of asking twice.
	first := s.pruneAsked(gen.Raws(in))
	s.pruneAsked(gen.Raws(other.Msgs))
	again := s.pruneAsked(gen.Raws(in))
	i, j := firstDiffRaw(again.Messages, first.Messages), -1
	if !slices.Equal(again.Removed, first.Removed) {
		j = 0
	}
	if i >= 0 || j >= 0 {
		s.fail("MSG-3", "the same history pruned twice, with another history pruned between, gave different results: an operation's result depends only on its inputs\nfirst:  %s, removed %v\nsecond: %s, removed %v",
			traceList(first.Messages, in), first.Removed, traceList(again.Messages, in), again.Removed)
	}
}
