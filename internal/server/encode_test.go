package server

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEncodeResponseAsMarshal: a response line written around the encoded
// result is the very line encoding/json writes for the whole response, for
// results that hold escapes, HTML characters, non-ASCII text and the
// messages a trim returns, under number and string ids, and for errors.
func TestEncodeResponseAsMarshal(t *testing.T) {
	h := NewHandler(Reference{})
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1,"suite":"convspec"}}`,
		`{"jsonrpc":"2.0","id":"a\u00e9 <b>","method":"window.create","params":{"config":{"max_messages":3}}}`,
		`{"jsonrpc":"2.0","id":-2.5e3,"method":"window.estimate","params":{"messages":[{"role":"user","content":"<&> \"quoted\" 😀 \u2028"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"window.trim","params":{"window":"w1","messages":[{"role":"system","content":"s"},{"role":"user","content":[{"type":"text","text":"a\\u0000b <x>"}],"x":{"b":1, "a":[1.0,2e0]}},{"role":"assistant","content":"é"},{"role":"user","content":"last"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"window.trim","params":{"window":"nope","messages":[]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"no.such.method"}`,
	} {
		resp, _ := answer(context.Background(), h, []byte(line))
		require.NotNil(t, resp, line)
		want, err := Marshal(resp)
		require.NoError(t, err)
		got, err := encodeResponse(resp)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), line)
	}
}
