package agentrun

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// shapeBefore is shapeOf as it was, decoding with encoding/json alone: the
// oracle readShape is held to.
func shapeBefore(m json.RawMessage) (shape, error) {
	var v struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID *string         `json:"tool_call_id"`
		ToolCalls  []struct {
			ID string `json:"id"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(m, &v); err != nil {
		return shape{}, err
	}
	s := shape{role: v.Role}
	for _, c := range v.ToolCalls {
		s.calls = append(s.calls, c.ID)
	}
	if v.ToolCallID != nil && v.Role == "tool" {
		s.results = append(s.results, *v.ToolCallID)
	}
	var blocks []struct {
		Type      string `json:"type"`
		ID        string `json:"id"`
		ToolUseID string `json:"tool_use_id"`
	}
	if json.Unmarshal(v.Content, &blocks) == nil {
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && v.Role == "assistant":
				s.calls = append(s.calls, b.ID)
			case b.Type == "tool_result" && v.Role == "user":
				s.results = append(s.results, b.ToolUseID)
			}
		}
	}
	return s, nil
}

// FuzzShapeAsDecoded: shapeOf reads every message as encoding/json
// decoded it, and refuses what it refused with the same words; the
// fallback aside, readShape must answer for the messages a loop sends.
func FuzzShapeAsDecoded(f *testing.F) {
	for _, seed := range []string{
		`{"role":"system","content":"be brief"}`, `{"role":"user","content":"hi"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2"}]}`,
		`{"role":"tool","tool_call_id":"c1","content":"42"}`, `{"role":"tool","tool_call_id":null,"content":"42"}`,
		`{"role":"user","tool_call_id":"c1"}`, `{"role":"tool","tool_call_id":"a","TOOL_CALL_ID":null}`,
		`{"role":"assistant","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t1","name":"f","input":{}}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},null,{"TYPE":"tool_result","Tool_Use_ID":"t2"}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":1}]}`, `{"role":"user","content":[1]}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"},1]}`, `{"role":"user","content":{}}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1"}],"content":"later"}`, `{"role":1}`, `{"tool_calls":{}}`,
		`{"tool_calls":[{"id":1}]}`, `{"tool_calls":[{"id":"a"}],"tool_calls":[{"id":"b"}]}`, `{"role":"tool","tool_call_id":5}`,
		`null`, `[]`, `"user"`, `{"role":"user"`, ``, `{"role":"\u0074ool","tool_call_id":"\ud800"}`, "{\"role\":\"tool\",\"tool_call_id\":\"\xff\"}",
		`{"Role":"assistant","Tool_Calls":[{"ID":"x"},null]}`, ` {"role" : "user" , "content" : [ ] } `,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, m []byte) {
		got, gotErr := shapeOf(m)
		want, wantErr := shapeBefore(m)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got  %#v, %v\n want %#v, %v", m, got, gotErr, want, wantErr)
		}
	})
}

// TestReadShapeAnswers: the messages a loop sends are read in place, not
// decoded again by encoding/json.
func TestReadShapeAnswers(t *testing.T) {
	for _, m := range []string{
		`{"role":"system","content":"be brief"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"tool","tool_call_id":"c1","content":"42"}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"x"}]}`,
	} {
		if _, ok := readShape(json.RawMessage(m)); !ok {
			t.Errorf("%s was left to encoding/json", m)
		}
	}
}

// BenchmarkShapeOf: the messages of an OpenAI and an Anthropic loop.
func BenchmarkShapeOf(b *testing.B) {
	msgs := []json.RawMessage{
		json.RawMessage(`{"role":"system","content":"You are a careful assistant. Answer briefly."}`),
		json.RawMessage(`{"role":"user","content":"What is the weather in Paris, and in \"Lyon\"?","x_seq":1}`),
		json.RawMessage(`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Paris\"}"}},{"id":"call_2","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Lyon\"}"}}]}`),
		json.RawMessage(`{"role":"tool","tool_call_id":"call_1","content":"18 °C, clear"}`),
		json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}}]}`),
		json.RawMessage(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"18 °C, clear"}]}`),
	}
	for b.Loop() {
		for _, m := range msgs {
			if _, err := shapeOf(m); err != nil {
				b.Fatal(err)
			}
		}
	}
}
