package message

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkFromRaw parses 50 messages of the shapes an agent loop sends,
// as every request that carries a conversation does (compare with
// -benchmem).
func BenchmarkFromRaw(b *testing.B) {
	raws := make([]json.RawMessage, 50)
	for i := range raws {
		switch i % 3 {
		case 0:
			raws[i] = json.RawMessage(fmt.Sprintf(`{"role":"user","content":"message number %d of the conversation, with some words in it"}`, i))
		case 1:
			raws[i] = json.RawMessage(fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_%d","type":"function","function":{"name":"read_file","arguments":"{\"path\":\"a.go\"}"}}]}`, i))
		default:
			raws[i] = json.RawMessage(fmt.Sprintf(`{"role":"tool","tool_call_id":"call_%d","content":"package main\nfunc main() {}"}`, i-1))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromRaw(raws); err != nil {
			b.Fatal(err)
		}
	}
}
