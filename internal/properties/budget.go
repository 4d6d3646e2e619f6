package properties

// The token budget (section 8a): counts are additive, and pruneMessages
// removes whole units, oldest first after the first message's unit, until
// the count is below the target, keeping the first and the final message.
// The properties take the implementation's own per-message counts
// (budget.count) as given and check that everything else agrees with them;
// whether the counts are cl100k's is for the golden cases (TOK-1).

import (
	"encoding/json"
	"errors"
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

// budgetProperties are the properties of capability budget, in report order.
func budgetProperties() []prop.Property {
	return []prop.Property{
		{ID: "prop/budget-count-additive", Clauses: []string{"TOK-3"}, Capability: protocol.CapBudget,
			Doc:   "the count of a list is the sum of its per-message counts, a message counts the same wherever it stands, and budget.check counts as budget.count does",
			Check: checkCountAdditive, Examples: additiveEdges()},
		{ID: "prop/budget-prune-under-target", Clauses: []string{"PRN-1", "PRN-3", "PRN-4"}, Capability: protocol.CapBudget,
			Doc:   "after pruning the count is below the target, or only the units of the first and the final message are left; below the target nothing changes; never empty",
			Check: checkPruneUnderTarget, Examples: budgetEdges("PRN-1", pruneUnderTarget)},
		{ID: "prop/budget-prune-keeps-first-and-final", Clauses: []string{"PRN-2"}, Capability: protocol.CapBudget,
			Doc:   "pruning keeps the first and the final message and their units",
			Check: checkPruneFirstAndFinal, Examples: budgetEdges("PRN-2", pruneFirstAndFinal)},
		{ID: "prop/budget-prune-subsequence", Clauses: []string{"PRN-1", "MSG-2"}, Capability: protocol.CapBudget,
			Doc:   "what pruning returns is the input without the positions it lists as removed, in order and unchanged",
			Check: checkPruneSubsequence, Examples: budgetEdges("PRN-1", pruneSubsequence)},
		{ID: "prop/budget-prune-units-whole", Clauses: []string{"UNIT-3", "PRN-1"}, Capability: protocol.CapBudget,
			Doc:   "pruning removes whole units in both provider formats: no result without its call, no call without all its results",
			Check: checkPruneUnitsWhole, Examples: budgetEdges("UNIT-3", pruneUnitsWhole)},
		{ID: "prop/budget-prune-monotone", Clauses: []string{"PRN-5"}, Capability: protocol.CapBudget,
			Doc:   "a larger target ratio never removes more messages than a smaller one",
			Check: checkPruneMonotone, Examples: budgetEdges("PRN-5", func(s *session, c budgetCase) {
				for _, smaller := range []string{"0.79", "0.5"} {
					pruneMonotone(s, c, json.RawMessage(smaller), json.RawMessage("0.8"), false)
					pruneMonotone(s, c, json.RawMessage(smaller), json.RawMessage("0.8"), true)
				}
			})},
		{ID: "prop/budget-prune-oldest-first", Clauses: []string{"PRN-1"}, Capability: protocol.CapBudget,
			Doc:   "pruning removes exactly the oldest units after the first message's unit, one by one until the count is strictly below the target",
			Check: checkPruneOldestFirst, Examples: budgetEdges("PRN-1", pruneOldestFirst)},
		{ID: "prop/budget-check-thresholds", Clauses: []string{"THR-1", "THR-2"}, Capability: protocol.CapBudget,
			Doc:   "budget.check is approaching exactly above 80% of the limit and at the limit exactly above 95%, compared exactly, at and around the boundaries",
			Check: checkThresholds, Examples: thresholdEdges()},
	}
}

// propModel is the model the properties add with a limit of their own
// (LIM-1: a request may add models).
const propModel = "convspec-property-model"

// The properties

func checkCountAdditive(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "TOK-3")
	h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(0, 12).Draw(t, "n"), Marked: true, Tools: -1}).Draw(t, "conversation")
	countAdditive(s, h.Msgs, rapid.IntRange(0, len(h.Msgs)).Draw(t, "cut"))
}

