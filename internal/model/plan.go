package model

import (
	"slices"

	"github.com/convspec/convspec/internal/gen"
)

// The plan: what WIN-1 – WIN-4 and WIN-9 say a trim keeps.

// Window is a window's effective configuration, as a plan reads it:
// max_messages, preserve_first_n and preserve_last_n.
type Window struct {
	Max, First, Last int
}

// Plan is where a trim of n messages cuts. The kept messages are the
// first head and the last keep + tail; the evicted ones lie between.
type Plan struct {
	N int
	// Head, Tail and Keep are the sizes of the preserved head, the
	// preserved tail and the kept part of the middle, units whole.
	Head, Tail, Keep int
	// H0 and T0 are where WIN-2 starts before the head and tail grow to
	// whole units (WIN-9): min(h, n) and min(t, n − |head|).
	H0, T0 int
	// Budget is k = max − |head| − |tail| on the path of WIN-4.
	Budget int
	// Trims is false on the path of WIN-1 (and CFG-5).
	Trims bool
	// HeadOnly is the path of WIN-3.
	HeadOnly bool
	Units    [][2]int
}

// PlanFor plans a trim of in along the units the generator built.
func PlanFor(w Window, in []gen.Message) Plan { return PlanUnits(w, unitsOf(in), len(in)) }

// PlanCount plans a trim of n messages without tool calls.
func PlanCount(w Window, n int) Plan { return PlanUnits(w, singles(n), n) }

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

func PlanUnits(w Window, units [][2]int, n int) Plan {
	if w.Max == 0 {
		return Plan{N: n, Units: units} // CFG-5
	}
	return PlanCap(w, units, n, w.Max)
}

// PlanCap plans with a cap taken literally: a summarizing trim plans with
// max_messages − 1 (SUM-3), where 0 leaves room for nothing rather than
// turning trimming off.
func PlanCap(w Window, units [][2]int, n, limit int) Plan {
	p := Plan{N: n, Units: units}
	if n <= limit {
		return p // WIN-1
	}
	p.Trims = true
	// WIN-2, WIN-9: the head is the first min(h, n), grown to the end of
	// the unit they end in; the tail the last min(t, n − |head|), grown
	// back to the start of the unit they start in.
	p.H0 = min(w.First, n)
	if last := p.H0 - 1; last >= 0 {
		p.Head = UnitAt(units, last)[1]
	}
	p.T0 = min(w.Last, n-p.Head)
	tailStart := n
	if p.T0 > 0 {
		tailStart = UnitAt(units, n-p.T0)[0]
	}
	p.Tail = n - tailStart
	if p.Head+p.Tail >= limit {
		p.HeadOnly = true // WIN-3
		return p
	}
	// WIN-4: the kept middle starts at the first unit boundary at or after
	// tailStart − k.
	p.Budget = limit - p.Head - p.Tail
	keepFrom := tailStart
	for _, u := range units {
		if u[0] >= tailStart-p.Budget {
			keepFrom = min(u[0], tailStart)
			break
		}
	}
	p.Keep = tailStart - keepFrom
	return p
}

// UnitAt is the unit that holds message i.
func UnitAt(units [][2]int, i int) [2]int {
	for _, u := range units {
		if u[0] <= i && i < u[1] {
			return u
		}
	}
	return [2]int{i, i + 1}
}

func (p Plan) IsBoundary(i int) bool {
	return i == p.N || slices.ContainsFunc(p.Units, func(u [2]int) bool { return u[0] == i })
}

func (p Plan) Trimmed() []int {
	if !p.Trims {
		return gen.Indices(p.N)
	}
	out := gen.Indices(p.Head)
	for i := p.N - p.Tail - p.Keep; i < p.N; i++ {
		out = append(out, i)
	}
	return out
}

func (p Plan) Evicted() []int {
	var out []int
	if p.Trims {
		for i := p.Head; i < p.N-p.Tail-p.Keep; i++ {
			out = append(out, i)
		}
	}
	return out
}

func (p Plan) TailIdx() []int { return gen.IndexRange(p.N-p.Tail, p.N) }

// Zone of input message i on a trimming path (WIN-2).
func (p Plan) Zone(i int) string {
	switch {
	case i < p.Head:
		return "head"
	case i >= p.N-p.Tail:
		return "tail"
	default:
		return "middle"
	}
}
