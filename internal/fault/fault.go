// Package fault names the places where a faulty variant of the reference
// differs from it (D-68). The reference consults a Set at the exact line a
// variant changes; with no point on — every caller outside the catalogue
// of faulty variants — it is the reference. A variant that is "the
// reference with these points on" then follows every later change of the
// reference instead of keeping a pasted copy's old behaviour.
//
// The Set travels in the context.Context the reference's operations
// already take (With, From), so no exported name of the reference changes
// and no package holds mutable state: code outside this module cannot
// import this package, so it can never turn a point on.
package fault

import (
	"context"
	"slices"
	"sync"
)

// Point names one deviation from the reference, as
// "package.what-the-faulty-line-does".
type Point string

// Set is the points that are on. The zero Set has none: the reference.
// A Set is a value; its methods never change it.
type Set struct {
	on    []Point
	trace *Trace
}

// Of is the Set with the given points on.
func Of(points ...Point) Set {
	on := slices.Clone(points)
	slices.Sort(on)
	return Set{on: slices.Compact(on)}
}

// On tells whether p is on, and records in the Set's trace, if any, that
// the reference reached the line of p.
func (s Set) On(p Point) bool {
	if !slices.Contains(s.on, p) {
		return false
	}
	if s.trace != nil {
		s.trace.reach(p)
	}
	return true
}

// Points are the points that are on, sorted.
func (s Set) Points() []Point { return slices.Clone(s.on) }

// Empty tells whether no point is on.
func (s Set) Empty() bool { return len(s.on) == 0 }

// Traced is s recording into t every point the reference consults while
// it is on: a point that a variant turns on and that its killing cases
// never reach is a defect (the variant is killed for another reason, or
// the point sits on a dead line).
func (s Set) Traced(t *Trace) Set {
	s.on = slices.Clone(s.on)
	s.trace = t
	return s
}

// Trace records which points were reached. It is safe for concurrent use.
type Trace struct {
	mu      sync.Mutex
	reached map[Point]bool
}

func (t *Trace) reach(p Point) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.reached == nil {
		t.reached = map[Point]bool{}
	}
	t.reached[p] = true
}

// Reached tells whether the reference consulted p while it was on.
func (t *Trace) Reached(p Point) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reached[p]
}

type key struct{}

// With is ctx carrying s to the reference's operations.
func With(ctx context.Context, s Set) context.Context {
	return context.WithValue(ctx, key{}, s)
}

// From is the Set ctx carries; the zero Set (the reference) when none.
func From(ctx context.Context) Set {
	s, _ := ctx.Value(key{}).(Set)
	return s
}
