package message

import (
	"fmt"
	"strings"
)

// Unit is a run of messages that must be kept or removed together
// (UNIT-1): a tool call with the results that answer its ids, or any other
// single message. It spans [Start, End) of its conversation.
type Unit struct {
	Start, End int
}

// Len is the number of messages in the unit.
func (u Unit) Len() int { return u.End - u.Start }

// Problem is a malformed tool structure (UNIT-2): the messages it spans
// cannot be sent to a provider as they are.
type Problem struct {
	// Code is stable: orphan_tool_result, unanswered_tool_call,
	// duplicate_tool_call_id or tool_call_answered_twice.
	Code string
	// Indexes are the positions of every message of the broken structure.
	Indexes []int
	// At is the position of the message the Reason is about.
	At     int
	Reason string
}

// Problem codes.
const (
	OrphanToolResult      = "orphan_tool_result"
	UnansweredToolCall    = "unanswered_tool_call"
	DuplicateToolCallID   = "duplicate_tool_call_id"
	ToolCallAnsweredTwice = "tool_call_answered_twice"
)

// Structure splits a conversation into units. Well-formed parts become
// units; every malformed structure becomes a Problem and no unit, so the
// units and the problems' indexes together cover every message once.
func Structure(msgs []Message) ([]Unit, []Problem) {
	var (
		units    []Unit
		problems []Problem
		declared = map[string]int{} // call id → index of its call
	)
	for i := 0; i < len(msgs); {
		m := msgs[i]
		switch m.Class() {
		case ToolResult:
			problems = append(problems, Problem{Code: OrphanToolResult, Indexes: []int{i}, At: i,
				Reason: fmt.Sprintf("tool result for %s does not follow the tool call that declares it", quoteIDs(m.toolIDs))})
			i++
		case ToolCall:
			end, p := callUnit(msgs, i, declared)
			if p != nil {
				problems = append(problems, *p)
			} else {
				units = append(units, Unit{Start: i, End: end})
			}
			i = end
		default:
			units = append(units, Unit{Start: i, End: i + 1})
			i++
		}
	}
	return units, problems
}

// callUnit reads the call at i and the results that follow it. It returns
// the end of the structure and a problem when it is not a complete unit.
func callUnit(msgs []Message, i int, declared map[string]int) (int, *Problem) {
	call := msgs[i]
	pending := map[string]bool{}
	var dup string
	for _, id := range call.toolIDs {
		if _, seen := declared[id]; seen || pending[id] {
			dup = id
		}
		pending[id] = true
		declared[id] = i
	}
	answered := map[string]bool{}
	end := i + 1
	var twice, stranger string
	for end < len(msgs) && len(pending) > 0 && msgs[end].Class() == ToolResult {
		for _, id := range msgs[end].toolIDs {
			switch {
			case answered[id]:
				twice = id
			case pending[id]:
				delete(pending, id)
				answered[id] = true
			default:
				stranger = id
			}
		}
		end++
		if stranger != "" {
			break
		}
	}
	indexes := make([]int, 0, end-i)
	for k := i; k < end; k++ {
		indexes = append(indexes, k)
	}
	switch {
	case dup != "":
		return end, &Problem{Code: DuplicateToolCallID, Indexes: indexes, At: i,
			Reason: fmt.Sprintf("tool call id %q is declared more than once", dup)}
	case twice != "":
		return end, &Problem{Code: ToolCallAnsweredTwice, Indexes: indexes, At: i,
			Reason: fmt.Sprintf("tool call %q is answered more than once", twice)}
	case stranger != "":
		return end, &Problem{Code: OrphanToolResult, Indexes: indexes, At: end - 1,
			Reason: fmt.Sprintf("tool result for %q follows the tool call at messages[%d], which does not declare it", stranger, i)}
	case len(pending) > 0:
		missing := make([]string, 0, len(pending))
		for _, id := range call.toolIDs {
			if pending[id] {
				missing = append(missing, id)
			}
		}
		return end, &Problem{Code: UnansweredToolCall, Indexes: indexes, At: i,
			Reason: fmt.Sprintf("tool call %s has no result right after it", quoteIDs(missing))}
	}
	return end, nil
}

func quoteIDs(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}

// Units splits a well-formed conversation into units, or reports the first
// malformed structure as an *Error (UNIT-2).
func Units(msgs []Message) ([]Unit, error) {
	units, problems := Structure(msgs)
	if len(problems) > 0 {
		p := problems[0]
		return nil, &Error{Index: p.At, Reason: p.Reason + " (" + p.Code + ")"}
	}
	return units, nil
}
