// Package message is the provider-agnostic message model of convspec.
//
// A message is a JSON object with a non-empty string "role" and an optional
// "content" of any JSON type (spec MSG-1). The message is kept exactly as it
// was received, unknown members included, so that an operation never rewrites
// a message it keeps (MSG-2): marshalling a Message yields its original bytes.
package message

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/internal/ecmajson"
	"github.com/convspec/convspec/internal/jsonscan"
)

// ErrInvalid is wrapped by every error about a malformed message, so callers
// can branch with errors.Is(err, message.ErrInvalid).
var ErrInvalid = errors.New("invalid message")

// Error describes why a message was rejected and, in a list, where it stood.
type Error struct {
	// Index is the message's position in its list, or -1 for a lone message.
	Index  int
	Reason string
}

func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("messages[%d]: %s", e.Index, e.Reason)
	}
	return "message: " + e.Reason
}

func (e *Error) Unwrap() error { return ErrInvalid }

// Message is one conversation message, immutable once parsed.
type Message struct {
	raw     json.RawMessage
	role    string
	content json.RawMessage // nil when the member is absent
	class   Class
	toolIDs []string // declared by a tool call, answered by a tool result
}

// Parse validates one message and keeps its bytes as given.
func Parse(data []byte) (Message, error) {
	return parse(data, -1, false)
}

// ParseList parses a JSON array of messages; errors name the failing index.
func ParseList(data []byte) ([]Message, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, &Error{Index: -1, Reason: "messages must be a JSON array of objects: " + err.Error()}
	}
	return FromRaw(raws)
}

// FromRaw parses already-split messages; errors name the failing index.
func FromRaw(raws []json.RawMessage) ([]Message, error) {
	return fromRaw(raws, false)
}

// FromValid is FromRaw for messages that are valid JSON, as the elements
// of a text json.Valid accepted are: a server that checked a request line
// whole does not have each message checked again. Every other check of
// MSG-1 is made as FromRaw makes it. A message that is not valid JSON is
// the caller's error, and its result means nothing (but is no panic).
func FromValid(raws []json.RawMessage) ([]Message, error) {
	return fromRaw(raws, true)
}

func fromRaw(raws []json.RawMessage, valid bool) ([]Message, error) {
	msgs := make([]Message, len(raws))
	for i, r := range raws {
		m, err := parse(r, i, valid)
		if err != nil {
			return nil, err
		}
		msgs[i] = m
	}
	return msgs, nil
}

// New builds a message from a role and a Go value for its content; content
// nil leaves the member out.
func New(role string, content any) (Message, error) {
	obj := map[string]any{"role": role}
	if content != nil {
		obj["content"] = content
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(obj); err != nil {
		return Message{}, &Error{Index: -1, Reason: "content cannot be encoded as JSON: " + err.Error()}
	}
	return Parse(bytes.TrimSpace(buf.Bytes()))
}

func parse(data []byte, index int, valid bool) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, &Error{Index: index, Reason: fmt.Sprintf(format, args...)}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || !valid && !json.Valid(trimmed) {
		return fail("not valid JSON")
	}
	if trimmed[0] != '{' {
		return fail("must be a JSON object, got %s", kindOf(trimmed))
	}
	// Every string in a kept message is valid (UTF-8, no unpaired
	// surrogate escape, MSG-1), so that it can always be counted: Compact
	// would refuse it otherwise. Of a text json.Valid accepted, Compact
	// refuses only what Countable finds without compacting; only those
	// are compacted, for Compact's error.
	if !ecmajson.Countable(trimmed) {
		if _, err := Compact(trimmed); err != nil {
			return fail("%v", err)
		}
	}
	// The message's own copy is what its members are read from, once:
	// content and the tool ids are slices of it and strings made from it.
	raw := append(json.RawMessage(nil), trimmed...)
	raw = raw[:len(raw):len(raw)] // an append to Raw() or Content() never writes into the other
	members, _ := jsonscan.SplitObject(raw)
	rawRole, ok := members.Get("role")
	if !ok {
		return fail(`"role" is missing`)
	}
	role, ok := jsonscan.String(rawRole)
	if !ok {
		return fail(`"role" must be a string, got %s`, kindOf(rawRole))
	}
	if role == "" {
		return fail(`"role" must not be empty`)
	}
	class, ids, err := classify(role, members)
	if err != nil {
		return fail("%v", err)
	}
	m := Message{raw: raw, role: role, class: class, toolIDs: ids}
	if c, ok := members.Get("content"); ok {
		m.content = c[:len(c):len(c)]
	}
	return m, nil
}

// kindOf names the JSON type of a valid JSON text, for error messages.
func kindOf(v []byte) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

// Role is the message's role member.
func (m Message) Role() string { return m.role }

// Content is the raw JSON of the content member, nil when it is absent.
func (m Message) Content() json.RawMessage { return m.content }

// Raw is the message exactly as received. The caller must not modify it.
func (m Message) Raw() json.RawMessage { return m.raw }

// MarshalJSON returns the message as received.
func (m Message) MarshalJSON() ([]byte, error) {
	if m.raw == nil {
		return nil, &Error{Index: -1, Reason: "zero Message has no JSON form"}
	}
	return m.raw, nil
}

// UnmarshalJSON parses and validates a message.
func (m *Message) UnmarshalJSON(data []byte) error {
	parsed, err := Parse(data)
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// ContentLength is the character count of the message's content (EST-2–EST-4).
// A parsed message always has a countable content; a zero Message counts 0.
func (m Message) ContentLength() int {
	n, err := ContentLength(m.content)
	if err != nil {
		// Unreachable for a parsed message: parse validated every string.
		return 0
	}
	return n
}
