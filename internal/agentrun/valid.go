package agentrun

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Invalid is a request the provider would reject: the rule it breaks and
// the message where (LOOP-6).
type Invalid struct {
	Index int
	Rule  string
}

func (e *Invalid) Error() string { return fmt.Sprintf("message %d: %s", e.Index, e.Rule) }

// shape is what the provider rules look at in a message.
type shape struct {
	role    string
	calls   []string // ids of tool calls (OpenAI tool_calls, Anthropic tool_use)
	results []string // ids answered (OpenAI tool_call_id, Anthropic tool_result)
}

func shapeOf(m json.RawMessage) (shape, error) {
	var v struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID *string         `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(m, &v); err != nil {
		return shape{}, err
	}
	s := shape{role: v.Role}
	for _, c := range v.ToolCalls {
		s.calls = append(s.calls, c.ID)
	}
	if v.ToolCallID != nil && v.Role == "tool" {
		s.results = append(s.results, *v.ToolCallID)
	}
	var blocks []struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(v.Content, &blocks) == nil {
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && v.Role == "assistant":
				s.calls = append(s.calls, b.ID)
			case b.Type == "tool_result" && v.Role == "user":
				s.results = append(s.results, b.ToolUseID)
			}
		}
	}
	return s, nil
}

// Check reports the first way a request breaks its provider's rules
// (LOOP-6): a tool result that does not answer a call right before it, a
// call without its results right after it, a call answered twice, and a
// request that does not start as the provider requires.
func Check(msgs []json.RawMessage, provider string) error {
	if len(msgs) == 0 {
		return &Invalid{Index: 0, Rule: "a request needs at least one message"}
	}
	shapes := make([]shape, len(msgs))
	for i, m := range msgs {
		s, err := shapeOf(m)
		if err != nil {
			return &Invalid{Index: i, Rule: "not a message: " + err.Error()}
		}
		shapes[i] = s
	}
	first := shapes[0]
	switch provider {
	case OpenAI:
		if first.role != "system" {
			return &Invalid{Index: 0, Rule: fmt.Sprintf("the system prompt must come first, found role %q", first.role)}
		}
	case Anthropic:
		if first.role != "user" || len(first.results) > 0 {
			return &Invalid{Index: 0, Rule: "the first message must be a user prompt"}
		}
		for i, s := range shapes {
			if s.role == "system" {
				return &Invalid{Index: i, Rule: "the Anthropic API takes the system prompt as a parameter, not as a message"}
			}
		}
	default:
		return fmt.Errorf("unknown provider %q", provider)
	}
	answered := map[int]bool{}
	for i, s := range shapes {
		if len(s.calls) == 0 {
			continue
		}
		var got []string
		for j := i + 1; j < len(shapes) && len(shapes[j].results) > 0; j++ {
			if provider == Anthropic && j > i+1 {
				break // Anthropic: every result in the very next message
			}
			for _, id := range shapes[j].results {
				if !slices.Contains(s.calls, id) {
					return &Invalid{Index: j, Rule: fmt.Sprintf("tool result %q answers no call of message %d", id, i)}
				}
				if slices.Contains(got, id) {
					return &Invalid{Index: j, Rule: fmt.Sprintf("tool call %q is answered twice", id)}
				}
				got = append(got, id)
			}
			answered[j] = true
		}
		for _, id := range s.calls {
			if !slices.Contains(got, id) {
				return &Invalid{Index: i, Rule: fmt.Sprintf("tool call %q has no result right after it", id)}
			}
		}
	}
	for i, s := range shapes {
		if len(s.results) > 0 && !answered[i] {
			return &Invalid{Index: i, Rule: fmt.Sprintf("tool result %q has no call right before it", s.results)}
		}
	}
	return nil
}
