package mutants

// Faulty variants of the message model every capability shares (MSG-*,
// and the tool structures of CLS-2 and UNIT-2).

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// strictMessages validates messages beyond MSG-1 and CLS-2 before the
// window, history.classify and history.build see them.
type strictMessages struct {
	server.Reference
	check func([]message.Message) error
}

func (strictMessages) Name() string { return "convspec-mutant" }

func (s strictMessages) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	w, cfg, warnings, err := s.Reference.NewWindow(config)
	if err != nil {
		return nil, cfg, nil, err
	}
	return trimmerFunc(func(ctx context.Context, msgs []message.Message, sm window.Summarizer) (window.Result, error) {
		if err := s.check(msgs); err != nil {
			return window.Result{}, err
		}
		return w.TrimWith(ctx, msgs, sm)
	}), cfg, warnings, nil
}

func (s strictMessages) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	if err := s.check(msgs); err != nil {
		return nil, nil, err
	}
	return s.Reference.Classify(msgs)
}

func (s strictMessages) Build(msgs []message.Message, max int) (history.Result, error) {
	if err := s.check(msgs); err != nil {
		return history.Result{}, err
	}
	return s.Reference.Build(msgs, max)
}

func knownRolesOnly(msgs []message.Message) error {
	for i, m := range msgs {
		switch m.Role() {
		case "system", "user", "assistant", "tool":
		default:
			return &message.Error{Index: i, Reason: fmt.Sprintf(`"role" must be one of system, user, assistant, tool, got %q`, m.Role())}
		}
	}
	return nil
}

// fullToolSchema asks of every tool member what the providers' SDK types
// declare: an OpenAI call has type "function" and a function with name
// and arguments; a tool_use block a name and an input; a tool_result
// block and a tool message content.
func fullToolSchema(msgs []message.Message) error {
	for i, m := range msgs {
		var v struct {
			ToolCalls []struct {
				Type     string `json:"type"`
				Function *struct {
					Name      *string `json:"name"`
					Arguments *string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(m.Raw(), &v)
		fail := func(what string) error { return &message.Error{Index: i, Reason: what + " is required"} }
		for j, c := range v.ToolCalls {
			if c.Type != "function" || c.Function == nil || c.Function.Name == nil || c.Function.Arguments == nil {
				return fail(fmt.Sprintf("tool_calls[%d].function.name/arguments", j))
			}
		}
		if m.Role() == "tool" && len(v.Content) == 0 {
			return fail("content")
		}
		var blocks []map[string]json.RawMessage
		if json.Unmarshal(v.Content, &blocks) != nil {
			continue
		}
		for j, b := range blocks {
			switch string(b["type"]) {
			case `"tool_use"`:
				if b["name"] == nil || b["input"] == nil {
					return fail(fmt.Sprintf("content[%d].name/input", j))
				}
			case `"tool_result"`:
				if b["content"] == nil {
					return fail(fmt.Sprintf("content[%d].content", j))
				}
			}
		}
	}
	return nil
}

// uncheckedTrim is the count-based trim without the structure check.
func uncheckedTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	w, _ := window.New(c)
	return w.Apply(countPlan(c, []message.Unit{{Start: 0, End: len(msgs)}}), msgs), nil
}

// messagesCatalogue is the catalogue's variants of what a message is:
// roles, tool members and tool structure.
func messagesCatalogue() []Mutant {
	return []Mutant{
		variant("message-role-enum", "validates role against system/user/assistant/tool, refusing developer and every other role", strictMessages{check: knownRolesOnly}, "MSG-1"),
		variant("tool-call-schema", "validates tool members against the providers' full schemas, refusing a call without function or name, or a result without content", strictMessages{check: fullToolSchema}, "CLS-2"),
		variant("window-accepts-broken-tools", "trims a conversation with an orphaned tool result or an unanswered call instead of refusing it", trimMutant(uncheckedTrim), "UNIT-2"),
	}
}
