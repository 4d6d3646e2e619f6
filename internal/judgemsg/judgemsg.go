// Package judgemsg is the judge's own reader of messages: what a message
// is (MSG-1), its class and tool ids (CLS-1, CLS-2), and how a
// conversation splits into units or fails to (UNIT-1, UNIT-2), read from
// the spec's clauses and written apart from the reference's reader
// (reference/message), so that a mistake in one is not the other's too
// (D-64). The judge — the scenarios' steps and the trimmer checks of
// internal/trimout — reads every message with it; only the differential
// checks, which compare an implementation with the reference, may import
// the reference. It splits JSON with internal/jsonscan, an instrument the
// reference's reader uses too, and is held to encoding/json by an oracle
// of its own (FuzzParseAsOracle), so that a mistake of the instrument's is
// found rather than shared (D-88).
package judgemsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/convspec/convspec/internal/jsonscan"
)

// Class is what a message is in a conversation (CLS-1).
type Class string

// The classes of CLS-1.
const (
	System        Class = "system"
	UserPrompt    Class = "user_prompt"
	AssistantText Class = "assistant_text"
	ToolCall      Class = "tool_call"
	ToolResult    Class = "tool_result"
	Other         Class = "other"
)

// Message is one message as the judge reads it: its bytes as given, and
// what CLS-1 makes of them.
type Message struct {
	raw     json.RawMessage
	role    string
	content json.RawMessage // nil when absent
	class   Class
	ids     []string // declared by a tool call, answered by a tool result
}

// Raw is the message as given.
func (m Message) Raw() json.RawMessage { return m.raw }

// Role is its role.
func (m Message) Role() string { return m.role }

// Content is the raw JSON of its content member; nil when absent.
func (m Message) Content() json.RawMessage { return m.content }

// Class is its class (CLS-1).
func (m Message) Class() Class {
	if m.class == "" {
		return Other
	}
	return m.class
}

// ToolIDs are the ids a tool call declares or a tool result answers, in
// message order.
func (m Message) ToolIDs() []string { return append([]string(nil), m.ids...) }

// ErrInvalid is wrapped by every error of Parse: the value is not a
// message (MSG-1, CLS-2).
var ErrInvalid = errors.New("not a message")

// Parse reads one message: a JSON object with a non-empty string role,
// every string well-formed Unicode (MSG-1), its tool members readable
// (CLS-2).
//
// The text is checked once, by jsonscan.Valid (json.Valid's verdict);
// its members, and those of its tool calls and content blocks, are then
// read with internal/jsonscan's scanners, which take valid JSON and copy nothing, as encoding/json
// would read them into maps: of a name written twice the last, names
// matched exactly after unescaping (FuzzParseAsOracle). The harness reads
// every message it sends and receives; decoding each into maps was most
// of what reading cost it.
func Parse(raw json.RawMessage) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	text := bytes.TrimSpace(raw)
	if !jsonscan.Valid(text) {
		return fail("not valid JSON")
	}
	if text[0] != '{' {
		return fail("not a JSON object")
	}
	// A valid text in UTF-8 without an unpaired surrogate escape: each
	// name jsonscan unescapes is the key encoding/json would give it.
	if err := wellFormed(text); err != nil {
		return fail("%v", err)
	}
	members, _ := jsonscan.SplitObject(text) // an object: checked above
	r, _ := members.Get("role")
	role, ok := jsonscan.String(r)
	if !ok || role == "" {
		return fail(`"role" must be a non-empty string`)
	}
	m := Message{raw: text, role: role}
	m.content, _ = members.Get("content")
	class, ids, err := classOf(role, members)
	if err != nil {
		return fail("%v", err)
	}
	m.class, m.ids = class, ids
	return m, nil
}

