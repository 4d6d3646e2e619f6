package gen

import (
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// TestSendsOnly: a message is found wherever it is — nested in objects and
// arrays, its role member spelled with escapes — and a value with no
// message, or none in an undeclared format, is sent.
func TestSendsOnly(t *testing.T) {
	openai := []string{protocol.FormatOpenAI}
	toolUse := `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`
	for _, c := range []struct {
		v    any
		want bool
	}{
		{map[string]any{"text": "no message here <&>"}, true},
		{map[string]any{"messages": []json.RawMessage{json.RawMessage(`{"role":"user","content":"hi"}`)}}, true},
		{map[string]any{"messages": []json.RawMessage{json.RawMessage(toolUse)}}, false},
		{[]any{map[string]any{"params": map[string]any{"x": []json.RawMessage{json.RawMessage(toolUse)}}}}, false},
		{json.RawMessage(`{"a":[null,1,"s",{"b":` + toolUse + `}]}`), false},
		{json.RawMessage(`{"m":{"\u0072ole":"assistant","content":[{"type":"tool_result","tool_use_id":"t","content":"r"}]}}`), false},
		{json.RawMessage(`{"m":{"role":"tool","tool_call_id":"c","content":"r"}}`), true},
		{json.RawMessage(`null`), true},
	} {
		raw, _ := json.Marshal(c.v)
		if got := SendsOnly(openai, c.v); got != c.want {
			t.Errorf("SendsOnly(openai, %s) = %v, want %v", raw, got, c.want)
		}
		if !SendsOnly(nil, c.v) {
			t.Errorf("SendsOnly(nil, %s) = false, want true: both formats", raw)
		}
	}
}
