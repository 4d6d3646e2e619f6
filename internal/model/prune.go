package model

import (
	"slices"

	"github.com/convspec/convspec/internal/gen"
)

// Pruning: what PRUNE-1 and PRUNE-2 remove, computed from the classes the
// generator gave each message.

// PruneRemoved is what PRUNE-1 removes from the messages at positions idx
// of in (in order): of every run of user prompts with no assistant message
// between them, all but the last.
func PruneRemoved(in []gen.Message, idx []int) []int {
	removed := []int{}
	last := -1
	for _, i := range idx {
		switch c := in[i].Class; {
		case c == gen.ClassUserPrompt:
			if last >= 0 {
				removed = append(removed, last)
			}
			last = i
		case gen.IsAssistant(c):
			last = -1
		}
	}
	return removed
}

// Without is idx without the positions in drop, in order.
func Without(idx, drop []int) []int {
	out := []int{}
	for _, i := range idx {
		if !slices.Contains(drop, i) {
			out = append(out, i)
		}
	}
	return out
}

// RunOf is the run of user prompts that prompt i belongs to, within the
// positions idx, and what lies between its members.
func RunOf(in []gen.Message, idx []int, i int) (prompts, between []int) {
	k := slices.Index(idx, i)
	lo, hi := k, k
	for lo > 0 && !gen.IsAssistant(in[idx[lo-1]].Class) {
		lo--
	}
	for hi+1 < len(idx) && !gen.IsAssistant(in[idx[hi+1]].Class) {
		hi++
	}
	for _, j := range idx[lo : hi+1] {
		if in[j].Class == gen.ClassUserPrompt {
			prompts = append(prompts, j)
		}
	}
	for _, j := range idx[lo : hi+1] {
		if j > prompts[0] && j < prompts[len(prompts)-1] && in[j].Class != gen.ClassUserPrompt {
			between = append(between, j)
		}
	}
	return prompts, between
}
