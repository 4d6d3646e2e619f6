package server

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnswersAsMarshal: every method that returns messages answers with
// the result Marshal writes for what Handle returns, for messages written
// with white space between their tokens and inside their strings, escapes
// and non-ASCII text (D-90).
func TestAnswersAsMarshal(t *testing.T) {
	msgs := `[ {"role" : "system", "content":"be \"brief\" \u00e9 😀"} ,
		{ "role":"user","content":[ {"type":"text", "text":"a\\ b  c\t"} ]},
		{"role":"assistant","content":null,"tool_calls":[ {"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\": 1}"}} ]},
		{"role":"tool" ,"tool_call_id":"c1","content":"r  "},
		{"role":"user","content":"last <&>", "x": [ 1.0 , 2e0 , -0 ] } ]`
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"window.trim","params":{"window":"w1","messages":` + msgs + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"trimmer.trim","params":{"trimmer":"window","limit":3,"messages":` + msgs + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"budget.prune","params":{"model":"m","limits":{"m":40},"messages":` + msgs + `}}`,
		`{"jsonrpc":"2.0","id":5,"method":"history.prune","params":{"messages":` + msgs + `}}`,
		`{"jsonrpc":"2.0","id":6,"method":"history.build","params":{"max_messages":2,"messages":` + msgs + `}}`,
		`{"jsonrpc":"2.0","id":7,"method":"loop.run","params":{"config":{"format":"json","text":"{\"execution\":{\"conversation\":{\"max_messages\":3}}}"},` +
			`"initial":` + msgs + `,"iterations":[{"prompt":{"content":"next  one","role":"user"},"turns":[{"response":{ "content" : "done" , "role":"assistant"},"results":null}]}]}}`,
	} {
		byAnswer, byHandle := NewHandler(Reference{}), NewHandler(Reference{})
		for _, h := range []*Handler{byAnswer, byHandle} { // window w1, for window.trim
			AnswerLine(context.Background(), h, []byte(`{"jsonrpc":"2.0","id":0,"method":"window.create","params":{"config":{"max_messages":3,"preserve_first_n":1}}}`))
		}
		resp, _ := answer(context.Background(), byAnswer, []byte(line))
		require.NotNil(t, resp, line)
		require.Nil(t, resp.Error, line)
		req, err := decodeRequest([]byte(line))
		require.NoError(t, err)
		result, err := byHandle.Handle(context.Background(), req.Method, req.Params)
		require.NoError(t, err, line)
		want, err := Marshal(result)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(resp.Result), line)
	}
}
