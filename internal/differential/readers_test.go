package differential

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// normalizeBefore is normalize as it was, decoding the result into a map
// and encoding it again: the oracle normalize is held to.
func normalizeBefore(method string, r jsoncmp.Response) jsoncmp.Response {
	if method != protocol.MethodWindowTrim || r.Error != nil {
		return r
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(r.Result, &m) != nil || m == nil {
		return r
	}
	if _, ok := m["summarizer_calls"]; ok {
		return r
	}
	m["summarizer_calls"] = json.RawMessage("[]")
	b, err := json.Marshal(m)
	if err != nil {
		return r
	}
	return jsoncmp.Response{Result: b}
}

var trimSeeds = []string{
	`{"window":"w1","messages":[{"role":"user","content":"a"}],"trimmed":0}`, `{"summarizer_calls":[],"messages":[]}`,
	`{"messages":[],"summarizer_calls":[{"input":[]}]}`, `{}`, ` { } `, `null`, `[]`, `"x"`, `{"a":1,"a":2}`, `{"a":"<&>\u2028"}`,
	`{"summarizer_calls":null}`, `{"summarizer\u005fcalls":[1]}`, `{"SUMMARIZER_CALLS":[1]}`, "{\"\xff\":1,\"\\ufffd\":2}", "{\"a\":\"\xff\"}",
	`{"a":1.0,"b":1e2}`, `{"a":`, ``, ` {"messages" : [ {"x_seq": 0} ] } `, `{"b":2,"a":1}`, `{"a":1,"b":2}`,
}

// FuzzNormalizeAsDecoded: what normalize writes decodes to the value the
// old re-encoding decoded to, and is the text itself where that left the
// text alone.
func FuzzNormalizeAsDecoded(f *testing.F) {
	for _, s := range trimSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, method := range []string{protocol.MethodWindowTrim, protocol.MethodWindowCreate} {
			got := normalize(method, jsoncmp.Response{Result: raw})
			want := normalizeBefore(method, jsoncmp.Response{Result: raw})
			if bytes.Equal(want.Result, raw) {
				if !bytes.Equal(got.Result, raw) {
					t.Fatalf("%s %q: written as %q, where it was left as it was", method, raw, got.Result)
				}
				continue
			}
			gv, gerr := jsoncmp.Decode(got.Result)
			wv, werr := jsoncmp.Decode(want.Result)
			if gerr != nil || werr != nil || !reflect.DeepEqual(gv, wv) {
				t.Fatalf("%s %q: written as %q (%v), which decodes to %#v; the re-encoding %q (%v) to %#v", method, raw, got.Result, gerr, gv, want.Result, werr, wv)
			}
		}
	})
}

// FuzzCompareNormalizedAsBefore: two trim results compare as they did
// when both were decoded and encoded again, the same difference or none.
func FuzzCompareNormalizedAsBefore(f *testing.F) {
	for i, s := range trimSeeds {
		f.Add([]byte(s), []byte(trimSeeds[(i+1)%len(trimSeeds)]))
		f.Add([]byte(s), []byte(s))
	}
	f.Add([]byte(`{"a":1,"b":2}`), []byte(`{"b":2,"a":1}`))
	f.Add([]byte(`{"a":1,"a":3}`), []byte(`{"a":3}`))
	f.Add([]byte(`{"trimmed":[{"content":"x"}]}`), []byte(`{"trimmed":[{"content":"y"}],"summarizer_calls":[]}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		for _, rules := range []jsoncmp.Rules{{Open: openMembers}, {Open: diagnosticsMembers}} {
			got := jsoncmp.Compare(protocol.MethodWindowTrim, normalize(protocol.MethodWindowTrim, jsoncmp.Response{Result: a}),
				normalize(protocol.MethodWindowTrim, jsoncmp.Response{Result: b}), rules)
			want := jsoncmp.Compare(protocol.MethodWindowTrim, normalizeBefore(protocol.MethodWindowTrim, jsoncmp.Response{Result: a}),
				normalizeBefore(protocol.MethodWindowTrim, jsoncmp.Response{Result: b}), rules)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q against %q: %v, as before %v", a, b, got, want)
			}
		}
	})
}

// FuzzHandleAndCountAsUnmarshal: a window.create's handle and a
// budget.count's tokens are what json.Unmarshal made of the result.
func FuzzHandleAndCountAsUnmarshal(f *testing.F) {
	for _, s := range []string{
		`{"window":"w1"}`, `{"window":"w1","window":"w2"}`, `{"WINDOW":"w3"}`, `{"window":null}`, `{"window":1}`, `{"window":"\u0077"}`,
		`{"tokens":12,"per_message":[3,4,5]}`, `{"tokens":12.0}`, `{"tokens":"12"}`, `{"tokens":1e2}`, `{"per_message":[1],"per_message":[2]}`,
		`{"Tokens":7,"tokens":null}`, `{"tokens":99999999999999999999}`, `null`, `[]`, `{"tokens":`, ``, "{\"window\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var res struct {
			Window string `json:"window"`
		}
		wantHandle := res.Window
		if json.Unmarshal(raw, &res) == nil {
			wantHandle = res.Window
		}
		if got := handleOf(jsoncmp.Response{Result: raw}); got != wantHandle {
			t.Fatalf("%q: handle %q, json.Unmarshal %q", raw, got, wantHandle)
		}
		var count protocol.BudgetCountResult
		wantTokens := -1
		if json.Unmarshal(raw, &count) == nil {
			wantTokens = count.Tokens
		}
		if got := tokensOf(raw); got != wantTokens {
			t.Fatalf("%q: tokens %d, json.Unmarshal %d", raw, got, wantTokens)
		}
	})
}

// BenchmarkNormalize: a trim result without summarizer_calls.
func BenchmarkNormalize(b *testing.B) {
	r := jsoncmp.Response{Result: []byte(`{"messages":[{"role":"system","content":"You are a careful assistant.","x_seq":0},{"role":"user","content":"What is the weather in \"Paris\"?\nAnd Lyon?","x_seq":1},{"role":"tool","tool_call_id":"call_1","content":"18 °C, clear","x_seq":3}],"trimmed":2,"tokens":51}`)}
	for b.Loop() {
		normalize(protocol.MethodWindowTrim, r)
	}
}
