package model

import (
	"fmt"
	"testing"

	"github.com/convspec/convspec/internal/gen"
)

// TestPruneRemoved: of a run of user prompts with no assistant message
// between them, all but the last go (PRUNE-1); a system message or a tool
// result does not end a run, an assistant message does (PRUNE-2).
func TestPruneRemoved(t *testing.T) {
	classes := []string{gen.ClassSystem, gen.ClassUserPrompt, gen.ClassUserPrompt, gen.ClassAssistantText,
		gen.ClassUserPrompt, gen.ClassToolResult, gen.ClassUserPrompt, gen.ClassToolCall, gen.ClassUserPrompt}
	in := make([]gen.Message, len(classes))
	for i, c := range classes {
		in[i] = gen.Message{Class: c}
	}
	all := gen.Indices(len(in))
	if got := PruneRemoved(in, all); fmt.Sprint(got) != "[1 4]" {
		t.Errorf("PruneRemoved = %v, want [1 4]", got)
	}
	if got := Without(all, PruneRemoved(in, all)); fmt.Sprint(got) != "[0 2 3 5 6 7 8]" {
		t.Errorf("what stays = %v, want [0 2 3 5 6 7 8]", got)
	}
	// Within the positions left after dropping 2, prompt 1 is alone.
	if got := PruneRemoved(in, Without(all, []int{2})); fmt.Sprint(got) != "[4]" {
		t.Errorf("PruneRemoved without 2 = %v, want [4]", got)
	}
	prompts, between := RunOf(in, all, 4)
	if fmt.Sprint(prompts) != "[4 6]" || fmt.Sprint(between) != "[5]" {
		t.Errorf("RunOf(4) = %v between %v, want [4 6] between [5]", prompts, between)
	}
}
