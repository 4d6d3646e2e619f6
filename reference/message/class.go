package message

import (
	"fmt"

	"github.com/convspec/convspec/internal/jsonscan"
)

// Class is what a message is in a conversation (CLS-1). The format — OpenAI
// or Anthropic — is detected per message, never configured.
type Class string

// Classes.
const (
	System        Class = "system"
	UserPrompt    Class = "user_prompt"
	AssistantText Class = "assistant_text"
	ToolCall      Class = "tool_call"
	ToolResult    Class = "tool_result"
	Other         Class = "other"
)

// classify derives a message's class and tool ids from its members, or
// says why its tool members are malformed (CLS-2).
func classify(role string, members jsonscan.Object) (Class, []string, error) {
	switch role {
	case "system", "developer":
		return System, nil, nil
	case "assistant":
		var ids []string
		if raw, ok := members.Get("tool_calls"); ok && !isNull(raw) {
			elems, ok := jsonscan.SplitArray(raw)
			calls := make([]jsonscan.Object, len(elems))
			for i, e := range elems {
				if calls[i], ok = jsonscan.SplitObject(e); !ok {
					break
				}
			}
			// Every call is an object before any id is read: the shape of
			// the list is the first thing wrong with it.
			if !ok {
				return "", nil, fmt.Errorf(`"tool_calls" must be an array of objects`)
			}
			for i, call := range calls {
				id, err := idMember(call, "id")
				if err != nil {
					return "", nil, fmt.Errorf("tool_calls[%d]: %v", i, err)
				}
				ids = append(ids, id)
			}
		}
		content, _ := members.Get("content")
		blockIDs, err := blockIDs(content, "tool_use", "id")
		if err != nil {
			return "", nil, err
		}
		ids = append(ids, blockIDs...)
		if len(ids) > 0 {
			return ToolCall, ids, nil
		}
		return AssistantText, nil, nil
	case "tool":
		id, err := idMember(members, "tool_call_id")
		if err != nil {
			return "", nil, fmt.Errorf("tool message: %v", err)
		}
		return ToolResult, []string{id}, nil
	case "user":
		content, _ := members.Get("content")
		ids, err := blockIDs(content, "tool_result", "tool_use_id")
		if err != nil {
			return "", nil, err
		}
		if len(ids) > 0 {
			return ToolResult, ids, nil
		}
		return UserPrompt, nil, nil
	default:
		return Other, nil, nil
	}
}

// blockIDs collects the id member of every content block of one type.
func blockIDs(content []byte, blockType, idName string) ([]string, error) {
	if len(content) == 0 || content[0] != '[' {
		return nil, nil
	}
	blocks, _ := jsonscan.SplitArray(content)
	var ids []string
	for i, b := range blocks {
		block, ok := jsonscan.SplitObject(b)
		if !ok {
			continue // not a block object: plain content, not a tool block
		}
		rawType, _ := block.Get("type")
		if t, ok := jsonscan.String(rawType); !ok || t != blockType {
			continue
		}
		id, err := idMember(block, idName)
		if err != nil {
			return nil, fmt.Errorf("content[%d] (a %s block): %v", i, blockType, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func idMember(obj jsonscan.Object, name string) (string, error) {
	raw, ok := obj.Get(name)
	if !ok || isNull(raw) {
		return "", fmt.Errorf("%q is missing", name)
	}
	id, ok := jsonscan.String(raw)
	if !ok || id == "" {
		return "", fmt.Errorf("%q must be a non-empty string", name)
	}
	return id, nil
}

func isNull(raw []byte) bool { return string(raw) == "null" }

// Class is the message's class.
func (m Message) Class() Class {
	if m.class == "" {
		return Other // zero Message
	}
	return m.class
}

// ToolIDs are the ids a tool call declares or a tool result answers, in
// message order; nil for other classes.
func (m Message) ToolIDs() []string { return append([]string(nil), m.toolIDs...) }

// IsAssistant reports whether the message is an assistant turn, with or
// without tool calls.
func (m Message) IsAssistant() bool { return m.class == AssistantText || m.class == ToolCall }
