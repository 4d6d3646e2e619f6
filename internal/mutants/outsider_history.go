package mutants

// Outsider variants of the capability history (CLS-*, UNIT-*, PRUNE-*,
// BUILD-*).

import (
	"encoding/json"
	"slices"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
)

func outsiderHistoryMutants() []Mutant {
	return []Mutant{
		{
			// history.prune [user "a", system "s", user "b", assistant "c"]:
			// only assistant messages end a run, so "a" is removed; the
			// variant lets the system message end it and keeps both.
			Name: "outsider-history-prune-any-role-ends-run", Bug: "lets any message that is not a user prompt end a run of user prompts, not only assistant messages",
			Clauses: []string{"PRUNE-1"},
			Engine: replaced{prune: outsiderPrune, build: func(msgs []message.Message, max int) (history.Result, error) {
				if max < 0 {
					return history.Build(msgs, max)
				}
				sane, ws := history.Sanitize(msgs)
				pruned, _ := outsiderPrune(sane)
				return history.Result{Messages: history.Window(pruned, max), Warnings: ws}, nil
			}},
		},
		{
			// history.build [system, system, user, assistant, user,
			// assistant], max 2: both leading system messages are kept
			// outside the count; the variant counts the second one.
			Name: "outsider-history-build-one-system-message", Bug: "keeps only the first message aside as the system prompt; later leading system messages count against max_messages",
			Clauses: []string{"BUILD-3"},
			Engine: replaced{build: func(msgs []message.Message, limit int) (history.Result, error) {
				res, err := history.Build(msgs, limit)
				if err != nil || limit == 0 || len(res.Messages) < 2 || res.Messages[0].Class() != message.System || res.Messages[1].Class() != message.System {
					return res, err
				}
				sane, _ := history.Sanitize(msgs)
				pruned, _ := history.Prune(sane)
				sys := 0
				for sys < len(pruned) && pruned[sys].Class() == message.System {
					sys++
				}
				// the system messages after the first take slots of max
				res.Messages = history.Window(pruned, max(1, limit-(sys-1)))
				return res, nil
			}},
		},
		{
			// history.classify [{"role":"assistant","content":"hi","tool_calls":[]}]:
			// no tool call id, so assistant_text; the variant says tool_call.
			Name: "outsider-history-empty-tool-calls-is-call", Bug: "classifies an assistant message as a tool call when it has a tool_calls member, even an empty array",
			Clauses: []string{"CLS-1"},
			Engine: replaced{classify: func(msgs []message.Message) ([]message.Class, []message.Unit, error) {
				classes, units, err := server.Reference{}.Classify(msgs)
				if err != nil {
					return classes, units, err
				}
				for i, m := range msgs {
					var members map[string]json.RawMessage
					if m.Class() == message.AssistantText && json.Unmarshal(m.Raw(), &members) == nil {
						if c, ok := members["tool_calls"]; ok && string(c) != "null" {
							classes[i] = message.ToolCall
						}
					}
				}
				return classes, units, nil
			}},
		},
		{
			// history.classify [{"role":"developer","content":"be brief"}]:
			// developer is a system message; the variant says other.
			Name: "outsider-history-developer-is-other", Bug: "knows only the role system as a system message, not developer",
			Clauses: []string{"CLS-1"},
			Engine: replaced{classify: func(msgs []message.Message) ([]message.Class, []message.Unit, error) {
				classes, units, err := server.Reference{}.Classify(msgs)
				for i, m := range msgs {
					if err == nil && m.Role() == "developer" {
						classes[i] = message.Other
					}
				}
				return classes, units, err
			}},
		},
		{
			// history.build [user, assistant, user, assistant], max 3... with
			// [user a, assistant b, user c, assistant d, user e], max 3: the
			// rest from "c" (3 messages) fits exactly and starts at a user
			// prompt; the variant wants it strictly shorter and starts at "e".
			Name: "outsider-history-window-strict-fit", Bug: "looks for the earliest user prompt from which the rest is strictly shorter than max_messages",
			Clauses: []string{"BUILD-3"},
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				res, err := history.Build(msgs, max)
				if err != nil || max == 0 {
					return res, err
				}
				sys := 0
				for sys < len(res.Messages) && res.Messages[sys].Class() == message.System {
					sys++
				}
				rest := res.Messages[sys:]
				if len(rest) == max && len(rest) > 0 && rest[0].Class() == message.UserPrompt {
					// the exact fit is refused: the next user prompt, if any
					for i := 1; i < len(rest); i++ {
						if rest[i].Class() == message.UserPrompt {
							res.Messages = append(slices.Clone(res.Messages[:sys]), rest[i:]...)
							break
						}
					}
				}
				return res, nil
			}},
		},
	}
}

// outsiderPrune is history.Prune where any non-user-prompt ends a run.
func outsiderPrune(msgs []message.Message) ([]message.Message, []int) {
	kept := make([]message.Message, 0, len(msgs))
	var removed []int
	last := -1
	for i, m := range msgs {
		if m.Class() == message.UserPrompt {
			if last >= 0 {
				removed = append(removed, last)
			}
			last = i
		} else if m.Class() != message.ToolResult {
			last = -1
		}
	}
	for i, m := range msgs {
		if !slices.Contains(removed, i) {
			kept = append(kept, m)
		}
	}
	return kept, removed
}
