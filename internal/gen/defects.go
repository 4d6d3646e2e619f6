package gen

import (
	"slices"

	"pgregory.net/rapid"
)

// Defects the history generator inserts into a well-formed plan (UNIT-2).

// Defects whose code and extent the spec fixes, and those it leaves open
// (sent only where any reading gives the same answer: window.trim must
// refuse them all, history.prune ignores structure).
var (
	SureDefects      = []string{"orphan", "drop", "move", "twice", "dup"}
	AmbiguousDefects = []string{"orphan-known-id", "orphan-in-run", "twice-after", "dup-same"}
)

func drawDefects(t *rapid.T, plan []item, o HistoryOpts) ([]item, []insertion) {
	count := o.Defects[0]
	if o.Defects[1] > count {
		count = intRange(o.Defects[0], o.Defects[1]).Draw(t, "defects")
	}
	kinds := SureDefects
	if o.Ambiguous {
		kinds = append(append([]string(nil), SureDefects...), AmbiguousDefects...)
	}
	var ins []insertion
	free := func(i int) bool { return plan[i].kind == "tool" && plan[i].defect == "" && !plan[i].reserved }
	intactTool := func(i int) bool { return plan[i].kind == "tool" && plan[i].defect == "" }
	slotFree := func(s int) bool {
		for _, x := range ins {
			if x.slot == s {
				return false
			}
		}
		// Right after a broken call, a result would be read as one of its
		// results: the spec does not say which structure it breaks.
		return s == 0 || plan[s-1].defect == ""
	}
	for d := 0; d < count; d++ {
		kind := rapid.SampledFrom(kinds).Draw(t, "defect")
		var cands []int
		switch kind {
		case "orphan", "orphan-known-id":
			for s := 0; s <= len(plan); s++ {
				if !slotFree(s) {
					continue
				}
				if kind == "orphan-known-id" && !slices.ContainsFunc(Indices(s), intactTool) {
					continue
				}
				cands = append(cands, s)
			}
		default:
			for i := range plan {
				if !free(i) {
					continue
				}
				g := plan[i].tool.groups
				ok := true
				switch kind {
				case "twice":
					ok = len(g) >= 2 || slices.Contains(plan[i].tool.anthropic, true)
				case "dup":
					ok = slices.ContainsFunc(Indices(i), intactTool)
				case "dup-same":
					ok = len(plan[i].tool.anthropic) >= 2
				case "move":
					// The result moves behind the next unit, which stays
					// intact; the slot after the call must not get an
					// orphan of its own.
					ok = i+1 < len(plan) && (plan[i+1].defect == "" || plan[i+1].kind != "tool") &&
						!slices.ContainsFunc(ins, func(x insertion) bool { return x.slot == i+1 })
				}
				if ok && !slices.ContainsFunc(ins, func(x insertion) bool { return x.slot == i+1 }) {
					cands = append(cands, i)
				}
			}
		}
		if len(cands) == 0 {
			if d < o.Defects[0] && kind != "orphan" {
				d-- // slot 0 is free unless an orphan is there already
				kinds = []string{"orphan"}
			}
			continue
		}
		at := rapid.SampledFrom(cands).Draw(t, "defect at")
		switch kind {
		case "orphan":
			ins = append(ins, insertion{slot: at, defect: kind})
		case "orphan-known-id":
			var known []int
			for i := range at {
				if intactTool(i) {
					known = append(known, i)
				}
			}
			k := rapid.SampledFrom(known).Draw(t, "answers the id of")
			plan[k].reserved = true
			ins = append(ins, insertion{slot: at, defect: kind, known: k})
		default:
			plan[at].defect = kind
			switch kind {
			case "dup":
				var src []int
				for i := range at {
					if intactTool(i) {
						src = append(src, i)
					}
				}
				plan[at].dupOf = rapid.SampledFrom(src).Draw(t, "duplicates an id of")
				plan[plan[at].dupOf].reserved = true
			case "move":
				plan[at+1].reserved = true
			}
		}
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.slot - b.slot })
	return plan, ins
}
