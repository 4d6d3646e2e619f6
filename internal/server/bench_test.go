package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkAnswerTrim answers one request line as `conform serve` does: a
// window.trim of 50 messages (OpenAI tool units and plain text, max 20),
// from the line read to the response line written. With -benchmem it gives
// the bytes and allocations a request costs the server.
func BenchmarkAnswerTrim(b *testing.B) {
	var msgs []string
	for i := range 50 {
		switch i % 5 {
		case 1:
			msgs = append(msgs, fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"search","arguments":"{\"q\":\"item %d\"}"}}]}`, i, i))
		case 2:
			msgs = append(msgs, fmt.Sprintf(`{"role":"tool","tool_call_id":"call_%d","content":"result number %d: a few words of text"}`, i-1, i))
		default:
			msgs = append(msgs, fmt.Sprintf(`{"role":"user","content":"message number %d of the conversation, with some text é 😀"}`, i))
		}
	}
	h := NewHandler(Reference{})
	ctx := context.Background()
	AnswerLine(ctx, h, []byte(`{"jsonrpc":"2.0","id":1,"method":"window.create","params":{"config":{"max_messages":20}}}`))
	line := []byte(`{"jsonrpc":"2.0","id":2,"method":"window.trim","params":{"window":"w1","messages":[` + strings.Join(msgs, ",") + `]}}`)
	if out := AnswerLine(ctx, h, line); !strings.Contains(string(out), `"result"`) {
		b.Fatalf("no result: %s", out)
	}
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for range b.N {
		AnswerLine(ctx, h, line)
	}
}
