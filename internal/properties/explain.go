package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// Explaining a plan (package model) in a failure: where it cuts and why,
// and which clause a trimmed list that departs from it breaks.

// planToolUnits lists the units of more than one message.
func planToolUnits(p model.Plan) string {
	var us []string
	for _, u := range p.Units {
		if u[1]-u[0] > 1 {
			us = append(us, span(u[0], u[1]-1))
		}
	}
	if len(us) == 0 {
		return "; no tool calls, every message is a unit of one"
	}
	return "; tool-call units: input[" + strings.Join(us, " ") + "]"
}

// explainPlan says in words where p cuts a trim by w and why, clause by
// clause.
func explainPlan(p model.Plan, w window) string {
	cfg := fmt.Sprintf("max_messages %d, preserve_first_n %d, preserve_last_n %d", w.max, w.h, w.t)
	switch {
	case w.max == 0:
		return fmt.Sprintf("%s: trimming is off (CFG-5), the %d messages come back unchanged", cfg, p.N)
	case !p.Trims:
		return fmt.Sprintf("%s: n = %d <= max, nothing is trimmed (WIN-1)", cfg, p.N)
	}
	head := "the head " + indexList(gen.Indices(p.Head))
	if p.Head > p.H0 {
		head += fmt.Sprintf(" (the first %d, grown to the end of their last unit, WIN-9)", p.H0)
	}
	tail := "the tail " + indexList(p.TailIdx())
	if p.Tail > p.T0 {
		tail += fmt.Sprintf(" (the last min(t, n − |head|) = %d, grown back to the start of their first unit, WIN-9)", p.T0)
	}
	middle := gen.IndexRange(p.Head, p.N-p.Tail)
	if p.HeadOnly {
		return fmt.Sprintf("%s: n = %d > max and |head| + |tail| = %d >= max, so only %s and %s are kept and the middle %s is evicted (WIN-3)%s",
			cfg, p.N, p.Head+p.Tail, head, tail, indexList(middle), planToolUnits(p))
	}
	return fmt.Sprintf("%s: n = %d > max and |head| + |tail| = %d < max, so %s and %s are kept with the newest whole units of the middle %s that fit in k = max − |head| − |tail| = %d: %s (WIN-4)%s",
		cfg, p.N, p.Head+p.Tail, head, tail, indexList(middle), p.Budget, indexList(gen.IndexRange(p.N-p.Tail-p.Keep, p.N-p.Tail)), planToolUnits(p))
}

// blameTrimmed names the clause a trimmed list that first differs from the
// plan at position i breaks, and says how.
func blameTrimmed(p model.Plan, w window, in []gen.Message, got []json.RawMessage, want []int, i int) (clause, what string) {
	if p.Trims && w.t == 0 && i == len(want) {
		// What was wanted, then more: the tail taken as slice(-0).
		return "WIN-2", fmt.Sprintf("preserve_last_n is 0, so there is no preserved tail (0 does not mean \"keep everything\"); trimmed should end after %d messages but goes on with %s",
			len(want), whatIs(got[len(want)], in))
	}
	tr := traceAll(got, in)
	seen := map[int]int{}
	for k, x := range tr {
		if x.at < 0 {
			continue
		}
		if first, dup := seen[x.at]; dup {
			clause = "WIN-5"
			if p.Trims && p.N < w.h+w.t {
				clause = "WIN-2" // head and tail overlap (D-1)
			}
			return clause, fmt.Sprintf("%s appears twice in trimmed, at trimmed[%d] and trimmed[%d]; no message belongs to two zones and none is returned twice",
				describe(in, x.at), first, k)
		}
		seen[x.at] = k
	}
	if !p.Trims {
		clause = "WIN-1"
		if w.max == 0 {
			clause = "CFG-5"
		}
		return clause, fmt.Sprintf("the window must return the input unchanged; trimmed[%d] should be %s, but %s", i, wantAt(want, i, in), gotAt(got, i, in, "trimmed"))
	}
	for k, x := range tr {
		switch {
		case x.at < 0:
			return "WIN-5", fmt.Sprintf("trimmed[%d] is %s; trimmed holds input messages only", k, whatIs(got[k], in))
		case !x.equal:
			return "MSG-2", fmt.Sprintf("trimmed[%d] is %s, not the message as sent", k, whatIs(got[k], in))
		}
	}
	for j := 0; j < p.Head; j++ {
		if _, ok := seen[j]; ok {
			continue
		}
		if j >= p.H0 {
			headEnd := p.H0 - 1
			u := model.UnitAt(p.Units, headEnd)
			return "WIN-9", fmt.Sprintf("%s is not in trimmed, but the preserved head, the first min(h, n) = %d messages, grows to the end of the unit %s they end in, so it is %s",
				describe(in, j), p.H0, indexList(gen.IndexRange(u[0], u[1])), indexList(gen.Indices(p.Head)))
		}
		return "WIN-2", fmt.Sprintf("%s is not in trimmed, but it is in the preserved head (the first min(h, n) = %d messages), which is always kept", describe(in, j), p.H0)
	}
	for j := p.N - p.Tail; j < p.N; j++ {
		if _, ok := seen[j]; ok {
			continue
		}
		if j < p.N-p.T0 {
			u := model.UnitAt(p.Units, p.N-p.T0)
			return "WIN-9", fmt.Sprintf("%s is not in trimmed, but the preserved tail, the last min(t, n − |head|) = %d messages, grows back to the start of the unit %s they start in, so it is %s",
				describe(in, j), p.T0, indexList(gen.IndexRange(u[0], u[1])), indexList(p.TailIdx()))
		}
		return "WIN-2", fmt.Sprintf("%s is not in trimmed, but it is in the preserved tail (the last min(t, n − |head|) = %d messages), which is always kept", describe(in, j), p.T0)
	}
	lo, hi := p.Head, p.N-p.Tail
	var mid []int
	for j := range seen {
		if lo <= j && j < hi {
			mid = append(mid, j)
		}
	}
	slices.Sort(mid)
	keepFrom := hi - p.Keep
	switch {
	case p.HeadOnly && len(mid) > 0:
		return "WIN-3", fmt.Sprintf("|head| + |tail| = %d >= max_messages %d, so only the head and the tail are kept, but trimmed also holds %s of the middle",
			p.Head+p.Tail, w.max, indexList(mid))
	case len(mid) > 0 && (mid[len(mid)-1] != hi-1 || mid[len(mid)-1]-mid[0] != len(mid)-1):
		return "WIN-4", fmt.Sprintf("the kept part of the middle %s is its newest whole units, a suffix of it, but trimmed keeps %s of it",
			indexList(gen.IndexRange(lo, hi)), indexList(mid))
	case len(mid) > 0 && !p.IsBoundary(mid[0]):
		u := model.UnitAt(p.Units, mid[0])
		return "WIN-9", fmt.Sprintf("the kept part of the middle starts at %s, inside the unit %s: cuts fall between units, so the unit is kept whole or evicted whole (k = %d, the kept middle is %s)",
			describe(in, mid[0]), indexList(gen.IndexRange(u[0], u[1])), p.Budget, indexList(gen.IndexRange(keepFrom, hi)))
	case len(mid) != p.Keep:
		return "WIN-4", fmt.Sprintf("k = max − |head| − |tail| = %d, so the kept middle is the shortest suffix of the middle %s that starts at a unit boundary at or after %d messages before the tail: %s; trimmed keeps %s",
			p.Budget, indexList(gen.IndexRange(lo, hi)), p.Budget, indexList(gen.IndexRange(keepFrom, hi)), indexList(mid))
	}
	return "WIN-5", fmt.Sprintf("trimmed holds the right messages in the wrong order: trimmed[%d] should be %s, but %s", i, wantAt(want, i, in), gotAt(got, i, in, "trimmed"))
}

