package server

import (
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/message"
)

// TestMemoizedCountsAreTheDeclaredCounts: the model trimmers that count
// each message once (memoSum) count every suffix of a conversation as the
// judge counts it whole, so that they trim as when they counted every
// suffix again.
func TestMemoizedCountsAreTheDeclaredCounts(t *testing.T) {
	msgs, err := message.FromRaw([]json.RawMessage{
		json.RawMessage(`{"role":"system","content":"be brief"}`),
		json.RawMessage(`{"role":"user","content":"what is the weather in Zürich 😀 today?"}`),
		json.RawMessage(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Zürich\"}"}}]}`),
		json.RawMessage(`{"role":"tool","tool_call_id":"c1","content":"sunny, 21 degrees"}`),
		json.RawMessage(`{"role":"user","content":[{"type":"text","text":"and tomorrow?"},{"type":"image","source":{"data":"abc"}}]}`),
		json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"rain"},{"type":"tool_use","id":"t1","name":"x","input":{}}]}`),
		json.RawMessage(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tr := range ModelTrimmers() {
		var memo, whole func([]message.Message) int
		switch tr.Decl.Name {
		case ModelSlack, ModelFallback:
			d := tr.Decl
			memo, whole = memoSum(0, declaredCount(d)), func(m []message.Message) int { return trimout.Count(d, raw(m)) }
		case ModelNative:
			memo, whole = memoSum(nativeBase, nativeCount), NativeCount
		default:
			continue
		}
		checked++
		for i := range msgs {
			for j := i; j <= len(msgs); j++ {
				if got, want := memo(msgs[i:j]), whole(msgs[i:j]); got != want {
					t.Errorf("%s: messages %d to %d count %d, counted whole %d", tr.Decl.Name, i, j, got, want)
				}
			}
		}
		if tr.Decl.Counter != protocol.CounterNative && whole(msgs) == 0 {
			t.Errorf("%s: the conversation counts nothing", tr.Decl.Name)
		}
	}
	if checked != 3 {
		t.Fatalf("checked %d model trimmers, want 3", checked)
	}
}
