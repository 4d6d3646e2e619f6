package properties

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// traceBefore is trace as it was, decoding with encoding/json: the oracle
// marker is held to.
func traceBefore(raw json.RawMessage, in []gen.Message) traced {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return traced{at: -1}
	}
	var seq float64
	if json.Unmarshal(members[gen.MarkerName], &seq) != nil || seq != float64(int(seq)) || seq < 0 || int(seq) >= len(in) || in[int(seq)].Seq != int(seq) {
		return traced{at: -1}
	}
	at := int(seq)
	return traced{at: at, equal: jsoncmp.Equal(raw, in[at].Raw)}
}

// FuzzTraceAsDecoded: a returned message is traced to the input message
// encoding/json's decoding of its marker names, and found equal to it or
// not, whatever its text.
func FuzzTraceAsDecoded(f *testing.F) {
	in := []gen.Message{
		{Seq: 0, Raw: json.RawMessage(`{"role":"system","content":"s","x_seq":0}`)},
		{Seq: 1, Raw: json.RawMessage(`{"role":"user","content":"u","x_seq":1}`)},
		{Seq: -1, Raw: json.RawMessage(`{"role":"user","content":"no marker"}`)},
		{Seq: 3, Raw: json.RawMessage(`{"role":"assistant","content":[{"type":"text","text":"a"}],"x_seq":3}`)},
	}
	for _, m := range in {
		f.Add([]byte(m.Raw))
	}
	for _, seed := range []string{
		`{"x_seq":1,"content":"u","role":"user"}`, `{"role":"user","content":"u","x_seq":1.0}`, `{"role":"user","content":"u","x_seq":1e0}`,
		`{"x_seq":null}`, `{"x_seq":"1"}`, `{"x_seq":1.5}`, `{"x_seq":-1}`, `{"x_seq":-0}`, `{"x_seq":2}`, `{"x_seq":4}`, `{"x_seq":1e999}`,
		`{"x_seq":1e300}`, `{"x_seq":-1e300}`, `{"x_seq":0,"x_seq":1}`, `{"x_seq":1,"x_seq":null}`, `{"X_SEQ":1}`, `{"x\u005fseq":1,"role":"user","content":"u"}`,
		`null`, `[{"x_seq":1}]`, `1`, `{"x_seq":1`, `{"x_seq":1}}`, ``, "{\"x_seq\":1,\"\xff\":2}", `{"x_seq":true}`, `{"x_seq":[1]}`, `{"x_seq":{}}`,
		`{"role":"user", "content":"u", "x_seq":1}`, `{"role":"user","content":"\u0075","x_seq":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if got, want := trace(raw, in), traceBefore(raw, in); got != want {
			t.Fatalf("%q: traced %+v, encoding/json %+v", raw, got, want)
		}
	})
}

// containsTextBefore is containsText as it was, decoding with
// encoding/json: its oracle.
func containsTextBefore(raw json.RawMessage, text string) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return strings.Contains(string(raw), text)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return strings.Contains(x, text)
		case []any:
			return slices.ContainsFunc(x, walk)
		case map[string]any:
			for k, y := range x {
				if strings.Contains(k, text) || walk(y) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// FuzzContainsTextAsDecoded: containsText finds text where encoding/json's
// decoding of the value has it, and searches as written what that does not
// decode.
func FuzzContainsTextAsDecoded(f *testing.F) {
	for _, seed := range []struct{ raw, text string }{
		{`{"error":"summarizer failed: boom"}`, "boom"}, {`{"a":"\u0062oom"}`, "boom"}, {`{"a":"\u0062oom"}`, `\u0062`},
		{`{"boom":1}`, "boom"}, {`{"a":"boom","a":"x"}`, "boom"}, {`["x",["boom"]]`, "boom"}, {`[1e999,"\u0062oom"]`, "boom"}, {`["\u0062oom",1e999]`, "boom"},
		{`[1e999,"\u0062oom"]`, "e999"}, {`{"a":1e999}`, "a"}, {`"boom"`, "boom"}, {`12`, "1"}, {`{}`, ""}, {`[]`, ""}, {`""`, ""},
		{`true`, "true"}, {`null`, "null"}, {`{"a":`, "a"}, {"\"\xff\"", "\xff"}, {"\"\xff\"", "\uFFFD"}, {`"\ud800"`, "\uFFFD"},
		{`{"a":{"b":[{"c":"deep boom"}]}}`, "deep"}, {`{"a":"x","b":-0.5e-400}`, "x"},
	} {
		f.Add([]byte(seed.raw), seed.text)
	}
	f.Fuzz(func(t *testing.T, raw []byte, text string) {
		if got, want := containsText(raw, text), containsTextBefore(raw, text); got != want {
			t.Fatalf("%q in %q: %v, encoding/json's decoding %v", text, raw, got, want)
		}
	})
}

// BenchmarkTrace: a trim's returned messages traced to the input, one of
// them altered.
func BenchmarkTrace(b *testing.B) {
	var in []gen.Message
	var out []json.RawMessage
	for i, m := range []string{
		`{"role":"system","content":"You are a careful assistant.","x_seq":0}`,
		`{"role":"user","content":"What is the weather in \"Paris\"?\nAnd Lyon?","x_seq":1}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{}"}}],"x_seq":2}`,
		`{"role":"tool","tool_call_id":"call_1","content":"18 °C, clear","x_seq":3}`,
	} {
		in = append(in, gen.Message{Seq: i, Raw: json.RawMessage(m)})
		out = append(out, json.RawMessage(m))
	}
	out = append(out, json.RawMessage(`{"x_seq":3,"role":"tool","tool_call_id":"call_1","content":"18 °C, clear"}`))
	for b.Loop() {
		for _, m := range out {
			if trace(m, in).at < 0 {
				b.Fatal("not traced")
			}
		}
	}
}