// describe names input message i with what the generator knows of it:
// input[4] (role user, tool_result answering toolu_3, unit input[3-4]).
func describe(in []gen.Message, i int) string {
	m := in[i]
	var b strings.Builder
	fmt.Fprintf(&b, "input[%d] (role %s", i, m.Role)
	if m.Class != "" {
		b.WriteString(", " + m.Class)
	}
	switch m.Class {
	case gen.ClassToolCall:
		b.WriteString(" declaring " + strings.Join(m.IDs, " "))
	case gen.ClassToolResult:
		b.WriteString(" answering " + strings.Join(m.IDs, " "))
	}
	if m.Unit[1]-m.Unit[0] > 1 {
		fmt.Fprintf(&b, ", unit input[%d-%d]", m.Unit[0], m.Unit[1]-1)
	}
	b.WriteByte(')')
	return b.String()
}

// toolProblem checks the tool structure of a returned list, given as the
// input positions it holds in its order (UNIT-3): every tool_result
// follows the call that declares its ids, among the results right after
// it, and every call has all its results right after it. It returns the
// list position of the first problem and what it is, or -1.
func toolProblem(list []int, in []gen.Message) (int, string) {
	declared := map[string]int{}
	for i := 0; i < len(list); {
		m := in[list[i]]
		switch m.Class {
		case gen.ClassToolResult:
			return i, fmt.Sprintf("%s does not come right after the call that declares %s (with only that call's results between)", describe(in, list[i]), strings.Join(m.IDs, " "))
		case gen.ClassToolCall:
			pending := map[string]bool{}
			for _, id := range m.IDs {
				if at, ok := declared[id]; ok {
					return i, fmt.Sprintf("%s declares %s, which input[%d] declared already", describe(in, list[i]), id, list[at])
				}
				declared[id] = i
				pending[id] = true
			}
			j := i + 1
			for ; j < len(list) && len(pending) > 0 && in[list[j]].Class == gen.ClassToolResult; j++ {
				for _, id := range in[list[j]].IDs {
					if !pending[id] {
						return j, fmt.Sprintf("%s answers %s, which the call %s before it does not declare, or declares but had answered already", describe(in, list[j]), id, describe(in, list[i]))
					}
					delete(pending, id)
				}
			}
			if len(pending) > 0 {
				var missing []string
				for _, id := range m.IDs {
					if pending[id] {
						missing = append(missing, id)
					}
				}
				return i, fmt.Sprintf("%s is not followed by results for %s: a call is sent with all its results right after it", describe(in, list[i]), strings.Join(missing, " "))
			}
			i = j
		default:
			i++
		}
	}
	return -1, ""
}