// countAdditive checks that in counts as its messages do, in any order
// and cut in two at cut (TOK-3).
func countAdditive(s *session, in []gen.Message, cut int) {
	all := s.count(gen.Raws(in))
	if sum := sumAt(all.PerMessage, gen.Indices(len(in))); sum != all.Tokens {
		s.fail("TOK-3", "budget.count returned tokens %d, but its per-message counts %v add up to %d", all.Tokens, all.PerMessage, sum)
	}
	// The same messages in reverse: each counts the same wherever it stands.
	rev := slices.Clone(gen.Raws(in))
	slices.Reverse(rev)
	back := s.count(rev)
	for i := range in {
		if got, want := back.PerMessage[len(in)-1-i], all.PerMessage[i]; got != want {
			s.fail("TOK-3", "%s counts %d tokens at position %d and %d at position %d of the reversed list: a message's count depends on the message alone\nper-message counts %v, reversed %v",
				describe(in, i), want, i, got, len(in)-1-i, all.PerMessage, back.PerMessage)
		}
	}
	if back.Tokens != all.Tokens {
		s.fail("TOK-3", "the list counts %d tokens and the same messages reversed %d; the count is the sum of the messages' counts", all.Tokens, back.Tokens)
	}
	// Two parts add up to the whole.
	a, b := s.count(gen.Raws(in[:cut])), s.count(gen.Raws(in[cut:]))
	if a.Tokens+b.Tokens != all.Tokens {
		s.fail("TOK-3", "input[0:%d] counts %d and input[%d:] counts %d, %d together, but the whole list counts %d: counts are additive",
			cut, a.Tokens, cut, b.Tokens, a.Tokens+b.Tokens, all.Tokens)
	}
	// budget.check counts as budget.count does.
	var chk protocol.BudgetCheckResult
	s.invoke(protocol.MethodBudgetCheck, protocol.BudgetCheckParams{Messages: gen.Raws(in), Model: "gpt-4o"}, &chk)
	if chk.Tokens != all.Tokens {
		s.fail("TOK-3", "budget.check counts %d tokens, budget.count %d, for the same messages", chk.Tokens, all.Tokens)
	}
}

func checkPruneUnderTarget(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRN-1")
	if rapid.IntRange(0, 19).Draw(t, "empty conversation") == 0 {
		params := protocol.BudgetPruneParams{Messages: []json.RawMessage{}, Model: "gpt-4o"}
		s.record(protocol.MethodBudgetPrune, params)
		raw, err := tg.Call(s.ctx, protocol.MethodBudgetPrune, params)
		var pe *protocol.Error
		if err == nil || !errors.As(err, &pe) || pe.Kind() != protocol.KindInvariant {
			got := fmt.Sprintf("it answered %s", abbreviate(raw, 200))
			if err != nil {
				got = fmt.Sprintf("it failed with %v", err)
			}
			s.fail("PRN-4", "pruning an empty conversation must fail with %s rather than return an empty list; %s", protocol.KindInvariant, got)
		}
		return
	}
	pruneUnderTarget(s, drawBudgetCase(t, s))
}

func pruneUnderTarget(s *session, c budgetCase) {
	_, kept, in, ctx := s.pruned(c)
	left := sumAt(c.per, kept)
	switch {
	case len(kept) == 0:
		s.fail("PRN-4", "pruning returned an empty list; the first message is never removed\n%s", ctx)
	case kept[0] != 0:
		s.fail("PRN-4", "pruning returned a list without the first message %s\n%s", describe(in, 0), ctx)
	case below(c.total, c.percent, c.limit) && len(kept) != len(in):
		s.fail("PRN-3", "the conversation counts %d < %d%% of %d already, so it is returned unchanged\n%s", c.total, c.percent, c.limit, ctx)
	}
	first, final := c.h.Units[0], c.h.Units[len(c.h.Units)-1]
	only := slices.Concat(gen.IndexRange(first[0], first[1]), gen.IndexRange(max(first[1], final[0]), final[1]))
	if !below(left, c.percent, c.limit) && !slices.Equal(kept, only) {
		s.fail("PRN-1", "the pruned conversation counts %d tokens, not below the target (100·%d >= %d·%d), yet more than the units of the first and the final message %s are left: pruning goes on until the count is below the target or only they are left\n%s",
			left, left, c.percent, c.limit, indexList(only), ctx)
	}
}