// FromRaw reads a list of messages; the error names the first that is not
// one.
func FromRaw(raws []json.RawMessage) ([]Message, error) {
	out := make([]Message, len(raws))
	for i, r := range raws {
		m, err := Parse(r)
		if err != nil {
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		out[i] = m
	}
	return out, nil
}

// Read is the elements of raws that are messages, in order; what is not a
// message is left out.
func Read(raws []json.RawMessage) []Message {
	var out []Message
	for _, r := range raws {
		if m, err := Parse(r); err == nil {
			out = append(out, m)
		}
	}
	return out
}

// classOf is CLS-1's table, and CLS-2's refusals of tool members that
// cannot be read.
func classOf(role string, members jsonscan.Object) (Class, []string, error) {
	switch role {
	case "system", "developer":
		return System, nil, nil
	case "tool":
		id, err := idOf(members, "tool_call_id")
		if err != nil {
			return "", nil, fmt.Errorf("tool message: %w", err)
		}
		return ToolResult, []string{id}, nil
	case "user":
		content, _ := members.Get("content")
		ids, err := blockIDs(content, "tool_result", "tool_use_id")
		switch {
		case err != nil:
			return "", nil, err
		case len(ids) > 0:
			return ToolResult, ids, nil
		}
		return UserPrompt, nil, nil
	case "assistant":
		ids, err := callIDs(members)
		if err != nil {
			return "", nil, err
		}
		content, _ := members.Get("content")
		uses, err := blockIDs(content, "tool_use", "id")
		if err != nil {
			return "", nil, err
		}
		if ids = append(ids, uses...); len(ids) > 0 {
			return ToolCall, ids, nil
		}
		return AssistantText, nil, nil
	}
	return Other, nil, nil
}

var errCallsShape = errors.New(`"tool_calls" must be an array of objects`)

// callIDs are the ids of an assistant message's tool_calls member, absent
// or null when it has none. Every element must be an object (null is
// not) before any id is read, so that a list with a bad element is
// refused for that whatever its ids.
func callIDs(members jsonscan.Object) ([]string, error) {
	calls, ok := members.Get("tool_calls")
	if !ok || isNull(calls) {
		return nil, nil
	}
	elems, ok := jsonscan.SplitArray(calls)
	if !ok {
		return nil, errCallsShape
	}
	objects := make([]jsonscan.Object, len(elems))
	for i, e := range elems {
		if e[0] != '{' {
			return nil, errCallsShape
		}
		objects[i], _ = jsonscan.SplitObject(e)
	}
	ids := make([]string, 0, len(objects))
	for i, call := range objects {
		id, err := idOf(call, "id")
		if err != nil {
			return nil, fmt.Errorf("tool_calls[%d]: %w", i, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// blockIDs are the ids of the content blocks of one type, when content is
// an array; an element that is not an object is not a block, nor is one
// whose type is not a string.
func blockIDs(content []byte, blockType, idName string) ([]string, error) {
	if len(content) == 0 || content[0] != '[' {
		return nil, nil
	}
	blocks, _ := jsonscan.SplitArray(content)
	var ids []string
	for i, b := range blocks {
		if b[0] != '{' {
			continue
		}
		block, _ := jsonscan.SplitObject(b)
		typ, _ := block.Get("type")
		if t, ok := jsonscan.String(typ); !ok || t != blockType {
			continue
		}
		id, err := idOf(block, idName)
		if err != nil {
			return nil, fmt.Errorf("content[%d] (a %s block): %w", i, blockType, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// idOf is a member that must be a non-empty string.
func idOf(members jsonscan.Object, name string) (string, error) {
	raw, ok := members.Get(name)
	if !ok || isNull(raw) {
		return "", fmt.Errorf("%q is missing", name)
	}
	id, ok := jsonscan.String(raw)
	if !ok || id == "" {
		return "", fmt.Errorf("%q must be a non-empty string", name)
	}
	return id, nil
}

// isNull reports whether a member's value, as jsonscan slices it (no
// space around it), is null.
func isNull(raw []byte) bool { return string(raw) == "null" }

// wellFormed refuses what encoding/json would silently replace with
// U+FFFD (MSG-1, D-9): bytes that are not UTF-8, and an escape of a UTF-16
// surrogate that is not half of a pair. In valid JSON a backslash occurs
// only in a string, as the start of an escape.
func wellFormed(text []byte) error {
	if !utf8.Valid(text) {
		return errors.New("not UTF-8")
	}
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' {
			continue
		}
		if text[i+1] != 'u' {
			i++ // \" \\ \/ \b \f \n \r \t
			continue
		}
		r := hex4(text[i+2 : i+6])
		switch {
		case utf16.IsSurrogate(r) && r < 0xdc00:
			// A high surrogate must be followed by an escaped low one.
			if i+12 > len(text) || text[i+6] != '\\' || text[i+7] != 'u' {
				return fmt.Errorf("unpaired surrogate %s", text[i:i+6])
			}
			if low := hex4(text[i+8 : i+12]); low < 0xdc00 || low > 0xdfff {
				return fmt.Errorf("unpaired surrogate %s", text[i:i+6])
			}
			i += 11
		case utf16.IsSurrogate(r):
			return fmt.Errorf("unpaired surrogate %s", text[i:i+6])
		default:
			i += 5
		}
	}
	return nil
}

// hex4 is the value of four hex digits (json.Valid checked them).
func hex4(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		default:
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}

// Unit is a run of messages kept or removed together (UNIT-1), spanning
// [Start, End) of its conversation.
type Unit struct{ Start, End int }

// Problem is a malformed tool structure (UNIT-2).
type Problem struct {
	// Code is UNIT-2's: orphan_tool_result, unanswered_tool_call,
	// duplicate_tool_call_id or tool_call_answered_twice.
	Code string
	// At is the position of the message the Reason is about.
	At     int
	Reason string
}

// Structure splits a conversation into its units (UNIT-1) and its
// malformed structures (UNIT-2), each message in one or the other.
func Structure(msgs []Message) ([]Unit, []Problem) {
	var units []Unit
	var problems []Problem
	declared := map[string]bool{} // every call id declared so far
	for i := 0; i < len(msgs); {
		switch msgs[i].Class() {
		case ToolResult:
			problems = append(problems, Problem{Code: "orphan_tool_result", At: i,
				Reason: fmt.Sprintf("tool result for %s does not follow the tool call that declares it", quoted(msgs[i].ids))})
			i++
		case ToolCall:
			end, p := call(msgs, i, declared)
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

// call reads the tool call at i and the results right after it, up to
// the one that answers its last id: the end of what it spans, and what is
// wrong with it.
func call(msgs []Message, i int, declared map[string]bool) (int, *Problem) {
	waiting := map[string]bool{}
	var twiceDeclared string
	for _, id := range msgs[i].ids {
		if declared[id] || waiting[id] {
			twiceDeclared = id
		}
		declared[id], waiting[id] = true, true
	}
	answered := map[string]bool{}
	var twiceAnswered, foreign string
	end := i + 1
	for ; end < len(msgs) && len(waiting) > 0 && foreign == "" && msgs[end].Class() == ToolResult; end++ {
		for _, id := range msgs[end].ids {
			switch {
			case answered[id]:
				twiceAnswered = id
			case waiting[id]:
				delete(waiting, id)
				answered[id] = true
			default:
				foreign = id
			}
		}
	}
	switch {
	case twiceDeclared != "":
		return end, &Problem{Code: "duplicate_tool_call_id", At: i, Reason: fmt.Sprintf("tool call id %q is declared more than once", twiceDeclared)}
	case twiceAnswered != "":
		return end, &Problem{Code: "tool_call_answered_twice", At: i, Reason: fmt.Sprintf("tool call %q is answered more than once", twiceAnswered)}
	case foreign != "":
		return end, &Problem{Code: "orphan_tool_result", At: end - 1,
			Reason: fmt.Sprintf("tool result for %q follows the tool call at messages[%d], which does not declare it", foreign, i)}
	case len(waiting) > 0:
		var missing []string
		for _, id := range msgs[i].ids {
			if waiting[id] {
				missing = append(missing, id)
			}
		}
		return end, &Problem{Code: "unanswered_tool_call", At: i, Reason: fmt.Sprintf("tool call %s has no result right after it", quoted(missing))}
	}
	return end, nil
}

// Units is the units of a well-formed conversation, or its first
// malformed structure as an error.
func Units(msgs []Message) ([]Unit, error) {
	units, problems := Structure(msgs)
	if len(problems) > 0 {
		p := problems[0]
		return nil, fmt.Errorf("messages[%d]: %s (%s)", p.At, p.Reason, p.Code)
	}
	return units, nil
}

func quoted(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = fmt.Sprintf("%q", id)
	}
	return strings.Join(q, ", ")
}
