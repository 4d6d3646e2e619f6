package history_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
)

func conv(t *testing.T, raw string) []message.Message {
	t.Helper()
	msgs, err := message.ParseList([]byte(raw))
	require.NoError(t, err)
	return msgs
}

func contents(msgs []message.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		var s string
		_ = json.Unmarshal(m.Content(), &s)
		out[i] = s
	}
	return out
}

// The seven cases of 001.
func TestPruneCases(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`[{"role":"user","content":"hi"},{"role":"user","content":"hello"},{"role":"assistant","content":"hey"}]`, []string{"hello", "hey"}},
		{`[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"user","content":"c"},{"role":"assistant","content":"ok"}]`, []string{"c", "ok"}},
		{`[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"},{"role":"user","content":"d"}]`, []string{"a", "b", "d"}},
		{`[{"role":"user","content":"a"},{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"x","content":"t"},{"role":"user","content":"b"},{"role":"user","content":"c"}]`, []string{"a", "", "t", "c"}},
		{`[{"role":"user","content":"a"}]`, []string{"a"}},
		{`[]`, []string{}},
		{`[{"role":"assistant","content":"a"},{"role":"user","content":"b"}]`, []string{"a", "b"}},
	} {
		in := conv(t, c.in)
		before, _ := json.Marshal(in)
		kept, _ := history.Prune(in)
		require.Equal(t, c.want, contents(kept), c.in)
		after, _ := json.Marshal(in)
		require.JSONEq(t, string(before), string(after), "Prune modified its input")
	}
}

func TestBuildRepairsThenPrunesThenWindows(t *testing.T) {
	in := conv(t, `[{"role":"system","content":"s"},{"role":"user","content":"u1"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":"{}"}}]},
		{"role":"user","content":"u2"},{"role":"assistant","content":"a"}]`)
	res, err := history.Build(in, 0)
	require.NoError(t, err)
	require.Equal(t, []string{"s", "u2", "a"}, contents(res.Messages))
	require.Len(t, res.Warnings, 1)
	require.Equal(t, message.UnansweredToolCall, res.Warnings[0].Code)
	require.Equal(t, []int{2}, res.Warnings[0].Indexes)

	_, err = history.Build(in, -1)
	require.Error(t, err)
}
