package properties

import (
	"github.com/convspec/convspec/internal/gen"
	"slices"
)

// The plan: what WIN-1 – WIN-4 and WIN-9 say a trim keeps.

// windowConfig is a window's effective configuration: what the model of a
// trim (plan.go) needs of it.
type windowConfig struct {
	max, h, t int
}

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
func planFor(w windowConfig, in []gen.Message) plan { return planUnits(w, unitsOf(in), len(in)) }

// planCount plans a trim of n messages without tool calls.
func planCount(w windowConfig, n int) plan { return planUnits(w, singles(n), n) }

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

func planUnits(w windowConfig, units [][2]int, n int) plan {
	if w.max == 0 {
		return plan{n: n, units: units} // CFG-5
	}
	return planCap(w, units, n, w.max)
}

// planCap plans with a cap taken literally: a summarizing trim plans with
// max_messages − 1 (SUM-3), where 0 leaves room for nothing rather than
// turning trimming off.
func planCap(w windowConfig, units [][2]int, n, limit int) plan {
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