func checkPruneFirstAndFinal(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRN-2")
	pruneFirstAndFinal(s, drawBudgetCase(t, s))
}

func pruneFirstAndFinal(s *session, c budgetCase) {
	_, kept, in, ctx := s.pruned(c)
	first, final := c.h.Units[0], c.h.Units[len(c.h.Units)-1]
	for _, u := range [][2]int{first, final} {
		for i := u[0]; i < u[1]; i++ {
			if !slices.Contains(kept, i) {
				which := "the first message"
				if u == final {
					which = "the final message"
				}
				if u[1]-u[0] > 1 {
					which += fmt.Sprintf(" and its unit %s", indexList(gen.IndexRange(u[0], u[1])))
				}
				s.fail("PRN-2", "%s was removed; it is %s, which pruning never removes\n%s", describe(in, i), which, ctx)
			}
		}
	}
}

func checkPruneSubsequence(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRN-1")
	pruneSubsequence(s, drawBudgetCase(t, s))
}

func pruneSubsequence(s *session, c budgetCase) {
	res, kept, in, ctx := s.pruned(c)
	for k := 1; k < len(kept); k++ {
		if kept[k] <= kept[k-1] {
			s.fail("PRN-1", "messages[%d] is %s, after messages[%d] = input[%d]: pruning returns the rest in order, each once\n%s", k, describe(in, kept[k]), k-1, kept[k-1], ctx)
		}
	}
	missing := model.Without(gen.Indices(len(in)), kept)
	if !slices.Equal(nonNilInts(res.Removed), missing) {
		s.fail("PRN-1", "removed is %v, but the positions missing from the result are %v: removed lists the input positions removed, ascending\n%s", res.Removed, missing, ctx)
	}
}

func checkPruneUnitsWhole(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "UNIT-3")
	pruneUnitsWhole(s, drawBudgetCase(t, s))
}

func pruneUnitsWhole(s *session, c budgetCase) {
	_, kept, in, ctx := s.pruned(c)
	if u, has, lacks, ok := splitUnit(c.h.Units, func(i int) bool { return slices.Contains(kept, i) }); ok {
		s.fail("UNIT-3", "the unit %s — %s and its results — is split: pruning keeps %s but removes %s; it removes whole units only\n%s",
			indexList(gen.IndexRange(u[0], u[1])), describe(in, u[0]), indexList(has), indexList(lacks), ctx)
	}
	if at, problem := toolProblem(kept, in); at >= 0 {
		s.fail("UNIT-3", "messages[%d]: %s\n%s", at, problem, ctx)
	}
}

func checkPruneMonotone(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRN-5")
	c := drawBudgetCase(t, s)
	p1 := rapid.IntRange(1, 99).Draw(t, "smaller percent")
	p2 := rapid.IntRange(p1+1, 100).Draw(t, "larger percent")
	r1, r2 := ratioJSON(t, p1), ratioJSON(t, p2)
	pruneMonotone(s, c, r1, r2, rapid.Bool().Draw(t, "larger target first"))
}

// pruneMonotone prunes c with the smaller target_ratio r1 and the larger
// r2, in that order or the other.
func pruneMonotone(s *session, c budgetCase, r1, r2 json.RawMessage, larger bool) {
	var a, b protocol.BudgetPruneResult
	if larger {
		b, _ = s.budgetPrune(c, r2)
		a, _ = s.budgetPrune(c, r1)
	} else {
		a, _ = s.budgetPrune(c, r1)
		b, _ = s.budgetPrune(c, r2)
	}
	if len(b.Removed) > len(a.Removed) {
		s.fail("PRN-5", "with model %s and limit %d, target_ratio %s removed %v (%d messages), but the larger target_ratio %s removed %v (%d): a larger target never removes more\n%s",
			c.model, c.limit, r1, a.Removed, len(a.Removed), r2, b.Removed, len(b.Removed), c.counts())
	}
}

