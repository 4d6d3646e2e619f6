package mutants

// Faulty variants that show properties of internal/properties able to
// fail where no scenario-driven mutant reaches: classification, pruning
// twice, purity, window.summarize, and the budget's pruning. They are
// listed by PropertyMutants; All() includes them once wired in.

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// PropertyMutants lists the variants the properties need to prove that
// they can fail.
func PropertyMutants() []Mutant {
	return []Mutant{
		{
			Name:    "classify-openai-only",
			Bug:     "knows only the OpenAI tool format: a tool_use block is assistant text, a user message of tool_result blocks a user prompt",
			Clauses: []string{"CLS-1", "UNIT-1"},
			Engine:  classifyMutant{classify: openAIOnlyClassify},
		},
		{
			Name:    "prune-single-pass",
			Bug:     "after removing a prompt forgets the one that replaced it, so a run of three keeps two and a second prune removes more",
			Clauses: []string{"PRUNE-1", "PRUNE-4"},
			Engine:  engine{prune: singlePassPrune},
		},
		{
			Name:    "prune-remembers-removed",
			Bug:     "keeps the removed positions in a field that is never reset, so every prune reports those of the earlier ones too",
			Clauses: []string{"MSG-3", "PRUNE-3"},
			Engine:  engine{prune: rememberingPrune()},
		},
		{
			Name:    "summarize-single-newline",
			Bug:     "separates the rendered messages of the summarization prompt with one newline instead of a blank line",
			Clauses: []string{"SUM-1", "SUM-9"},
			Engine:  summarizeMutant{summarize: singleNewlineSummarize},
		},
		{
			Name:    "budget-prunes-messages",
			Bug:     "prunes message by message, as 003's first draft did, splitting a tool call from its results",
			Clauses: []string{"UNIT-3", "PRN-1"},
			Engine:  budgetMutant{prune: messageByMessagePrune},
		},
		{
			Name:    "budget-ratio-inverted",
			Bug:     "reads target_ratio as the share of the limit to free, pruning below (1 − ratio) of the limit",
			Clauses: []string{"PRN-5", "PRN-1"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				return budget.Prune(msgs, limit, max(1, 100-percent))
			}},
		},
		{
			Name:    "budget-prune-stops-at-target",
			Bug:     "stops pruning once the count is at or below the target (<=), where the spec asks for strictly below",
			Clauses: []string{"PRN-1"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				// Below percent+ε: 100·c <= p·L is 100·c < p·L + 1.
				return pruneBelow(msgs, func(c int) bool { return 100*c <= percent*limit })
			}},
		},
	}
}

// classifyMutant is the reference with history.classify replaced.
type classifyMutant struct {
	server.Reference
	classify func([]message.Message) ([]message.Class, []message.Unit, error)
}

func (classifyMutant) Name() string { return "convspec-mutant" }

func (c classifyMutant) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	return c.classify(msgs)
}

// openAIOnlyClassify reads tool_calls and role "tool" only: Anthropic
// calls and results are plain messages, units of one.
func openAIOnlyClassify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	classes := make([]message.Class, len(msgs))
	for i, m := range msgs {
		classes[i] = m.Class()
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

func dropIndexes(msgs []message.Message, idx []int) []message.Message {
	out := []message.Message{}
	for i, m := range msgs {
		if !slices.Contains(idx, i) {
			out = append(out, m)
		}
	}
	return out
}

// summarizeMutant is the reference with window.summarize replaced.
type summarizeMutant struct {
	server.Reference
	summarize func(context.Context, []message.Message, window.Summarizer) (string, error)
}

func (summarizeMutant) Name() string { return "convspec-mutant" }

func (s summarizeMutant) Summarize(ctx context.Context, msgs []message.Message, sm window.Summarizer) (string, error) {
	return s.summarize(ctx, msgs, sm)
}

func singleNewlineSummarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = window.Render(m)
	}
	reply, err := s.Call(ctx, window.Instruction+"\n\n"+strings.Join(parts, "\n"), window.SummaryMaxTokens)
	if err != nil {
		return "", err
	}
	if reply = strings.TrimSpace(reply); reply == "" {
		return "", errors.New("the summarizer returned an empty summary")
	}
	return reply, nil
}

// messageByMessagePrune removes single messages after the first, oldest
// first, before the final one, blind to units.
func messageByMessagePrune(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, limit, percent)
	}
	total := budget.Count(msgs)
	var removed []int
	for i := 1; i < len(msgs)-1 && 100*total >= percent*limit; i++ {
		total -= budget.MessageTokens(msgs[i])
		removed = append(removed, i)
	}
	return dropIndexes(msgs, removed), removed, nil
}

// pruneBelow removes whole units as the reference does, stopping when
// below(count) holds.
func pruneBelow(msgs []message.Message, below func(int) bool) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, 1, 80)
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	total := budget.Count(msgs)
	var removed []int
	for _, u := range units[min(1, len(units)):max(1, len(units)-1)] {
		if below(total) {
			break
		}
		for i := u.Start; i < u.End; i++ {
			total -= budget.MessageTokens(msgs[i])
			removed = append(removed, i)
		}
	}
	return dropIndexes(msgs, removed), removed, nil
}
