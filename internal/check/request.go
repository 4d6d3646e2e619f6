package check

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/message"
)

// Formats a request is read in (D-57): a provider's, or either when
// nothing in the body tells them apart, or mixed when it holds both.
const (
	FormatOpenAI    = protocol.FormatOpenAI
	FormatAnthropic = protocol.FormatAnthropic
	FormatEither    = ""
	formatMixed     = "mixed"
)

// errNotChat marks a body that is not a chat request at all (no
// "messages"): another call recorded in the same log, skipped.
var errNotChat = errors.New(`no "messages" member: not a chat request`)

// request is one recorded request, parsed.
type request struct {
	format string
	// system says that an Anthropic body has a non-empty top-level
	// "system".
	system   bool
	messages []message.Message
	// mixedAt is the first message that carries the other format's tool
	// members, when format is mixed (ACC-8).
	mixedAt int
}

// parseRequest reads a body in the declared format (FormatEither: detect
// it). A body that is not an object, or whose messages are not messages
// (MSG-1), is an error; one without "messages" is errNotChat.
func parseRequest(body []byte, declared string) (*request, error) {
	obj, ok := jsonscan.SplitObject(body)
	if !ok || body[0] != '{' {
		return nil, fmt.Errorf("the request body is not a JSON object")
	}
	rawMsgs, ok := obj.Get("messages")
	if !ok || string(rawMsgs) == "null" {
		return nil, errNotChat
	}
	elems, ok := jsonscan.SplitArray(rawMsgs)
	if !ok {
		return nil, fmt.Errorf(`"messages" is not an array`)
	}
	r := &request{messages: make([]message.Message, len(elems)), mixedAt: -1}
	for i, e := range elems {
		m, err := message.Parse(e)
		if err != nil {
			var me *message.Error
			if errors.As(err, &me) {
				return nil, fmt.Errorf("messages[%d]: %s", i, me.Reason)
			}
			return nil, fmt.Errorf("messages[%d]: %w", i, err)
		}
		r.messages[i] = m
	}
	if sys, ok := obj.Get("system"); ok && !emptyValue(sys) {
		r.system = true
	}
	r.format, r.mixedAt = detect(r, declared)
	return r, nil
}

// emptyValue says whether a JSON value says nothing: null, "" or [].
func emptyValue(v []byte) bool {
	s := strings.TrimSpace(string(v))
	return s == "null" || s == `""` || s == "[]"
}

// detect reads the format from the body's markers (D-57): an OpenAI tool
// message, tool_calls or a developer message are OpenAI's; tool_use and
// tool_result blocks and a top-level system are Anthropic's; a system
// message leans to OpenAI, but is an Anthropic request's mistake (ACC-6)
// when the body is otherwise Anthropic. With a declared format, a tool
// member of the other one makes the request mixed (ACC-8); detected,
// tool members of both do, from the first message of the later one.
func detect(r *request, declared string) (format string, mixedAt int) {
	openai, anthropic, systemMsg := -1, -1, false
	for i, m := range r.messages {
		o, a := markers(m)
		if o && openai < 0 {
			openai = i
		}
		if a && anthropic < 0 {
			anthropic = i
		}
		systemMsg = systemMsg || m.Role() == "system"
	}
	switch {
	case declared == FormatOpenAI && anthropic >= 0:
		return formatMixed, anthropic
	case declared == FormatAnthropic && openai >= 0:
		return formatMixed, openai
	case declared != FormatEither:
		return declared, -1
	case openai >= 0 && anthropic >= 0:
		return formatMixed, max(openai, anthropic)
	case openai >= 0:
		return FormatOpenAI, -1
	case anthropic >= 0 || r.system:
		return FormatAnthropic, -1
	case systemMsg:
		return FormatOpenAI, -1
	}
	return FormatEither, -1
}

// markers says whether a message carries OpenAI's or Anthropic's tool
// members (CLS-1).
func markers(m message.Message) (openai, anthropic bool) {
	switch m.Role() {
	case "tool", "developer":
		openai = true
	}
	if obj, ok := jsonscan.SplitObject(m.Raw()); ok {
		if tc, ok := obj.Get("tool_calls"); ok && string(tc) != "null" {
			openai = true
		}
	}
	for _, b := range blocks(m) {
		if b.typ == "tool_use" || b.typ == "tool_result" {
			anthropic = true
		}
	}
	return openai, anthropic
}

// block is one content block of a message: its type.
type block struct{ typ string }

// blocks lists the content blocks of a message whose content is an array.
func blocks(m message.Message) []block {
	c := m.Content()
	if len(c) == 0 || c[0] != '[' {
		return nil
	}
	elems, _ := jsonscan.SplitArray(c)
	out := make([]block, len(elems))
	for i, e := range elems {
		if obj, ok := jsonscan.SplitObject(e); ok {
			if t, ok := obj.Get("type"); ok {
				out[i].typ, _ = jsonscan.String(t)
			}
		}
	}
	return out
}

// Pointer is a JSON Pointer (RFC 6901) into a record: where the request
// body is (-body) or the conversation key (-group-by).
type Pointer []string

// ParsePointer reads "/a/b/0"; "" is the whole document.
func ParsePointer(s string) (Pointer, error) {
	if s == "" {
		return Pointer{}, nil
	}
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("JSON pointer %q must start with /", s)
	}
	parts := strings.Split(s[1:], "/")
	for i, p := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

// Get is the value the pointer names in doc, a valid JSON text.
func (p Pointer) Get(doc []byte) ([]byte, bool) {
	v := doc
	for _, tok := range p {
		if obj, ok := jsonscan.SplitObject(v); ok && len(v) > 0 && v[0] == '{' {
			if v, ok = obj.Get(tok); !ok {
				return nil, false
			}
			continue
		}
		elems, ok := jsonscan.SplitArray(v)
		if !ok {
			return nil, false
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(elems) || tok != strconv.Itoa(i) {
			return nil, false
		}
		v = elems[i]
	}
	return v, true
}

// bodyAt is the request body a record holds at p: the value there, or,
// when the value is a string, the JSON text it holds (logs often keep the
// body as a string).
func bodyAt(record []byte, p Pointer) ([]byte, error) {
	v, ok := p.Get(record)
	if !ok {
		return nil, fmt.Errorf("-body: the record has no value at %s", "/"+strings.Join(p, "/"))
	}
	if len(v) > 0 && v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, err
		}
		if !json.Valid([]byte(s)) {
			return nil, fmt.Errorf("-body: the string at %s is not JSON", "/"+strings.Join(p, "/"))
		}
		return []byte(strings.TrimSpace(s)), nil
	}
	return v, nil
}
