package model

import (
	"slices"

	"github.com/convspec/convspec/internal/gen"
)

// BuildPlan is what build must do to a history.
type BuildPlan struct {
	Max      int
	Dropped  []int // by the repair (BUILD-2)
	Repaired []int
	pruned   []int // after pruning (BUILD-1)
	Orphans  []int // the prompts pruning removes
	Sys      []int // the leading system messages of the pruned history
	Rest     []int // R
	Start    int   // where the kept suffix of R starts
	Rule     int   // of BUILD-3: 0 when all of R is kept
	Out      []int
}

// PlanBuild is what build must do to h with max_messages max: repair
// (BUILD-2), prune (BUILD-1), then keep the window of BUILD-3.
func PlanBuild(h gen.History, max int) BuildPlan {
	bp := BuildPlan{Max: max, Dropped: []int{}}
	for _, b := range h.Broken {
		bp.Dropped = append(bp.Dropped, b.Idx...)
	}
	slices.Sort(bp.Dropped)
	bp.Repaired = Without(gen.Indices(len(h.Msgs)), bp.Dropped)
	bp.Orphans = PruneRemoved(h.Msgs, bp.Repaired)
	bp.pruned = Without(bp.Repaired, bp.Orphans)
	bp.Sys, bp.Rest, bp.Start, bp.Rule = BuildWindow(h, bp.pruned, max)
	bp.Out = append(slices.Clone(bp.Sys), bp.Rest[bp.Start:]...)
	return bp
}

// BuildWindow applies BUILD-3 to the messages at positions list.
func BuildWindow(h gen.History, list []int, max int) (sys, rest []int, start, rule int) {
	k := 0
	for k < len(list) && h.Msgs[list[k]].Class == gen.ClassSystem {
		k++
	}
	sys, rest = list[:k], list[k:]
	r := len(rest)
	if max == 0 || r <= max {
		return sys, rest, 0, 0
	}
	for j, i := range rest {
		if h.UnitStart(i) && h.Msgs[i].Class == gen.ClassUserPrompt && r-j <= max {
			return sys, rest, j, 1
		}
	}
	for j, i := range rest {
		if h.UnitStart(i) && r-j <= max {
			return sys, rest, j, 2
		}
	}
	last := 0
	for j, i := range rest {
		if h.UnitStart(i) {
			last = j
		}
	}
	return sys, rest, last, 3
}
