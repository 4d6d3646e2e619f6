package model

import (
	"fmt"
	"testing"

	"github.com/convspec/convspec/internal/gen"
)

// history is a well-formed history of units of one message, of the
// classes given.
func history(classes ...string) gen.History {
	h := gen.History{}
	for i, c := range classes {
		h.Msgs = append(h.Msgs, gen.Message{Class: c, Unit: [2]int{i, i + 1}})
		h.Units = append(h.Units, [2]int{i, i + 1})
	}
	return h
}

// TestPlanBuild: build prunes the orphaned prompt (BUILD-1), keeps the
// leading system message and starts the kept rest at the earliest user
// prompt from which it fits (BUILD-3 rule 1); with no limit it keeps all of
// the rest, and when no suffix from a prompt fits it starts at a unit
// boundary (rule 2).
func TestPlanBuild(t *testing.T) {
	h := history(gen.ClassSystem, gen.ClassUserPrompt, gen.ClassUserPrompt, gen.ClassAssistantText, gen.ClassUserPrompt, gen.ClassAssistantText)
	for _, c := range []struct {
		max           int
		orphans, out  string
		rule, dropped int
	}{
		{max: 2, orphans: "[1]", out: "[0 4 5]", rule: 1},
		{max: 0, orphans: "[1]", out: "[0 2 3 4 5]", rule: 0},
		{max: 4, orphans: "[1]", out: "[0 2 3 4 5]", rule: 0},
		{max: 3, orphans: "[1]", out: "[0 4 5]", rule: 1},
		{max: 1, orphans: "[1]", out: "[0 5]", rule: 2},
	} {
		bp := PlanBuild(h, c.max)
		if fmt.Sprint(bp.Orphans) != c.orphans || fmt.Sprint(bp.Out) != c.out || bp.Rule != c.rule || len(bp.Dropped) != 0 {
			t.Errorf("max %d: orphans %v out %v rule %d dropped %v, want orphans %s out %s rule %d", c.max, bp.Orphans, bp.Out, bp.Rule, bp.Dropped, c.orphans, c.out, c.rule)
		}
	}
}
