package check

import (
	"fmt"
	"strings"

	"github.com/convspec/convspec/reference/message"
)

// Finding is one thing a provider would refuse in a request, or one
// invariant a trim broke between two requests: the clause, the message it
// is about and how to fix it.
type Finding struct {
	Clause string
	// Index is the message of the request the finding is about; -1 for
	// the request as a whole.
	Index  int
	Detail string
	Fix    string
}

// String is the finding on one line: "messages[3]: what (ACC-1) — fix: how".
func (f Finding) String() string {
	if f.Clause == "" { // a record that could not be read
		return f.Detail
	}
	at := "request"
	if f.Index >= 0 {
		at = fmt.Sprintf("messages[%d]", f.Index)
	}
	return fmt.Sprintf("%s: %s (%s) — fix: %s", at, f.Detail, f.Clause, f.Fix)
}

// acceptance lists what the request's provider would refuse (ACC-1 –
// ACC-9), message by message, in the order of the messages.
func acceptance(r *request) []Finding {
	var out []Finding
	add := func(clause string, i int, fix, format string, args ...any) {
		out = append(out, Finding{Clause: clause, Index: i, Detail: fmt.Sprintf(format, args...), Fix: fix})
	}
	if len(r.messages) == 0 {
		add("ACC-9", -1, "send at least one message: a trim to nothing cannot be sent", `"messages" is empty`)
		return out
	}
	if r.format == formatMixed {
		add("ACC-8", r.mixedAt, "send one provider's format: convert this message, or the others, to the format of the endpoint",
			"the request mixes OpenAI and Anthropic tool members; either provider refuses the other's")
	}
	_, problems := message.Structure(r.messages)
	for _, p := range problems {
		switch p.Code {
		case message.OrphanToolResult:
			add("ACC-1", p.At, "evict this result together with the call it answers, or keep that call right before it",
				"%s", p.Reason)
		case message.UnansweredToolCall:
			add("ACC-2", p.At, "keep every result of this call right after it, or evict the call with its results",
				"%s", p.Reason)
		default:
			add("ACC-3", p.At, "give every tool call a unique id and answer it once",
				"%s", p.Reason)
		}
	}
	if r.format != FormatAnthropic {
		return out
	}
	if role := r.messages[0].Role(); role != "user" {
		add("ACC-5", 0, "start with a user message: evict this message with the unit it belongs to, or keep the user prompt before it",
			"the first message has role %q; Anthropic wants \"user\"", role)
	}
	for i, m := range r.messages {
		switch {
		case m.Role() == "system":
			add("ACC-6", i, `move the system prompt to the request's top-level "system"`,
				"a message with role \"system\"; Anthropic takes only \"user\" and \"assistant\"")
		case m.Class() == message.ToolCall && i+2 < len(r.messages) && spreadResults(r.messages, i):
			add("ACC-2", i, "put the results of every tool_use of this message in the one user message that follows it",
				"the results of tool call %s are spread over several messages; Anthropic wants them all in the next one", quoteIDs(m.ToolIDs()))
		case m.Class() == message.ToolResult:
			if k := blockAfterOther(m); k >= 0 {
				add("ACC-4", i, "put the tool_result blocks first in content, the text after them",
					"content[%d] is a tool_result after a block of another type", k)
			}
		}
	}
	return out
}

// spreadResults says whether the call at i is answered by more than the
// one message that follows it: a unit that UNIT-1 accepts and Anthropic
// refuses (ACC-2).
func spreadResults(msgs []message.Message, i int) bool {
	pending := map[string]bool{}
	for _, id := range msgs[i].ToolIDs() {
		pending[id] = true
	}
	for _, id := range msgs[i+1].ToolIDs() {
		delete(pending, id)
	}
	if len(pending) == 0 || msgs[i+1].Class() != message.ToolResult {
		return false
	}
	for _, id := range msgs[i+2].ToolIDs() {
		if msgs[i+2].Class() == message.ToolResult && pending[id] {
			return true
		}
	}
	return false
}

// blockAfterOther is the index of the first tool_result block that comes
// after a block of another type, or -1 (ACC-4).
func blockAfterOther(m message.Message) int {
	other := false
	for k, b := range blocks(m) {
		switch {
		case b.typ == "tool_result" && other:
			return k
		case b.typ != "tool_result":
			other = true
		}
	}
	return -1
}

func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
