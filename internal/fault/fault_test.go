package fault

import (
	"context"
	"slices"
	"testing"
)

func TestZeroSetIsTheReference(t *testing.T) {
	for _, p := range All() {
		if (Set{}).On(p) || From(context.Background()).On(p) {
			t.Errorf("point %s is on in the zero Set", p)
		}
	}
}

func TestOfTurnsOnItsPointsOnly(t *testing.T) {
	s := Of(LoopNoFinalTrim, SummaryAfterTail, LoopNoFinalTrim)
	if got, want := s.Points(), []Point{LoopNoFinalTrim, SummaryAfterTail}; !slices.Equal(got, want) {
		t.Errorf("Points() = %v, want %v", got, want)
	}
	if !s.On(LoopNoFinalTrim) || !s.On(SummaryAfterTail) || s.On(SummaryBeforeHead) {
		t.Errorf("On disagrees with Of(%v)", s.Points())
	}
	if !From(With(context.Background(), s)).On(SummaryAfterTail) {
		t.Error("the Set did not travel in the context")
	}
}

func TestTraceRecordsReachedPointsOnly(t *testing.T) {
	var tr Trace
	s := Of(LoopNoFinalTrim, SummaryAfterTail).Traced(&tr)
	s.On(LoopNoFinalTrim)
	s.On(SummaryBeforeHead) // off: not the Set's, never recorded
	if !tr.Reached(LoopNoFinalTrim) || tr.Reached(SummaryAfterTail) || tr.Reached(SummaryBeforeHead) {
		t.Errorf("trace: reached %v %v %v, want true false false",
			tr.Reached(LoopNoFinalTrim), tr.Reached(SummaryAfterTail), tr.Reached(SummaryBeforeHead))
	}
}

func TestAllNamesEachPointOnce(t *testing.T) {
	seen := map[Point]bool{}
	for _, p := range All() {
		if p == "" || seen[p] {
			t.Errorf("point %q is empty or listed twice", p)
		}
		seen[p] = true
	}
}
