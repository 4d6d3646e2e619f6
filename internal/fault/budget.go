package fault

// Points of reference/budget's compression and preparation (CMP-*,
// PREP-*).
const (
	// CompressPromptByRole keeps the last message whose role is user,
	// an Anthropic tool_result message too, as the prompt (CMP-1).
	CompressPromptByRole Point = "budget.compress-prompt-by-role"
	// CompressKeepsLastMessage keeps the last message, whatever its
	// class, as the prompt (CMP-1).
	CompressKeepsLastMessage Point = "budget.compress-keeps-last-message"
	// PrepareUnitsCheckedOnlyWhenPruning checks the tool structure only
	// on the paths that prune, so under 80 % a malformed conversation is
	// passed on (UNIT-2, PREP-1).
	PrepareUnitsCheckedOnlyWhenPruning Point = "budget.prepare-units-checked-only-when-pruning"
	// PrepareAt80Inclusive prunes and warns at exactly 80 % of the
	// limit (PREP-1).
	PrepareAt80Inclusive Point = "budget.prepare-at-80-inclusive"
	// PrepareEventCountAfterPrune reports the count after pruning in
	// context_window_approaching (PREP-2).
	PrepareEventCountAfterPrune Point = "budget.prepare-event-count-after-prune"
	// PrepareNoRecheckAfterFailure returns the pruned conversation after
	// a failed compression without checking it is below the hard limit
	// (PREP-4).
	PrepareNoRecheckAfterFailure Point = "budget.prepare-no-recheck-after-failure"
)

func budgetPoints() []Point {
	return []Point{
		CompressPromptByRole, CompressKeepsLastMessage, PrepareUnitsCheckedOnlyWhenPruning,
		PrepareAt80Inclusive, PrepareEventCountAfterPrune, PrepareNoRecheckAfterFailure,
	}
}
