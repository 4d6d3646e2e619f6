package trimout

import (
	"encoding/json"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/ecmajson"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/judgemsg"
	// cl100k_base is TOK-1's external standard, not an algorithm under
	// test: the reference's tokenizer is pinned to npm tiktoken's ids by
	// internal/tokenvectors, and is the one package of the reference the
	// judge may use (D-64). It belongs in internal/ beside ecmajson.
	"github.com/convspec/convspec/reference/tokens"
)

// The counts of the second declaration (ANY-6, D-60): a message bound that
// counts a call's results as one message, and token counts over the
// messages' texts, per message or joined, with or without tool payloads.

// countV2 counts msgs by a second declaration's members; ok is false when
// they do not change D-35's count.
func countV2(d protocol.TrimmerDecl, msgs []json.RawMessage) (n int, ok bool) {
	switch {
	case d.Bound == protocol.BoundMessages && d.Results == protocol.ResultsOne:
		read := judgemsg.Read(msgs)
		for i, m := range read {
			if i == 0 || m.Class() != judgemsg.ToolResult || read[i-1].Class() != judgemsg.ToolResult {
				n++
			}
		}
		return n, true
	case d.Bound == protocol.BoundTokens && d.Count != nil:
		var texts []string
		for _, m := range judgemsg.Read(msgs) {
			texts = append(texts, Text(m, d.Count.CountsToolPayloads()))
		}
		if joined, sep := d.Count.Joined(); joined {
			if len(texts) == 0 {
				return 0, true
			}
			return countText(d.Counter, strings.Join(texts, sep)), true
		}
		for _, t := range texts {
			n += countText(d.Counter, t)
		}
		return n, true
	}
	return 0, false
}

func countText(counter, text string) int {
	if counter == protocol.CounterCl100k {
		return tokens.Count(text)
	}
	return (ecmajson.Length(text) + 3) / 4
}

// messageTokens is what a message counts (TOK-2): the tokens of its role
// and of its content, plus the fallback of a non-null tool_calls member.
//
// A read message is valid JSON in well-formed Unicode (judgemsg.Parse),
// so its members, blocks and strings are read with internal/jsonscan's
// scanners, as encoding/json would read them into maps and strings but
// without checking and copying the text again (FuzzCountAsOracle).
func messageTokens(m judgemsg.Message) int {
	n := tokens.Count(m.Role()) + contentTokens(m.Content())
	members, _ := jsonscan.SplitObject(m.Raw())
	if calls, ok := members.Get("tool_calls"); ok && string(calls) != "null" {
		n += fallback(calls)
	}
	return n
}

// contentTokens counts a content member (TOK-2): a string its tokens, an
// array the sum over its blocks, null or absent 0, anything else the
// fallback.
func contentTokens(content json.RawMessage) int {
	switch {
	case len(content) == 0 || string(content) == "null":
		return 0
	case content[0] == '"':
		s, _ := jsonscan.String(content)
		return tokens.Count(s)
	case content[0] == '[':
		blocks, _ := jsonscan.SplitArray(content)
		n := 0
		for _, b := range blocks {
			n += blockTokens(b)
		}
		return n
	}
	return fallback(content)
}

// blockTokens counts one block of array content (TOK-2): a text block the
// tokens of its text, a tool_result block its content counted as content,
// any other the fallback.
func blockTokens(b []byte) int {
	typ, text, content, ok := block(b)
	switch {
	case ok && typ == "text" && text != nil:
		return tokens.Count(*text)
	case ok && typ == "tool_result":
		return contentTokens(content)
	}
	return fallback(b)
}

// block reads a content block, an element of a read message's array
// content, by its members' exact names, as MSG-1 names members
// (encoding/json's struct fields would take "Type" for "type"): its type
// and content, and its text when that is a string; ok is false for an
// element that is not an object.
func block(raw []byte) (typ string, text *string, content json.RawMessage, ok bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return "", nil, nil, false
	}
	members, _ := jsonscan.SplitObject(raw)
	t, _ := members.Get("type")
	typ, _ = jsonscan.String(t) // a type that is not a string is none
	if t, _ := members.Get("text"); len(t) > 0 && t[0] == '"' {
		s, _ := jsonscan.String(t)
		text = &s
	}
	content, _ = members.Get("content")
	return typ, text, content, true
}

// fallback is ⌈L / 4⌉ of a value's compact serialization, L its length in
// EST-2's characters (TOK-2, D-23).
func fallback(raw json.RawMessage) int {
	s, err := ecmajson.Compact(raw)
	if err != nil {
		return 0
	}
	return (ecmajson.Length(s) + 3) / 4
}

// Text is what a declared count reads of a message: its string content or
// the text of its text blocks, and, with payloads, the compact JSON of its
// tool calls and of its other blocks.
//
// Another reader's message is taken as that reader read it, valid JSON in
// valid UTF-8 (MSG-1): bytes that are not JSON have no text, and a byte
// that is not UTF-8 is kept where encoding/json would write U+FFFD, as
// jsonscan keeps it. No caller holds such a message: the reference's
// reader refuses it, as the judge's does.
func Text[M Msg](m M, payloads bool) string {
	var members jsonscan.Object
	if jm, ok := any(m).(judgemsg.Message); ok {
		members, _ = jsonscan.SplitObject(jm.Raw()) // checked by judgemsg.Parse
	} else if raw := m.Raw(); jsonscan.Valid(raw) {
		members, _ = jsonscan.SplitObject(raw)
	}
	// Members by their exact names (MSG-1), as encoding/json's struct
	// fields would not: they match "Content" too.
	content, _ := members.Get("content")
	calls, _ := members.Get("tool_calls")
	var b strings.Builder
	if s, ok := jsonscan.String(content); ok {
		b.WriteString(s)
	} else {
		blocks, _ := jsonscan.SplitArray(content) // none for null, or content that is no array
		for _, raw := range blocks {
			switch typ, text, _, ok := block(raw); {
			case ok && typ == "text" && text != nil:
				b.WriteString(*text)
			case payloads:
				c, _ := ecmajson.Compact(raw)
				b.WriteString(c)
			}
		}
	}
	if payloads && len(calls) > 0 && string(calls) != "null" {
		c, _ := ecmajson.Compact(calls)
		b.WriteString(c)
	}
	return b.String()
}
