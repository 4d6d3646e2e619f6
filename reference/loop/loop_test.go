package loop

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

func msg(t *testing.T, s string) message.Message {
	t.Helper()
	m, err := message.Parse([]byte(s))
	require.NoError(t, err)
	return m
}

// TestWorkedExample is the hand-worked run of features/loop/loop.feature.
func TestWorkedExample(t *testing.T) {
	call := func(id string) Turn {
		return Turn{
			Response: msg(t, fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":"read","arguments":"{}"}}]}`, id)),
			Results:  []message.Message{msg(t, fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":"%s%s%s%s%s%s%s%s"}`, id, id, id, id, id, id, id, id, id))},
		}
	}
	run := Run{
		Config:  window.Config{MaxMessages: 6, PreserveFirstN: 1, PreserveLastN: 2},
		Initial: []message.Message{msg(t, `{"role":"system","content":"SYS1"}`)},
		Iterations: []Iteration{
			{Prompt: msg(t, `{"role":"user","content":"task one"}`), Turns: []Turn{call("a"), call("b"), {Response: msg(t, `{"role":"assistant","content":"all done"}`)}}},
			{Prompt: msg(t, `{"role":"user","content":"task two"}`), Turns: []Turn{{Response: msg(t, `{"role":"assistant","content":"done two"}`)}}},
		},
	}
	res, err := Execute(context.Background(), run)
	require.NoError(t, err)
	var sizes []int
	for _, r := range res.Requests {
		sizes = append(sizes, len(r.Messages))
	}
	assert.Equal(t, []int{2, 4, 6, 5}, sizes, "request sizes")
	want := [][]string{
		{"Trimmed conversation: 1 messages removed, 6 kept (~7 tokens)", "Conversation: 6 messages (~7 tokens)", "Conversation approaching limit (6/6 messages)"},
		{"Trimmed conversation: 2 messages removed, 5 kept (~7 tokens)", "Conversation: 6 messages (~9 tokens)", "Conversation approaching limit (6/6 messages)"},
	}
	for i, it := range res.Iterations {
		var got []string
		for _, e := range it.Events {
			got = append(got, e.Message)
		}
		assert.Equal(t, want[i], got, "iteration %d events", i)
	}
}

func TestApproaching(t *testing.T) {
	for _, c := range []struct {
		count, max int
		want       bool
	}{{8, 10, false}, {9, 10, true}, {24, 30, false}, {25, 30, true}, {10, 12, true}, {5, 0, false}, {0, 0, false}} {
		assert.Equal(t, c.want, Approaching(c.count, c.max), "Approaching(%d, %d)", c.count, c.max)
	}
}

func TestFirstMessageRaised(t *testing.T) {
	assert.Equal(t, 1, Effective(window.Config{MaxMessages: 5}).PreserveFirstN, "preserve_first_n 0 in the loop")
	assert.Equal(t, 3, Effective(window.Config{MaxMessages: 5, PreserveFirstN: 3}).PreserveFirstN, "preserve_first_n 3 in the loop")
}
