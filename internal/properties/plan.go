package properties

import (
	"encoding/json"
	"fmt"
	"github.com/convspec/convspec/internal/gen"
	"slices"
	"strings"
)

// ---------------------------------------------------------------------------
// The plan: what WIN-1 – WIN-4 and WIN-9 say a trim keeps

// plan is where a trim of n messages cuts. The kept messages are the
// first head and the last keep + tail; the evicted ones lie between.
type plan struct {
	n int
	// head, tail and keep are the sizes of the preserved head, the
	// preserved tail and the kept part of the middle, units whole.
	head, tail, keep int
	// h0 and t0 are where WIN-2 starts before the head and tail grow to
	// whole units (WIN-9): min(h, n) and min(t, n − |head|).
	h0, t0 int
	// budget is k = max − |head| − |tail| on the path of WIN-4.
	budget int
	// trims is false on the path of WIN-1 (and CFG-5).
	trims bool
	// headOnly is the path of WIN-3.
	headOnly bool
	units    [][2]int
}

// planFor plans a trim of in along the units the generator built.
func planFor(w window, in []gen.Message) plan { return planUnits(w, unitsOf(in), len(in)) }

// planCount plans a trim of n messages without tool calls.
func planCount(w window, n int) plan { return planUnits(w, singles(n), n) }

// unitsOf lists the units of a conversation from what its messages know; a
// message without a unit is a unit of one.
func unitsOf(in []gen.Message) [][2]int {
	var out [][2]int
	for i := 0; i < len(in); {
		u := in[i].Unit
		if u[0] != i || u[1] <= i || u[1] > len(in) {
			u = [2]int{i, i + 1}
		}
		out = append(out, u)
		i = u[1]
	}
	return out
}

// singles are the units of a conversation without tool calls.
func singles(n int) [][2]int {
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{i, i + 1}
	}
	return out
}

func planUnits(w window, units [][2]int, n int) plan {
	if w.max == 0 {
		return plan{n: n, units: units} // CFG-5
	}
	return planCap(w, units, n, w.max)
}

// planCap plans with a cap taken literally: a summarizing trim plans with
// max_messages − 1 (SUM-3), where 0 leaves room for nothing rather than
// turning trimming off.
func planCap(w window, units [][2]int, n, limit int) plan {
	p := plan{n: n, units: units}
	if n <= limit {
		return p // WIN-1
	}
	p.trims = true
	// WIN-2, WIN-9: the head is the first min(h, n), grown to the end of
	// the unit they end in; the tail the last min(t, n − |head|), grown
	// back to the start of the unit they start in.
	p.h0 = min(w.h, n)
	if p.h0 > 0 {
		p.head = unitAt(units, p.h0-1)[1]
	}
	p.t0 = min(w.t, n-p.head)
	tailStart := n
	if p.t0 > 0 {
		tailStart = unitAt(units, n-p.t0)[0]
	}
	p.tail = n - tailStart
	if p.head+p.tail >= limit {
		p.headOnly = true // WIN-3
		return p
	}
	// WIN-4: the kept middle starts at the first unit boundary at or after
	// tailStart − k.
	p.budget = limit - p.head - p.tail
	keepFrom := tailStart
	for _, u := range units {
		if u[0] >= tailStart-p.budget {
			keepFrom = min(u[0], tailStart)
			break
		}
	}
	p.keep = tailStart - keepFrom
	return p
}

// unitAt is the unit that holds message i.
func unitAt(units [][2]int, i int) [2]int {
	for _, u := range units {
		if u[0] <= i && i < u[1] {
			return u
		}
	}
	return [2]int{i, i + 1}
}

func (p plan) isBoundary(i int) bool {
	return i == p.n || slices.ContainsFunc(p.units, func(u [2]int) bool { return u[0] == i })
}

func (p plan) trimmed() []int {
	if !p.trims {
		return gen.Indices(p.n)
	}
	out := gen.Indices(p.head)
	for i := p.n - p.tail - p.keep; i < p.n; i++ {
		out = append(out, i)
	}
	return out
}

func (p plan) evicted() []int {
	var out []int
	if p.trims {
		for i := p.head; i < p.n-p.tail-p.keep; i++ {
			out = append(out, i)
		}
	}
	return out
}

func (p plan) tailIdx() []int { return gen.IndexRange(p.n-p.tail, p.n) }

// zone of input message i on a trimming path (WIN-2).
func (p plan) zone(i int) string {
	switch {
	case i < p.head:
		return "head"
	case i >= p.n-p.tail:
		return "tail"
	default:
		return "middle"
	}
}

// toolUnits lists the units of more than one message.
func (p plan) toolUnits() string {
	var us []string
	for _, u := range p.units {
		if u[1]-u[0] > 1 {
			us = append(us, span(u[0], u[1]-1))
		}
	}
	if len(us) == 0 {
		return "; no tool calls, every message is a unit of one"
	}
	return "; tool-call units: input[" + strings.Join(us, " ") + "]"
}

