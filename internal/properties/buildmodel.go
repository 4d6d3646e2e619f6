package properties

import (
	"slices"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// buildPlan is what build must do to a history.
type buildPlan struct {
	max      int
	dropped  []int // by the repair (BUILD-2)
	repaired []int
	pruned   []int // after pruning (BUILD-1)
	orphans  []int // the prompts pruning removes
	sys      []int // the leading system messages of the pruned history
	rest     []int // R
	start    int   // where the kept suffix of R starts
	rule     int   // of BUILD-3: 0 when all of R is kept
	out      []int
}

// planBuild is what build must do to h with max_messages max: repair
// (BUILD-2), prune (BUILD-1), then keep the window of BUILD-3.
func planBuild(h gen.History, max int) buildPlan {
	bp := buildPlan{max: max, dropped: []int{}}
	for _, b := range h.Broken {
		bp.dropped = append(bp.dropped, b.Idx...)
	}
	slices.Sort(bp.dropped)
	bp.repaired = model.Without(gen.Indices(len(h.Msgs)), bp.dropped)
	bp.orphans = model.PruneRemoved(h.Msgs, bp.repaired)
	bp.pruned = model.Without(bp.repaired, bp.orphans)
	bp.sys, bp.rest, bp.start, bp.rule = buildWindow(h, bp.pruned, max)
	bp.out = append(slices.Clone(bp.sys), bp.rest[bp.start:]...)
	return bp
}

// buildWindow applies BUILD-3 to the messages at positions list.
func buildWindow(h gen.History, list []int, max int) (sys, rest []int, start, rule int) {
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
