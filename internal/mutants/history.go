package mutants

// Faulty variants of classification, pruning and building (CLS-*,
// UNIT-*, PRN-*, BLD-*).

import (
	"encoding/json"
	"slices"
	"sort"
	"sync"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
)

// startingAt builds like the reference but starts the window where start
// says.
func startingAt(start func(rest []message.Message, max int) int) replaced {
	return replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
		return buildWith(msgs, max, start)
	}}
}

// buildWith is the reference's build with another choice of where the
// kept conversation starts: the reference repairs and prunes (a build
// without a limit), the variant windows.
func buildWith(msgs []message.Message, max int, start func(rest []message.Message, max int) int) (history.Result, error) {
	res, err := history.Build(msgs, 0)
	if err != nil || max <= 0 {
		return history.Build(msgs, max)
	}
	sys := 0
	for sys < len(res.Messages) && res.Messages[sys].Class() == message.System {
		sys++
	}
	rest := res.Messages[sys:]
	res.Messages = append(slices.Clone(res.Messages[:sys]), rest[start(rest, max):]...)
	return res, nil
}

// unitCountStart applies BUILD-3 counting units instead of messages.
func unitCountStart(rest []message.Message, max int) int {
	units, _ := message.Structure(rest)
	if max == 0 || len(units) <= max {
		return 0
	}
	for j, u := range units {
		if len(units)-j <= max && rest[u.Start].Class() == message.UserPrompt {
			return u.Start
		}
	}
	return units[len(units)-max].Start
}

// fitOnlyStart starts where the reference does, except that when not
// even the last unit fits it keeps nothing (BUILD-4 keeps that unit whole).
func fitOnlyStart(rest []message.Message, max int) int {
	start := len(rest) - len(history.Window(rest, max))
	if max > 0 && len(rest)-start > max {
		return len(rest)
	}
	return start
}

func isPrompt(m message.Message) bool { return m.Class() == message.UserPrompt }

// pruneWith is pruning with a faulty notion of prompt or of what ends a run.
func pruneWith(prompt, ends func(message.Message) bool, keepFirst bool) func([]message.Message) ([]message.Message, []int) {
	return func(msgs []message.Message) ([]message.Message, []int) {
		var removed []int
		var run []int
		flush := func() {
			if len(run) > 1 {
				if keepFirst {
					removed = append(removed, run[1:]...)
				} else {
					removed = append(removed, run[:len(run)-1]...)
				}
			}
			run = nil
		}
		for i, m := range msgs {
			switch {
			case prompt(m):
				run = append(run, i)
			case ends(m):
				flush()
			}
		}
		flush()
		sort.Ints(removed)
		return without(msgs, removed), removed
	}
}

func pruneDroppingBetween(msgs []message.Message) ([]message.Message, []int) {
	_, removed := history.Prune(msgs)
	drop := append([]int(nil), removed...)
	for _, r := range removed {
		for j := r + 1; j < len(msgs) && msgs[j].Class() != message.UserPrompt && !msgs[j].IsAssistant(); j++ {
			drop = append(drop, j)
		}
	}
	sort.Ints(drop)
	return without(msgs, drop), removed
}

func without(msgs []message.Message, drop []int) []message.Message {
	gone := map[int]bool{}
	for _, i := range drop {
		gone[i] = true
	}
	out := []message.Message{}
	for i, m := range msgs {
		if !gone[i] {
			out = append(out, m)
		}
	}
	return out
}

// anyUnitStart starts the window at the earliest unit from which the rest
// fits, prompt or not (BUILD-3 asks for a user prompt).
func anyUnitStart(rest []message.Message, max int) int {
	if max == 0 || len(rest) <= max {
		return 0
	}
	units, _ := message.Structure(rest)
	for _, u := range units {
		if len(rest)-u.Start <= max {
			return u.Start
		}
	}
	return units[len(units)-1].Start
}

// openAIOnlyClassify reads tool_calls and role "tool" only: Anthropic
// calls and results are plain messages, units of one.
func openAIOnlyClassify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	classes, units, err := server.Reference{}.Classify(msgs)
	if err != nil {
		return nil, nil, err
	}
	for i, m := range msgs {
		var members map[string]json.RawMessage
		_ = json.Unmarshal(m.Raw(), &members)
		calls, hasCalls := members["tool_calls"]
		switch {
		case classes[i] == message.ToolCall && (!hasCalls || string(calls) == "null" || string(calls) == "[]"):
			classes[i] = message.AssistantText
		case classes[i] == message.ToolResult && m.Role() == "user":
			classes[i] = message.UserPrompt
		}
	}
	var out []message.Unit
	for _, u := range units {
		if classes[u.Start] == message.ToolCall {
			// Results it no longer recognizes leave the unit.
			end := u.Start + 1
			for end < u.End && classes[end] == message.ToolResult {
				end++
			}
			out = append(out, message.Unit{Start: u.Start, End: end})
			for i := end; i < u.End; i++ {
				out = append(out, message.Unit{Start: i, End: i + 1})
			}
			continue
		}
		if u.Len() == 1 {
			out = append(out, u)
			continue
		}
		for i := u.Start; i < u.End; i++ {
			out = append(out, message.Unit{Start: i, End: i + 1})
		}
	}
	return classes, out, nil
}