func checkPruneOldestFirst(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "PRN-1")
	pruneOldestFirst(s, drawBudgetCase(t, s))
}

func pruneOldestFirst(s *session, c budgetCase) {
	res, kept := s.budgetPrune(c, c.ratio)
	in := c.in()
	want := c.expectPrune(c.percent)
	got := model.Without(gen.Indices(len(in)), kept)
	if slices.Equal(got, want) {
		return
	}
	// Explain with the count after each removable unit.
	var steps []string
	total := c.total
	for _, u := range c.removable() {
		mark := ""
		if below(total, c.percent, c.limit) {
			mark = " (below: stop)"
		}
		steps = append(steps, fmt.Sprintf("%d%s", total, mark))
		if mark != "" {
			break
		}
		total -= sumAt(c.per, gen.IndexRange(u[0], u[1]))
		steps = append(steps, fmt.Sprintf("− input[%s] →", span(u[0], u[1]-1)))
	}
	if len(steps) == 0 || !strings.HasSuffix(steps[len(steps)-1], "stop)") {
		steps = append(steps, fmt.Sprintf("%d (only the first and final units left)", total))
	}
	why := ""
	switch {
	case len(got) > len(want) && len(want) > 0 && slices.Equal(got[:len(want)], want):
		why = fmt.Sprintf("; after removing %s the count %d is already below the target (100·%d < %d·%d), so pruning stops there", indexList(want), c.total-sumAt(c.per, want), c.total-sumAt(c.per, want), c.percent, c.limit)
	case len(got) < len(want) && slices.Equal(want[:len(got)], got):
		left := c.total - sumAt(c.per, got)
		why = fmt.Sprintf("; after removing %s the count %d is not below the target (100·%d >= %d·%d: strictly below is asked), so pruning goes on", indexList(got), left, left, c.percent, c.limit)
	}
	s.fail("PRN-1", "pruning removed %s, but PRN-1 removes %s: whole units, oldest first from the one after the first message's unit, until the count is below %d%% of %d%s\ncount: %s\n%s\ngot %s",
		indexList(got), indexList(want), c.percent, c.limit, why, strings.Join(steps, " "), c.describe(), traceList(res.Messages, in))
}

func checkThresholds(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "THR-1")
	h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(0, 6).Draw(t, "n"), Marked: true, Tools: -1}).Draw(t, "conversation")
	msgs := gen.Raws(h.Msgs)
	c := s.count(msgs).Tokens
	// A limit L with 100·c exactly 80·L or 95·L needs c to be a multiple
	// of 4 or 19: a filler message of " the" repeated makes it one, by the
	// target's own count of it (the role and one token a repetition in
	// cl100k; if the target counts otherwise the case just lands near the
	// boundary).
	at := rapid.SampledFrom([]int{80, 95, 0}).Draw(t, "boundary")
	if at != 0 && rapid.IntRange(0, 3).Draw(t, "filler") > 0 {
		msgs, c = s.fillTo(msgs, c, at)
	}
	var limit int
	switch at {
	case 0:
		limit = rapid.IntRange(1, 2*c+10).Draw(t, "limit")
	default:
		limit = max(1, c*100/at+rapid.IntRange(-1, 1).Draw(t, "off by"))
	}
	thresholds(s, msgs, c, limit)
}

// fillTo appends to msgs, which count c tokens, a filler message that
// makes the count a multiple of 4 (at 80) or 19 (at 95), so that a limit
// puts 100·c exactly on at·limit; it returns the messages and their count.
func (s *session) fillTo(msgs []json.RawMessage, c, at int) ([]json.RawMessage, int) {
	step := map[int]int{80: 4, 95: 19}[at]
	probe := fillerMessage(1)
	one := s.count([]json.RawMessage{probe}).Tokens // the role and " the"
	k := 1 + (step-(c+one)%step)%step
	msgs = append(slices.Clone(msgs), fillerMessage(k))
	return msgs, s.count(msgs).Tokens
}

