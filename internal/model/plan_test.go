package model

import (
	"fmt"
	"testing"
)

// TestSpecExamples checks the plan against the spec's own examples of
// WIN-2 – WIN-4.
func TestSpecExamples(t *testing.T) {
	// WIN-3: max 5, h 3, t 4, seven messages: all kept, nothing evicted.
	p := PlanCount(Window{Max: 5, First: 3, Last: 4}, 7)
	if !p.HeadOnly || fmt.Sprint(p.Trimmed()) != "[0 1 2 3 4 5 6]" || len(p.Evicted()) != 0 {
		t.Errorf("WIN-3 example: %+v trimmed %v evicted %v", p, p.Trimmed(), p.Evicted())
	}
	// WIN-4: max 5, h 1, t 2, eight messages: trimmed m1 m5 m6 m7 m8.
	p = PlanCount(Window{Max: 5, First: 1, Last: 2}, 8)
	if fmt.Sprint(p.Trimmed()) != "[0 4 5 6 7]" || fmt.Sprint(p.Evicted()) != "[1 2 3]" {
		t.Errorf("WIN-4 example: trimmed %v evicted %v", p.Trimmed(), p.Evicted())
	}
	// WIN-2: t = 0 keeps no tail; n < h + t never overlaps.
	if p := PlanCount(Window{Max: 3, First: 1, Last: 0}, 6); fmt.Sprint(p.Trimmed()) != "[0 4 5]" {
		t.Errorf("t = 0: trimmed %v", p.Trimmed())
	}
	if p := PlanCount(Window{Max: 2, First: 3, Last: 3}, 4); fmt.Sprint(p.Trimmed()) != "[0 1 2 3]" {
		t.Errorf("overlap: trimmed %v", p.Trimmed())
	}
}
