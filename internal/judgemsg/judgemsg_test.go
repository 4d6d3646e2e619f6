package judgemsg

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
)

// TestParse: MSG-1's and CLS-2's examples, and CLS-1's table.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		raw   string
		class Class
		ids   []string
	}{
		{`{"role":"user","content":"hi"}`, UserPrompt, nil},
		{`{"role":"developer"}`, System, nil},
		{`{"role":"assistant","content":null,"tool_calls":[{"id":"a"},{"id":"b"}]}`, ToolCall, []string{"a", "b"}},
		{`{"role":"assistant","tool_calls":[]}`, AssistantText, nil},
		{`{"role":"assistant","tool_calls":null,"content":[{"type":"tool_use","id":"u"}]}`, ToolCall, []string{"u"}},
		{`{"role":"assistant","tool_calls":[{"id":"a"}],"content":[{"type":"tool_use","id":"u"}]}`, ToolCall, []string{"a", "u"}},
		{`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}`, ToolResult, []string{"t1"}},
		{`{"role":"user","content":["text",{"type":"text","text":"x"}]}`, UserPrompt, nil},
		{`{"role":"tool","tool_call_id":"c"}`, ToolResult, []string{"c"}},
		{`{"role":"narrator","content":"\ud83d\ude00"}`, Other, nil},
	} {
		m, err := Parse(json.RawMessage(tc.raw))
		if assert.NoError(t, err, tc.raw) {
			assert.Equal(t, tc.class, m.Class(), tc.raw)
			assert.Equal(t, tc.ids, m.ToolIDs(), tc.raw)
		}
	}
	for _, raw := range []string{
		`{"content":"hi"}`, `{"role":""}`, `{"role":7}`, `"hi"`, `{"role":null}`, `{`,
		`{"role":"user","content":"\ud800"}`, `{"role":"user","content":"\udc00\ud800"}`, "{\"role\":\"user\",\"content\":\"\xff\"}",
		`{"role":"assistant","tool_calls":{}}`, `{"role":"assistant","tool_calls":[null]}`, `{"role":"assistant","tool_calls":[{"id":""}]}`,
		`{"role":"assistant","content":[{"type":"tool_use"}]}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":7}]}`,
		`{"role":"tool"}`,
	} {
		_, err := Parse(json.RawMessage(raw))
		assert.ErrorIs(t, err, ErrInvalid, raw)
	}
}

// TestStructure: UNIT-1's units and UNIT-2's four malformed structures.
func TestStructure(t *testing.T) {
	call := func(ids ...string) string {
		var calls []string
		for _, id := range ids {
			calls = append(calls, `{"id":"`+id+`"}`)
		}
		return `{"role":"assistant","tool_calls":[` + strings.Join(calls, ",") + `]}`
	}
	result := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `"}` }
	user := `{"role":"user","content":"q"}`
	for _, tc := range []struct {
		name  string
		msgs  []string
		units []Unit
		code  string
		at    int
	}{
		{"parallel calls answered in any order", []string{user, call("a", "b"), result("b"), result("a"), user}, []Unit{{0, 1}, {1, 4}, {4, 5}}, "", 0},
		{"an orphan", []string{user, result("a")}, nil, "orphan_tool_result", 1},
		{"unanswered", []string{call("a", "b"), result("a"), user}, nil, "unanswered_tool_call", 0},
		{"declared twice", []string{call("a"), result("a"), call("a"), result("a")}, nil, "duplicate_tool_call_id", 2},
		{"answered twice", []string{call("a", "b"), result("a"), result("a"), result("b")}, nil, "tool_call_answered_twice", 0},
		{"a stranger", []string{call("a"), result("z")}, nil, "orphan_tool_result", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var raws []json.RawMessage
			for _, m := range tc.msgs {
				raws = append(raws, json.RawMessage(m))
			}
			msgs, err := FromRaw(raws)
			require.NoError(t, err)
			units, problems := Structure(msgs)
			if tc.code == "" {
				assert.Empty(t, problems)
				assert.Equal(t, tc.units, units)
				return
			}
			require.NotEmpty(t, problems)
			assert.Equal(t, tc.code, problems[0].Code)
			assert.Equal(t, tc.at, problems[0].At)
		})
	}
}

// TestAgreesWithTheReference: on every message list of the golden cases,
// and on lists that break MSG-1, CLS-2 and UNIT-2, the judge's reader and
// the reference's read the same: the same messages valid, with the same
// classes and ids, and the same units and problems. Two readers written
// apart that agree are each less likely wrong; where they part, the spec
// decides which one is.
func TestAgreesWithTheReference(t *testing.T) {
	lists := goldenLists(t)
	require.Greater(t, len(lists), 100, "the golden cases hold hundreds of message lists")
	for _, list := range lists {
		ours, oursErr := FromRaw(list)
		theirs, theirsErr := message.FromRaw(list)
		if !assert.Equal(t, theirsErr == nil, oursErr == nil, "%s\nreference: %v\njudge: %v", list, theirsErr, oursErr) || oursErr != nil {
			continue
		}
		for i := range ours {
			assert.Equal(t, string(theirs[i].Class()), string(ours[i].Class()), "%s", list[i])
			assert.Equal(t, theirs[i].ToolIDs(), ours[i].ToolIDs(), "%s", list[i])
			assert.Equal(t, theirs[i].Role(), ours[i].Role())
			assert.Equal(t, string(theirs[i].Content()), string(ours[i].Content()))
		}
		units, problems := Structure(ours)
		refUnits, refProblems := message.Structure(theirs)
		require.Equal(t, len(refUnits), len(units), "%s", list)
		for i := range units {
			assert.Equal(t, refUnits[i].Start, units[i].Start)
			assert.Equal(t, refUnits[i].End, units[i].End)
		}
		require.Equal(t, len(refProblems), len(problems), "%s", list)
		for i := range problems {
			assert.Equal(t, refProblems[i].Code, problems[i].Code)
			assert.Equal(t, refProblems[i].At, problems[i].At)
			assert.Equal(t, refProblems[i].Reason, problems[i].Reason)
		}
	}
}

// goldenLists is every array of messages in the golden case files: the
// value of each member named messages, trimmed, evicted, initial or state.
func goldenLists(t testing.TB) [][]json.RawMessage {
	t.Helper()
	var lists [][]json.RawMessage
	var walk func(raw json.RawMessage)
	walk = func(raw json.RawMessage) {
		var obj map[string]json.RawMessage
		var arr []json.RawMessage
		switch {
		case json.Unmarshal(raw, &obj) == nil && obj != nil:
			for k, e := range obj {
				var list []json.RawMessage
				if (k == "messages" || k == "trimmed" || k == "evicted" || k == "initial" || k == "state") && json.Unmarshal(e, &list) == nil {
					lists = append(lists, list)
					continue // a message's members are not lists of messages
				}
				walk(e)
			}
		case json.Unmarshal(raw, &arr) == nil:
			for _, e := range arr {
				walk(e)
			}
		}
	}
	root := filepath.Join("..", "..", "testdata", "golden", "cases")
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if !strings.HasSuffix(path, ".json") {
			return nil // the gzipped cases are the few long ones, of the same messages
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var v json.RawMessage
			if err := dec.Decode(&v); err == io.EOF {
				return nil
			} else if err != nil {
				return err
			}
			walk(v)
		}
	}))
	return lists
}