// thresholds checks budget.check of msgs, which count c tokens, against
// a limit (THR-1, THR-2).
func thresholds(s *session, msgs []json.RawMessage, c, limit int) {
	var r protocol.BudgetCheckResult
	s.invoke(protocol.MethodBudgetCheck, protocol.BudgetCheckParams{Messages: msgs, Model: propModel, Limits: map[string]protocol.Count{propModel: protocol.Count(limit)}}, &r)
	switch {
	case r.Limit != limit:
		s.fail("LIM-1", "budget.check reports limit %d for %s, which the request set to %d", r.Limit, propModel, limit)
	case r.Tokens != c:
		s.fail("TOK-3", "budget.check counts %d tokens, budget.count %d", r.Tokens, c)
	case r.Approaching != (100*c > 80*limit):
		s.fail("THR-1", "%d tokens of a limit of %d: 100·%d %s 80·%d, so approaching is %v; got %v",
			c, limit, c, cmpWord(100*c, 80*limit), limit, 100*c > 80*limit, r.Approaching)
	case r.AtLimit != (100*c > 95*limit):
		s.fail("THR-2", "%d tokens of a limit of %d: 100·%d %s 95·%d, so at_limit is %v; got %v",
			c, limit, c, cmpWord(100*c, 95*limit), limit, 100*c > 95*limit, r.AtLimit)
	}
}

// fillerMessage is a user message of " the" repeated k times.
func fillerMessage(k int) json.RawMessage {
	return gen.MustJSON(map[string]string{"role": "user", "content": strings.Repeat(" the", k)})
}

func cmpWord(a, b int) string {
	switch {
	case a > b:
		return ">"
	case a == b:
		return "="
	}
	return "<"
}

// pruned prunes c with its own target and returns the result, the input
// positions kept, the input, and a description of all of it for a
// failure.
func (s *session) pruned(c budgetCase) (protocol.BudgetPruneResult, []int, []gen.Message, string) {
	res, kept := s.budgetPrune(c, c.ratio)
	in := c.in()
	return res, kept, in, fmt.Sprintf("%s\ngot %s, removed %v", c.describe(), traceList(res.Messages, in), res.Removed)
}

// The budget methods' calls, checked for shape as they return.

func (s *session) count(msgs []json.RawMessage) protocol.BudgetCountResult {
	s.t.Helper()
	msgs = nonNil(msgs)
	var r protocol.BudgetCountResult
	s.invokeShared(protocol.MethodBudgetCount, protocol.BudgetCountParams{Messages: msgs}, &r)
	if len(r.PerMessage) != len(msgs) {
		s.fail("TOK-3", "budget.count returned %d per-message counts for %s", len(r.PerMessage), plural(len(msgs), "message"))
	}
	return r
}

// percents a target ratio can be sent as so that the limit can be chosen
// with 100·c = p·L exactly: p divides 100.
var exactPercents = []int{50, 25, 100, 20, 10, 5, 4, 2, 1}

// budgetPrune sends budget.prune and traces the result to input positions,
// failing on a message that is no input message or an altered one.
func (s *session) budgetPrune(c budgetCase, ratio json.RawMessage) (protocol.BudgetPruneResult, []int) {
	s.t.Helper()
	var r protocol.BudgetPruneResult
	s.invokeShared(protocol.MethodBudgetPrune, c.params(ratio), &r)
	in := c.in()
	var kept []int
	for k, x := range traceAll(r.Messages, in) {
		switch {
		case x.at < 0:
			s.fail("PRN-1", "messages[%d] is %s; pruning returns input messages only\n%s", k, whatIs(r.Messages[k], in), c.describe())
		case !x.equal:
			path, sent, back := jsonDiff(in[x.at].Raw, r.Messages[k])
			s.fail("MSG-2", "messages[%d] is not JSON-equal to %s: at %s it was sent %s and came back %s", k, describe(in, x.at), path, sent, back)
		}
		kept = append(kept, x.at)
	}
	return r, kept
}
