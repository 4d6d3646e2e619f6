package target

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
)

// TestRequestLineAsMarshal: the request line written around encoded params
// is the line json.Marshal writes for the whole protocol.Request, for
// params with escapes, HTML characters and non-ASCII text, and for none.
func TestRequestLineAsMarshal(t *testing.T) {
	p := &Process{}
	for _, c := range []struct {
		method string
		params any
	}{
		{protocol.MethodShutdown, nil},
		{protocol.MethodInitialize, protocol.InitializeParams{Protocol: 1, Suite: "convspec"}},
		{protocol.MethodWindowTrim, map[string]any{"window": "w<1>", "messages": []json.RawMessage{json.RawMessage(`{"role": "user", "content": "a & b \u2028 é 😀 \"q\""}`)}}},
	} {
		var params json.RawMessage
		if c.params != nil {
			var err error
			params, err = json.Marshal(c.params)
			require.NoError(t, err)
		}
		line, id, err := p.request(c.method, params)
		require.NoError(t, err)
		want, err := json.Marshal(protocol.Request{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: c.method, Params: params})
		require.NoError(t, err)
		assert.Equal(t, string(want)+"\n", string(line), c.method)
	}
}
