package adapter_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
)

// A declaration ANY-10 or D-42 refuses is its author's error when the
// adapter starts, never a protocol error in a run.
func TestWrongDeclarationsAreRefusedAtStart(t *testing.T) {
	trim := func(_ context.Context, m []json.RawMessage, _ int) ([]json.RawMessage, error) { return m, nil }
	ok := adapter.Trimmer{TrimmerDecl: protocol.TrimmerDecl{Name: "t", Bound: "messages"}, Trim: trim}
	for _, c := range []struct {
		impl adapter.Implementation
		want string
	}{
		{adapter.Implementation{Levels: []string{}}, "Levels is empty"},
		{adapter.Implementation{Levels: []string{"core", "fancy"}}, `Levels: unknown "fancy"`},
		{adapter.Implementation{Formats: []string{"gemini"}}, `Formats: unknown "gemini"`},
		{adapter.Implementation{Trimmers: []adapter.Trimmer{ok, ok}}, `declared twice`},
		{adapter.Implementation{Trimmers: []adapter.Trimmer{{TrimmerDecl: protocol.TrimmerDecl{Name: "t", Bound: "tokens"}, Trim: trim}}}, `counter must be`},
		{adapter.Implementation{Trimmers: []adapter.Trimmer{{TrimmerDecl: ok.TrimmerDecl}}}, `has no Trim function`},
		{adapter.Implementation{Trimmers: []adapter.Trimmer{{TrimmerDecl: protocol.TrimmerDecl{Name: "t", Bound: "messages", Head: 2}, Trim: trim}}}, `trimmers[0].head needs "version": 2`},
		{adapter.Implementation{Trimmers: []adapter.Trimmer{{TrimmerDecl: protocol.TrimmerDecl{Name: "t", Bound: "tokens", Counter: "native", Version: 2}, Trim: trim}}}, `has no NativeCount function`},
	} {
		c.impl.Name, c.impl.Version = "x", "0"
		if c.impl.Trimmers == nil {
			c.impl.Trimmers = []adapter.Trimmer{ok}
		}
		err := adapter.Serve(context.Background(), c.impl, strings.NewReader(""), &strings.Builder{})
		if assert.Error(t, err, "%+v", c.impl) {
			assert.Contains(t, err.Error(), c.want)
		}
	}
}

// chars4 is ⌈characters / 4⌉ of one message's content, as EST-2 – EST-5
// count characters (the emoji is two UTF-16 code units; other content is
// its compact JSON).
func TestChars4(t *testing.T) {
	for raw, want := range map[string]int{
		`{"role":"user","content":"é你😀"}`:                                          1,
		`{"role":"user","content":"abcde"}`:                                        2,
		`{"role":"user","content":[ {"type": "text", "text": "hi 😀"} ]}`:           8,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"f"}]}`: 0,
	} {
		n, err := adapter.Chars4(json.RawMessage(raw))
		require.NoError(t, err)
		assert.Equal(t, want, n, raw)
	}
	_, err := adapter.Chars4(json.RawMessage(`{"content":"no role"}`))
	assert.Error(t, err)
	tr := adapter.Trimmer{TrimmerDecl: protocol.TrimmerDecl{Bound: "tokens", Counter: "chars4"}}
	assert.Equal(t, 3, tr.Count([]json.RawMessage{json.RawMessage(`{"role":"u","content":"a"}`), json.RawMessage(`{"role":"u","content":"abcde"}`)}), "rounded per message")
}

// A native counter answers trimmer.count (D-60, ANY-13).
func TestNativeCounterAnswersTrimmerCount(t *testing.T) {
	impl := adapter.Implementation{Name: "x", Version: "0", Trimmers: []adapter.Trimmer{{
		TrimmerDecl: protocol.TrimmerDecl{Name: "lib", Bound: "tokens", Counter: "native", Guarantees: []string{"bound"}, Version: 2},
		Trim:        func(_ context.Context, m []json.RawMessage, _ int) ([]json.RawMessage, error) { return m, nil },
		NativeCount: func(_ context.Context, m []json.RawMessage) (int, error) { return 3 + 4*len(m), nil },
	}}}
	in := `{"jsonrpc":"2.0","id":1,"method":"trimmer.count","params":{"trimmer":"lib","messages":[{"role":"user","content":"a"}]}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"trimmer.count","params":{"trimmer":"nope","messages":[]}}` + "\n"
	var out strings.Builder
	require.NoError(t, adapter.Serve(context.Background(), impl, strings.NewReader(in), &out))
	assert.Contains(t, out.String(), `"result":{"count":7}`)
	assert.Contains(t, out.String(), `"kind":"invalid_params"`)
}