// singlePassPrune removes the previous prompt of a run when the next one
// comes, but then forgets the new one.
func singlePassPrune(msgs []message.Message) ([]message.Message, []int) {
	var removed []int
	last := -1
	for i, m := range msgs {
		switch {
		case m.Class() == message.UserPrompt && last >= 0:
			removed = append(removed, last)
			last = -1 // the bug: should be i
		case m.Class() == message.UserPrompt:
			last = i
		case m.IsAssistant():
			last = -1
		}
	}
	return dropIndexes(msgs, removed), removed
}

// rememberingPrune appends each prune's removed positions to a list it
// never clears.
func rememberingPrune() func([]message.Message) ([]message.Message, []int) {
	var (
		mu  sync.Mutex
		all []int
	)
	return func(msgs []message.Message) ([]message.Message, []int) {
		mu.Lock()
		defer mu.Unlock()
		kept, removed := server.Reference{}.Prune(msgs)
		all = append(all, removed...)
		return kept, slices.Clone(all)
	}
}

// historyCatalogue is the catalogue's variants of capability history:
// classification, pruning and building.
func historyCatalogue() []Mutant {
	return []Mutant{
		variant("build-counts-units", "measures max_messages in units, a tool call and its results counting as one, so the output holds more messages than the bound", startingAt(unitCountStart), "BUILD-4"),
		{Name: "build-dangling-call", Clauses: []string{"BUILD-2"},
			Bug: "does not repair stored history, so an unanswered tool call or orphaned result is sent on",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				return history.Result{Messages: history.Window(pruned, max)}, nil
			}}},
		variant("build-drops-oversized-unit", "keeps only what fits, so when the last unit alone is longer than max_messages only the system prompt is sent", startingAt(fitOnlyStart), "BUILD-4"),
		variant("build-ignores-exchanges", "starts the window at any message boundary instead of at a user prompt, so the model sees a reply without its question", startingAt(anyUnitStart), "BUILD-3"),
		{Name: "build-prunes-after-window", Clauses: []string{"BUILD-1"},
			Bug: "applies the window before pruning, wasting the budget on orphaned prompts",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				sane, warnings := history.Sanitize(msgs)
				pruned, _ := history.Prune(history.Window(sane, max))
				return history.Result{Messages: pruned, Warnings: warnings}, nil
			}}},
		{Name: "build-prunes-before-repair", Clauses: []string{"BUILD-5", "BUILD-1"},
			Bug: "prunes before repairing, so dropping a broken tool call leaves two user prompts adjacent",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				sane, warnings := history.Sanitize(pruned)
				return history.Result{Messages: history.Window(sane, max), Warnings: warnings}, nil
			}}},
		variant("classify-openai-only", "knows only the OpenAI tool format: a tool_use block is assistant text, a user message of tool_result blocks a user prompt", replaced{classify: openAIOnlyClassify}, "CLS-1", "UNIT-1"),
		variant("prune-drops-between", "drops everything between the members of a run (system messages, tool results), not only the orphaned prompts", replaced{prune: pruneDroppingBetween}, "PRUNE-3"),
		variant("prune-keeps-first", "keeps the first user prompt of a run instead of the last", replaced{prune: pruneWith(isPrompt, message.Message.IsAssistant, true)}, "PRUNE-1"),
		variant("prune-remembers-removed", "keeps the removed positions in a field that is never reset, so every prune reports those of the earlier ones too", replaced{prune: rememberingPrune()}, "MSG-3", "PRUNE-3"),
		variant("prune-single-pass", "after removing a prompt forgets the one that replaced it, so a run of three keeps two and a second prune removes more", replaced{prune: singlePassPrune}, "PRUNE-1", "PRUNE-4"),
		variant("prune-tool-result-as-prompt", "treats an Anthropic user message of tool_result blocks as a user prompt, pruning it and orphaning its call", replaced{prune: pruneWith(func(m message.Message) bool { return m.Role() == "user" }, message.Message.IsAssistant, false)}, "CLS-1", "PRUNE-2"),
		{Name: "prune-tool-result-breaks-run", Clauses: []string{"PRUNE-2"},
			Bug: "lets a tool result end a run of user prompts, so orphaned prompts before it survive",
			Engine: replaced{prune: pruneWith(isPrompt, func(m message.Message) bool {
				return m.IsAssistant() || m.Class() == message.ToolResult
			}, false)}},
	}
}
