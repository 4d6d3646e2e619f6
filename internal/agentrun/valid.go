package agentrun

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/convspec/convspec/internal/jsonscan"
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

// message is what shapeOf reads of a message, as encoding/json reads it.
// An alias of an unnamed struct: encoding/json names the struct in its
// errors ("Go struct field .role"), and a message refused says them.
type message = struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID *string         `json:"tool_call_id"`
	ToolCalls  []struct {
		ID string `json:"id"`
	} `json:"tool_calls"`
}

// block is what shapeOf reads of a content block.
type block = struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	ToolUseID string `json:"tool_use_id"`
}

// shapeOf reads a message's shape in place (readShape), and decodes it
// with encoding/json only where that cannot answer: text that is not a
// JSON object, a member of the wrong type, a content array holding
// something other than blocks. decodeShape's errors are the ones a
// request is refused with (LOOP-6), so they stay encoding/json's, word for
// word (FuzzShapeAsDecoded).
func shapeOf(m json.RawMessage) (shape, error) {
	if s, ok := readShape(m); ok {
		return s, nil
	}
	return decodeShape(m)
}

// readShape is decodeShape read with jsonscan: json.Unmarshal's verdict
// (jsonscan.Valid), its members (Fields); false where it would not
// decode, or where only encoding/json can say what it makes of the text.
// Every message of every loop request went through encoding/json twice,
// its content once more: 3 % of the harness's CPU over the wire.
func readShape(m json.RawMessage) (shape, bool) {
	if !jsonscan.Valid(m) {
		return shape{}, false
	}
	members, ok := jsonscan.SplitObject(m)
	var v message
	if !ok || !jsonscan.Fields(members, &v) {
		return shape{}, false
	}
	var blocks []block
	if len(v.Content) > 0 && v.Content[0] == '[' {
		// Anything but an array leaves the blocks out, as the error or
		// the null it decodes to does in decodeShape.
		elems, _ := jsonscan.SplitArray(v.Content)
		blocks = make([]block, len(elems))
		for i, e := range elems {
			switch e[0] {
			case 'n': // a null block is the zero block
			case '{':
				bm, _ := jsonscan.SplitObject(e)
				if !jsonscan.Fields(bm, &blocks[i]) {
					return shape{}, false
				}
			default:
				return shape{}, false
			}
		}
	}
	return shapeFrom(v, blocks), true
}

// decodeShape decodes a message with encoding/json; its error is the
// reason a message is not one.
func decodeShape(m json.RawMessage) (shape, error) {
	var v message
	if err := json.Unmarshal(m, &v); err != nil {
		return shape{}, err
	}
	var blocks []block
	if json.Unmarshal(v.Content, &blocks) != nil {
		blocks = nil
	}
	return shapeFrom(v, blocks), nil
}

// shapeFrom is the shape of a decoded message and its content blocks.
func shapeFrom(v message, blocks []block) shape {
	s := shape{role: v.Role}
	for _, c := range v.ToolCalls {
		s.calls = append(s.calls, c.ID)
	}
	if v.ToolCallID != nil && v.Role == "tool" {
		s.results = append(s.results, *v.ToolCallID)
	}
	for _, b := range blocks {
		switch {
		case b.Type == "tool_use" && v.Role == "assistant":
			s.calls = append(s.calls, b.ID)
		case b.Type == "tool_result" && v.Role == "user":
			s.results = append(s.results, b.ToolUseID)
		}
	}
	return s
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
