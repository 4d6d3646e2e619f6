package judgemsg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// The oracle of FuzzParseAsOracle: Parse as it was written before it read
// members with internal/jsonscan, decoding each level into a
// map[string]json.RawMessage with encoding/json. It is the meaning Parse
// keeps — the last of a member name written twice, names matched exactly
// after unescaping, null members, the error texts — and is kept here, in a
// test, only to hold Parse to it.

// oracleParse reads one message: a JSON object with a non-empty string role,
// every string well-formed Unicode (MSG-1), its tool members readable
// (CLS-2).
func oracleParse(raw json.RawMessage) (Message, error) {
	fail := func(format string, args ...any) (Message, error) {
		return Message{}, fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
	}
	text := bytes.TrimSpace(raw)
	if !json.Valid(text) {
		return fail("not valid JSON")
	}
	if text[0] != '{' {
		return fail("not a JSON object")
	}
	if err := wellFormed(text); err != nil {
		return fail("%v", err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(text, &members); err != nil {
		return fail("%v", err)
	}
	var role string
	if r, ok := members["role"]; !ok || json.Unmarshal(r, &role) != nil || role == "" {
		return fail(`"role" must be a non-empty string`)
	}
	m := Message{raw: text, role: role}
	if c, ok := members["content"]; ok {
		m.content = c
	}
	class, ids, err := oracleClassOf(role, members)
	if err != nil {
		return fail("%v", err)
	}
	m.class, m.ids = class, ids
	return m, nil
}

// oracleClassOf is CLS-1's table, and CLS-2's refusals of tool members that
// cannot be read.
func oracleClassOf(role string, members map[string]json.RawMessage) (Class, []string, error) {
	switch role {
	case "system", "developer":
		return System, nil, nil
	case "tool":
		id, err := oracleIDOf(members, "tool_call_id")
		if err != nil {
			return "", nil, fmt.Errorf("tool message: %w", err)
		}
		return ToolResult, []string{id}, nil
	case "user":
		ids, err := oracleBlockIDs(members["content"], "tool_result", "tool_use_id")
		switch {
		case err != nil:
			return "", nil, err
		case len(ids) > 0:
			return ToolResult, ids, nil
		}
		return UserPrompt, nil, nil
	case "assistant":
		var ids []string
		if calls, ok := members["tool_calls"]; ok && !oracleIsNull(calls) {
			var elems []json.RawMessage
			if json.Unmarshal(calls, &elems) != nil {
				return "", nil, errors.New(`"tool_calls" must be an array of objects`)
			}
			objects := make([]map[string]json.RawMessage, len(elems))
			for i, e := range elems {
				if json.Unmarshal(e, &objects[i]) != nil || objects[i] == nil {
					return "", nil, errors.New(`"tool_calls" must be an array of objects`)
				}
			}
			for i, call := range objects {
				id, err := oracleIDOf(call, "id")
				if err != nil {
					return "", nil, fmt.Errorf("tool_calls[%d]: %w", i, err)
				}
				ids = append(ids, id)
			}
		}
		uses, err := oracleBlockIDs(members["content"], "tool_use", "id")
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

// oracleBlockIDs are the ids of the content blocks of one type, when content is
// an array; an element that is not an object is not a block.
func oracleBlockIDs(content json.RawMessage, blockType, idName string) ([]string, error) {
	var blocks []json.RawMessage
	if len(content) == 0 || content[0] != '[' || json.Unmarshal(content, &blocks) != nil {
		return nil, nil
	}
	var ids []string
	for i, b := range blocks {
		var block map[string]json.RawMessage
		if json.Unmarshal(b, &block) != nil || block == nil {
			continue
		}
		var t string
		if json.Unmarshal(block["type"], &t) != nil || t != blockType {
			continue
		}
		id, err := oracleIDOf(block, idName)
		if err != nil {
			return nil, fmt.Errorf("content[%d] (a %s block): %w", i, blockType, err)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// oracleIDOf is a member that must be a non-empty string.
func oracleIDOf(members map[string]json.RawMessage, name string) (string, error) {
	raw, ok := members[name]
	if !ok || oracleIsNull(raw) {
		return "", fmt.Errorf("%q is missing", name)
	}
	var id string
	if json.Unmarshal(raw, &id) != nil || id == "" {
		return "", fmt.Errorf("%q must be a non-empty string", name)
	}
	return id, nil
}

func oracleIsNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// FuzzParseAsOracle: Parse reads every text as oracleParse does — the
// same messages, with the same role, content bytes, class and ids, and
// the same refusals with the same words. Seeded with every message of the
// golden cases and with texts where a member reader most easily parts
// from encoding/json's maps.
func FuzzParseAsOracle(f *testing.F) {
	seen := map[string]bool{}
	for _, list := range goldenLists(f) {
		for _, m := range list {
			if !seen[string(m)] {
				seen[string(m)] = true
				f.Add([]byte(m))
			}
		}
	}
	for _, seed := range []string{
		// A name written twice: the last one counts.
		`{"role":"user","role":"assistant","tool_calls":[{"id":"a"}]}`,
		`{"role":"assistant","content":"x","role":"tool","tool_call_id":"a","tool_call_id":"b"}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"u","type":"text"}],"content":"y"}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","tool_use_id":null}]}`,
		`{"role":"assistant","tool_calls":[{"id":"a","id":""}]}`,
		// Names unescaped, and matched exactly: no case folding for a map.
		`{"r\u006fle":"tool","tool_call_id":"x"}`, `{"\u0072ole":"assistant","tool_calls":[{"\u0069d":"z"}]}`,
		`{"Role":"user"}`, `{"role":"user","Content":"x"}`, `{"role":"tool","Tool_Call_Id":"x"}`,
		`{"role":"assistant","tool_calls":[{"ID":"a"}]}`, `{"role":"user","content":[{"Type":"tool_result","tool_use_id":"a"}]}`,
		// null members.
		`{"role":null}`, `{"role":"tool","tool_call_id":null}`, `{"role":"assistant","tool_calls":null}`,
		`{"role":"assistant","content":null}`, `{"role":"user","content":[{"type":null,"tool_use_id":"a"}]}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":null}]}`, `null`,
		// Space everywhere JSON allows it.
		" \n{ \"role\" : \"user\" ,\t\"content\" :\r[ { \"type\" : \"tool_result\" , \"tool_use_id\" : \"a\" } , 1 ] } \t",
		"{\"role\":\"assistant\",\"tool_calls\": [ {\"id\" : \"a\"} , { \"id\":\"b\" } ] ,\"content\": null }",
		"{\"role\":\"tool\",\"tool_call_id\": null }",
		// Elements that are not objects, and types that are not strings.
		`{"role":"user","content":[1,"x",null,[],true,{"type":"tool_result","tool_use_id":"a"}]}`,
		`{"role":"user","content":[{"type":7,"tool_use_id":"a"},{"type":["tool_result"]}]}`,
		`{"role":"assistant","tool_calls":[{"id":"a"},null]}`, `{"role":"assistant","tool_calls":[{"id":""},7]}`,
		`{"role":"assistant","tool_calls":"x"}`, `{"role":"assistant","tool_calls":{}}`, `{"role":"assistant","tool_calls":[]}`,
		`{"role":"assistant","tool_calls":[[]]}`, `{"role":"assistant","content":{"type":"tool_use"}}`,
		// Empty and odd ids.
		`{"role":"tool","tool_call_id":""}`, `{"role":"tool","tool_call_id":7}`, `{"role":"tool","tool_call_id":{}}`,
		`{"role":"tool","tool_call_id":"\u00e9\ud83d\ude00\n\"\\"}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":""}]}`,
		`{"role":"\u0075ser","content":"hi"}`, `{"role":""}`, `{"role":7}`, `{"role":["user"]}`,
		// Not messages at all.
		``, `  `, `nul`, `[]`, `"role"`, `{"role":"user"} x`, `{"role":"user",}`, `{`,
		`{"role":"user","content":"\ud800"}`, `{"role":"user","content":"\udc00"}`, `{"role":"user","\ud800":1}`,
		"{\"role\":\"user\",\"content\":\"\xff\"}", "{\"role\":\"user\",\"\xfe\":1}",
		`{"role":"user","content":"\ud83d\ude00\ud800\u0041"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, gotErr := Parse(raw)
		want, wantErr := oracleParse(raw)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("%q: Parse says %v, the oracle %v", raw, gotErr, wantErr)
		}
		if gotErr != nil {
			if !errors.Is(gotErr, ErrInvalid) {
				t.Fatalf("%q: %v does not wrap ErrInvalid", raw, gotErr)
			}
			return
		}
		switch {
		case !bytes.Equal(got.Raw(), want.Raw()):
			t.Fatalf("%q: raw %q, the oracle %q", raw, got.Raw(), want.Raw())
		case got.Role() != want.Role():
			t.Fatalf("%q: role %q, the oracle %q", raw, got.Role(), want.Role())
		case (got.Content() == nil) != (want.Content() == nil) || !bytes.Equal(got.Content(), want.Content()):
			t.Fatalf("%q: content %q, the oracle %q", raw, got.Content(), want.Content())
		case got.Class() != want.Class():
			t.Fatalf("%q: class %s, the oracle %s", raw, got.Class(), want.Class())
		case !slices.Equal(got.ToolIDs(), want.ToolIDs()):
			t.Fatalf("%q: ids %q, the oracle %q", raw, got.ToolIDs(), want.ToolIDs())
		}
	})
}