func (p plan) explain(w window) string {
	cfg := fmt.Sprintf("max_messages %d, preserve_first_n %d, preserve_last_n %d", w.max, w.h, w.t)
	switch {
	case w.max == 0:
		return fmt.Sprintf("%s: trimming is off (CFG-5), the %d messages come back unchanged", cfg, p.n)
	case !p.trims:
		return fmt.Sprintf("%s: n = %d <= max, nothing is trimmed (WIN-1)", cfg, p.n)
	}
	head := "the head " + indexList(gen.Indices(p.head))
	if p.head > p.h0 {
		head += fmt.Sprintf(" (the first %d, grown to the end of their last unit, WIN-9)", p.h0)
	}
	tail := "the tail " + indexList(p.tailIdx())
	if p.tail > p.t0 {
		tail += fmt.Sprintf(" (the last min(t, n − |head|) = %d, grown back to the start of their first unit, WIN-9)", p.t0)
	}
	middle := gen.IndexRange(p.head, p.n-p.tail)
	if p.headOnly {
		return fmt.Sprintf("%s: n = %d > max and |head| + |tail| = %d >= max, so only %s and %s are kept and the middle %s is evicted (WIN-3)%s",
			cfg, p.n, p.head+p.tail, head, tail, indexList(middle), p.toolUnits())
	}
	return fmt.Sprintf("%s: n = %d > max and |head| + |tail| = %d < max, so %s and %s are kept with the newest whole units of the middle %s that fit in k = max − |head| − |tail| = %d: %s (WIN-4)%s",
		cfg, p.n, p.head+p.tail, head, tail, indexList(middle), p.budget, indexList(gen.IndexRange(p.n-p.tail-p.keep, p.n-p.tail)), p.toolUnits())
}

// blameTrimmed names the clause a trimmed list that first differs from the
// plan at position i breaks, and says how.
func blameTrimmed(p plan, w window, in []gen.Message, got []json.RawMessage, want []int, i int) (clause, what string) {
	if p.trims && w.t == 0 && i == len(want) {
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
			if p.trims && p.n < w.h+w.t {
				clause = "WIN-2" // head and tail overlap (D-1)
			}
			return clause, fmt.Sprintf("%s appears twice in trimmed, at trimmed[%d] and trimmed[%d]; no message belongs to two zones and none is returned twice",
				describe(in, x.at), first, k)
		}
		seen[x.at] = k
	}
	if !p.trims {
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
	for j := 0; j < p.head; j++ {
		if _, ok := seen[j]; ok {
			continue
		}
		if j >= p.h0 {
			u := unitAt(p.units, p.h0-1)
			return "WIN-9", fmt.Sprintf("%s is not in trimmed, but the preserved head, the first min(h, n) = %d messages, grows to the end of the unit %s they end in, so it is %s",
				describe(in, j), p.h0, indexList(gen.IndexRange(u[0], u[1])), indexList(gen.Indices(p.head)))
		}
		return "WIN-2", fmt.Sprintf("%s is not in trimmed, but it is in the preserved head (the first min(h, n) = %d messages), which is always kept", describe(in, j), p.h0)
	}
	for j := p.n - p.tail; j < p.n; j++ {
		if _, ok := seen[j]; ok {
			continue
		}
		if j < p.n-p.t0 {
			u := unitAt(p.units, p.n-p.t0)
			return "WIN-9", fmt.Sprintf("%s is not in trimmed, but the preserved tail, the last min(t, n − |head|) = %d messages, grows back to the start of the unit %s they start in, so it is %s",
				describe(in, j), p.t0, indexList(gen.IndexRange(u[0], u[1])), indexList(p.tailIdx()))
		}
		return "WIN-2", fmt.Sprintf("%s is not in trimmed, but it is in the preserved tail (the last min(t, n − |head|) = %d messages), which is always kept", describe(in, j), p.t0)
	}
	lo, hi := p.head, p.n-p.tail
	var mid []int
	for j := range seen {
		if lo <= j && j < hi {
			mid = append(mid, j)
		}
	}
	slices.Sort(mid)
	keepFrom := hi - p.keep
	switch {
	case p.headOnly && len(mid) > 0:
		return "WIN-3", fmt.Sprintf("|head| + |tail| = %d >= max_messages %d, so only the head and the tail are kept, but trimmed also holds %s of the middle",
			p.head+p.tail, w.max, indexList(mid))
	case len(mid) > 0 && (mid[len(mid)-1] != hi-1 || mid[len(mid)-1]-mid[0] != len(mid)-1):
		return "WIN-4", fmt.Sprintf("the kept part of the middle %s is its newest whole units, a suffix of it, but trimmed keeps %s of it",
			indexList(gen.IndexRange(lo, hi)), indexList(mid))
	case len(mid) > 0 && !p.isBoundary(mid[0]):
		u := unitAt(p.units, mid[0])
		return "WIN-9", fmt.Sprintf("the kept part of the middle starts at %s, inside the unit %s: cuts fall between units, so the unit is kept whole or evicted whole (k = %d, the kept middle is %s)",
			describe(in, mid[0]), indexList(gen.IndexRange(u[0], u[1])), p.budget, indexList(gen.IndexRange(keepFrom, hi)))
	case len(mid) != p.keep:
		return "WIN-4", fmt.Sprintf("k = max − |head| − |tail| = %d, so the kept middle is the shortest suffix of the middle %s that starts at a unit boundary at or after %d messages before the tail: %s; trimmed keeps %s",
			p.budget, indexList(gen.IndexRange(lo, hi)), p.budget, indexList(gen.IndexRange(keepFrom, hi)), indexList(mid))
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
