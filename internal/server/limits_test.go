package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// loopRunLine is a loop.run of n iterations of one prompt of size bytes
// and one reply each, with max_messages m.
func loopRunLine(n, size, m int) []byte {
	prompt, _ := json.Marshal(map[string]string{"role": "user", "content": strings.Repeat("x", size)})
	var its []string
	for i := 0; i < n; i++ {
		its = append(its, fmt.Sprintf(`{"prompt":%s,"turns":[{"response":{"role":"assistant","content":"ok"},"results":[]}]}`, prompt))
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"loop.run","params":{"config":{"format":"json","text":"{\"execution\":{\"max_conversation_messages\":%d}}"},"initial":[],"iterations":[%s]}}`,
		m, strings.Join(its, ","))
}

// TestLoopRunAnswerBounded: a loop.run whose answer would exceed the
// protocol's limit on a result is refused with invalid_params naming the
// limit, before the answer is built; the same run with trimming on, whose
// answer stays small, is answered (protocol.md, "Limits").
func TestLoopRunAnswerBounded(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	var resp protocol.Response
	// 1,000 iterations of a 30 KB prompt: about 15 GB untrimmed.
	out := server.AnswerLine(context.Background(), h, loopRunLine(1000, 30_000, 0))
	require.NoError(t, json.Unmarshal(out, &resp))
	require.NotNil(t, resp.Error, "an answer of tens of gigabytes was built: %.200s", out)
	assert.Equal(t, protocol.KindInvalidParams, resp.Error.Kind())
	assert.Contains(t, resp.Error.Message, fmt.Sprint(protocol.MaxResultBytes))

	out = server.AnswerLine(context.Background(), h, loopRunLine(200, 1000, 10))
	var trimmed protocol.Response
	require.NoError(t, json.Unmarshal(out, &trimmed))
	assert.Nil(t, trimmed.Error, "a trimmed run was refused: %.300s", out)
}

// TestServeRefusesLongLines: a request line over the limit is answered
// with invalid_request without being held whole, and the next line is
// answered as usual.
func TestServeRefusesLongLines(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"window.estimate","params":{"messages":[{"role":"user","content":"` + strings.Repeat("x", protocol.MaxLineBytes) + `"}]}}`
	ok := `{"jsonrpc":"2.0","id":2,"method":"window.estimate","params":{"messages":[]}}`
	var out bytes.Buffer
	require.NoError(t, server.Serve(context.Background(), server.NewHandler(server.Reference{}), strings.NewReader(long+"\n"+ok+"\n"), &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"kind":"invalid_request"`)
	assert.Contains(t, lines[0], "longer than the limit")
	assert.Contains(t, lines[1], `"id":2,"result"`)
}
