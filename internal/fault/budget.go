package fault

// Points of reference/budget's compression (CMP-*).
const (
	// CompressPromptByRole keeps the last message whose role is user,
	// an Anthropic tool_result message too, as the prompt (CMP-1).
	CompressPromptByRole Point = "budget.compress-prompt-by-role"
	// CompressKeepsLastMessage keeps the last message, whatever its
	// class, as the prompt (CMP-1).
	CompressKeepsLastMessage Point = "budget.compress-keeps-last-message"
)

func budgetPoints() []Point {
	return []Point{CompressPromptByRole, CompressKeepsLastMessage}
}
