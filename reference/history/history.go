// Package history prepares stored chat history for a model call (spec
// PRUNE-*, BUILD-*): it repairs broken tool-call structures, prunes user
// prompts that never got a reply, and keeps the most recent complete
// exchanges within a message budget. Every function is pure.
package history

import (
	"fmt"
	"slices"

	"github.com/convspec/convspec/reference/message"
)

// Prune removes orphaned user prompts (PRUNE-1–PRUNE-4): of every run of
// user prompts with no assistant message between them, only the last is
// kept. Tool results, system messages and other roles do not end a run;
// only assistant messages do. Nothing but user prompts is ever removed.
// removed lists the input positions of what was pruned.
func Prune(msgs []message.Message) (kept []message.Message, removed []int) {
	kept = make([]message.Message, 0, len(msgs))
	last := -1 // index of the latest user prompt of the current run
	for i, m := range msgs {
		switch {
		case m.Class() == message.UserPrompt:
			if last >= 0 {
				removed = append(removed, last)
			}
			last = i
		case m.IsAssistant():
			last = -1
		}
	}
	gone := make(map[int]bool, len(removed))
	for _, i := range removed {
		gone[i] = true
	}
	for i, m := range msgs {
		if !gone[i] {
			kept = append(kept, m)
		}
	}
	return kept, removed
}

// Warning is a repair made by Sanitize or Build. Code is stable.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Indexes are the input positions of the messages it concerns.
	Indexes []int `json:"indexes"`
}

// Sanitize repairs malformed tool structures (BUILD-2): every message of a
// structure that message.Structure reports as a problem is dropped, so
// that what remains is well-formed, with one warning per problem.
func Sanitize(msgs []message.Message) ([]message.Message, []Warning) {
	_, problems := message.Structure(msgs)
	if len(problems) == 0 {
		return slices.Clone(msgs), nil
	}
	drop := map[int]bool{}
	warnings := make([]Warning, 0, len(problems))
	for _, p := range problems {
		for _, i := range p.Indexes {
			drop[i] = true
		}
		warnings = append(warnings, Warning{Code: p.Code, Indexes: p.Indexes,
			Message: fmt.Sprintf("messages[%d]: %s; dropped messages %v", p.At, p.Reason, p.Indexes)})
	}
	kept := make([]message.Message, 0, len(msgs)-len(drop))
	for i, m := range msgs {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	return kept, warnings
}

// Result is what Build returns.
type Result struct {
	Messages []message.Message
	Warnings []Warning
}

// Build is buildLLMMessages (BUILD-1–BUILD-5): repair, then prune, then keep
// the leading system messages and the most recent conversation of at most
// maxMessages messages, starting at a user prompt where it can and never
// inside a unit. maxMessages 0 means no limit; a negative one is an error.
func Build(msgs []message.Message, maxMessages int) (Result, error) {
	if maxMessages < 0 {
		return Result{}, fmt.Errorf("max_messages must be a non-negative integer, got %d", maxMessages)
	}
	sane, warnings := Sanitize(msgs)
	pruned, _ := Prune(sane)
	return Result{Messages: Window(pruned, maxMessages), Warnings: warnings}, nil
}

// Window keeps the leading system messages of a well-formed, pruned
// history and the most recent conversation after them within maxMessages
// (BUILD-3, BUILD-4); 0 means no limit.
func Window(msgs []message.Message, maxMessages int) []message.Message {
	sys := 0
	for sys < len(msgs) && msgs[sys].Class() == message.System {
		sys++
	}
	rest := msgs[sys:]
	start := windowStart(rest, maxMessages)
	return append(slices.Clone(msgs[:sys]), rest[start:]...)
}

// windowStart picks where the kept conversation begins (BUILD-3).
func windowStart(rest []message.Message, max int) int {
	n := len(rest)
	if max == 0 || n <= max {
		return 0
	}
	units, _ := message.Structure(rest) // well-formed after Sanitize
	// The earliest user prompt from which the rest fits: a complete exchange.
	for _, u := range units {
		if n-u.Start <= max && rest[u.Start].Class() == message.UserPrompt {
			return u.Start
		}
	}
	// No exchange fits whole: the earliest unit from which the rest fits.
	for _, u := range units {
		if n-u.Start <= max {
			return u.Start
		}
	}
	// Not even the last unit fits: it is kept whole all the same (BUILD-4).
	return units[len(units)-1].Start
}
