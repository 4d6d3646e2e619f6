// Package agentrun builds synthetic agent runs for the provider loop
// (spec LOOP-*): the system prompt, user prompts, the model's tool calls and
// the tool results, in the OpenAI or the Anthropic format, as the wire
// params of loop.run. The scenarios and the properties share it, so both
// exercise the same shapes.
package agentrun

import (
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
)

// Provider formats.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Plan describes a run: for each iteration, the number of parallel calls of
// each tool turn (the final, tool-less response is added to every
// iteration). OneByOne appends each call as its own assistant message and
// result instead of one message for all of a turn's calls — the pattern 004's
// audit found in the Anthropic provider.
type Plan struct {
	Provider   string
	Iterations [][]int
	OneByOne   bool
}

// ToolCalls is the number of tool calls of the plan.
func (p Plan) ToolCalls() int {
	n := 0
	for _, it := range p.Iterations {
		for _, calls := range it {
			n += calls
		}
	}
	return n
}

// Build returns the initial conversation and the iterations of p.
func Build(p Plan) ([]json.RawMessage, []protocol.LoopIteration, error) {
	if p.Provider != OpenAI && p.Provider != Anthropic {
		return nil, nil, fmt.Errorf("unknown provider %q", p.Provider)
	}
	var initial []json.RawMessage
	if p.Provider == OpenAI {
		initial = append(initial, raw(map[string]any{"role": "system", "content": "You are a coding agent. Use the tools to finish the task."}))
	}
	iterations := make([]protocol.LoopIteration, len(p.Iterations))
	for i, turns := range p.Iterations {
		it := protocol.LoopIteration{Prompt: raw(map[string]any{"role": "user", "content": fmt.Sprintf("Task %d: continue the refactoring.", i+1)})}
		for t, calls := range turns {
			if calls < 1 {
				return nil, nil, fmt.Errorf("iteration %d, turn %d: a tool turn needs at least one call", i, t)
			}
			ids := make([]string, calls)
			for k := range ids {
				ids[k] = fmt.Sprintf("call_%d_%d_%d", i+1, t+1, k+1)
			}
			if p.OneByOne {
				for _, id := range ids {
					it.Turns = append(it.Turns, turn(p.Provider, []string{id}))
				}
			} else {
				it.Turns = append(it.Turns, turn(p.Provider, ids))
			}
		}
		it.Turns = append(it.Turns, protocol.LoopTurn{Response: raw(map[string]any{"role": "assistant", "content": fmt.Sprintf("Task %d is done.", i+1)})})
		iterations[i] = it
	}
	return initial, iterations, nil
}

// turn is one model response calling ids, with their results.
func turn(provider string, ids []string) protocol.LoopTurn {
	var t protocol.LoopTurn
	if provider == OpenAI {
		calls := make([]any, len(ids))
		for k, id := range ids {
			calls[k] = map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"src/%s.go"}`, id)}}
			t.Results = append(t.Results, raw(map[string]any{"role": "tool", "tool_call_id": id, "content": "package " + id}))
		}
		t.Response = raw(map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
		return t
	}
	blocks := []any{map[string]any{"type": "text", "text": fmt.Sprintf("Reading %d files.", len(ids))}}
	results := make([]any, len(ids))
	for k, id := range ids {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": id, "name": "read_file", "input": map[string]any{"path": "src/" + id + ".go"}})
		results[k] = map[string]any{"type": "tool_result", "tool_use_id": id, "content": "package " + id}
	}
	t.Response = raw(map[string]any{"role": "assistant", "content": blocks})
	t.Results = []json.RawMessage{raw(map[string]any{"role": "user", "content": results})}
	return t
}

func raw(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // unreachable: maps of strings and numbers always encode
	}
	return b
}
