package message

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"unicode/utf8"
)

// The parser as it was before it read a message's members with one scan:
// every object decoded by encoding/json into a map of raw members. It is
// the oracle the scanning parser is held to (FuzzParseAsUnmarshal), as the
// regexp is for the hand-written pre-tokenizer.

func parseByUnmarshal(data []byte, index int) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, &Error{Index: index, Reason: fmt.Sprintf(format, args...)}
	}
	trimmed := bytes.TrimSpace(data)
	var members map[string]json.RawMessage
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &members) != nil {
		if !json.Valid(trimmed) {
			return fail("not valid JSON")
		}
		return fail("must be a JSON object, got %s", kindOf(trimmed))
	}
	// Compact validates every string in the message (UTF-8, no unpaired
	// surrogate escapes, MSG-1) so that a kept message can always be
	// counted. A message without a backslash that is valid UTF-8 has no
	// escape to pair and nothing else Compact refuses that encoding/json
	// did not: only the others are compacted, which spares most messages a
	// second pass.
	if bytes.IndexByte(trimmed, '\\') >= 0 || !utf8.Valid(trimmed) {
		if _, err := Compact(trimmed); err != nil {
			return fail("%v", err)
		}
	}
	rawRole, ok := members["role"]
	if !ok {
		return fail(`"role" is missing`)
	}
	// Checked by kind first: encoding/json unmarshals null into a string
	// without error, which would report a null role as an empty one.
	var role string
	if kindOf(rawRole) != "a string" || json.Unmarshal(rawRole, &role) != nil {
		return fail(`"role" must be a string, got %s`, kindOf(rawRole))
	}
	if role == "" {
		return fail(`"role" must not be empty`)
	}
	class, ids, err := classifyByUnmarshal(role, members)
	if err != nil {
		return fail("%v", err)
	}
	m := Message{raw: append(json.RawMessage(nil), trimmed...), role: role, class: class, toolIDs: ids}
	if c, ok := members["content"]; ok {
		m.content = c
	}
	return m, nil
}

func classifyByUnmarshal(role string, members map[string]json.RawMessage) (Class, []string, error) {
	switch role {
	case "system", "developer":
		return System, nil, nil
	case "assistant":
		var ids []string
		if raw, ok := members["tool_calls"]; ok && !isNull(raw) {
			var calls []map[string]json.RawMessage
			if err := json.Unmarshal(raw, &calls); err != nil {
				return "", nil, fmt.Errorf(`"tool_calls" must be an array of objects`)
			}
			for i, c := range calls {
				id, err := idMemberByUnmarshal(c, "id")
				if err != nil {
					return "", nil, fmt.Errorf("tool_calls[%d]: %v", i, err)
				}
				ids = append(ids, id)
			}
		}
		blockIDs, err := blockIDsByUnmarshal(members["content"], "tool_use", "id")
		if err != nil {
			return "", nil, err
		}
		ids = append(ids, blockIDs...)
		if len(ids) > 0 {
			return ToolCall, ids, nil
		}
		return AssistantText, nil, nil
	case "tool":
		id, err := idMemberByUnmarshal(members, "tool_call_id")
		if err != nil {
			return "", nil, fmt.Errorf("tool message: %v", err)
		}
		return ToolResult, []string{id}, nil
	case "user":
		ids, err := blockIDsByUnmarshal(members["content"], "tool_result", "tool_use_id")
		if err != nil {
			return "", nil, err
		}
		if len(ids) > 0 {
			return ToolResult, ids, nil
		}
		return UserPrompt, nil, nil
	default:
		return Other, nil, nil
	}
}

// blockIDs collects the id member of every content block of one type.
func blockIDsByUnmarshal(content json.RawMessage, blockType, idName string) ([]string, error) {
	if len(content) == 0 || content[0] != '[' {
		return nil, nil
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(content, &blocks); err != nil {
		return nil, nil
	}
	var ids []string
	for i, b := range blocks {
		var block map[string]json.RawMessage
		if json.Unmarshal(b, &block) != nil {
			continue // not a block object: plain content, not a tool block
		}
		var t string
		if json.Unmarshal(block["type"], &t) != nil || t != blockType {
			continue
		}
		id, err := idMemberByUnmarshal(block, idName)
		if err != nil {
			return nil, fmt.Errorf("content[%d] (a %s block): %v", i, blockType, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

func idMemberByUnmarshal(obj map[string]json.RawMessage, name string) (string, error) {
	raw, ok := obj[name]
	if !ok || isNull(raw) {
		return "", fmt.Errorf("%q is missing", name)
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil || id == "" {
		return "", fmt.Errorf("%q must be a non-empty string", name)
	}
	return id, nil
}

// FuzzParseAsUnmarshal: the parser that scans a message's members once
// gives what the parser built on encoding/json gives, for any input: the
// same error, or the same role, class, tool ids, content and bytes; and on
// valid JSON, FromValid's parse gives what FromRaw's does.
func FuzzParseAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"role":"user","content":"hi"}`, `{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t1","input":{}}]}`,
		`{"role":"tool","content":"x","tool_call_id":"1"}`, `{"role":"user","content":[1e400,{"a":"\u0001"}]}`,
		`{"role":"user","content":"\ud800"}`, `{"role":"user","content":{"a":1,"a":2}}`, "{\"role\":\"user\",\"content\":\"\xff\"}",
		`{"role":"assistant","tool_calls":[{"id":"c1","type":"function"},null]}`, `{"role":"assistant","tool_calls":{}}`, `{"role":"assistant","tool_calls":[1]}`,
		`{"r\u006fle":"user","role":"tool","tool_call_id":"\u0041"}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":""}]}`,
		`{"role":"user","content":[{"type":"tool_\u0072esult","tool_use_id":"x"},"s",null,[{"type":"tool_result"}]]}`,
		` {"role" : "user" , "content" : [ ] } `, `{"role":null}`, `{"role":""}`, `[]`, `null`, `{"role":"user"} x`, `{"role":"user",}`,
		`{"Role":"user"}`, `{"role":"assistant","tool_calls":[{},1]}`, `{"role":"assistant","tool_calls":[{"id":""},"x"]}`, "{\n\t\"role\"\r\n:\t\"assistant\" ,\n\"tool_calls\" : [ {\"id\":\"c\"}\t,\r{ \"id\" : \"d\" } ]\n}", `{"role":"user","content":"say \"hi\" \\ ok"}`, `{"ro\"le":1,"role":"tool","tool_call_id":"a\\"}`,
		`{"role":"assistant","tool_calls":[{"id":"\"]}","function":{"arguments":"{\"a\":\"]}\"}"}}]}`, `{"role":"assistant","tool_calls":null,"content":[{"type":"tool_use","id":5}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gotErr := parse(data, 3, false)
		want, wantErr := parseByUnmarshal(data, 3)
		if json.Valid(data) {
			// FromValid's parse, which does not check the text again,
			// gives the same on valid text
			again, againErr := parse(data, 3, true)
			if fmt.Sprint(againErr) != fmt.Sprint(gotErr) || !reflect.DeepEqual(again, got) {
				t.Fatalf("%q: read as valid: %+v, %v; checked: %+v, %v", data, again, againErr, got, gotErr)
			}
		}
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%q: error %v, the encoding/json parser says %v", data, gotErr, wantErr)
		}
		if gotErr != nil {
			return
		}
		if got.role != want.role || got.class != want.class || !reflect.DeepEqual(got.toolIDs, want.toolIDs) ||
			!bytes.Equal(got.content, want.content) || (got.content == nil) != (want.content == nil) || !bytes.Equal(got.raw, want.raw) {
			t.Fatalf("%q:\n got  %+v\n want %+v", data, got, want)
		}
	})
}

var _ = utf8.Valid
var _ = json.Valid
