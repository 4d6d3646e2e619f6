package jsoncmp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
)

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`{"a":1,"b":[1,2]}`, `{ "b": [1, 2], "a": 1.0 }`, true},
		{`1e3`, `1000`, true},
		{`-0`, `0`, true},
		{`"\u00e9"`, `"é"`, true},
		{`{"a":1}`, `{"a":1,"b":null}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`[1,2]`, `[1,2,3]`, false},
		{`null`, `false`, false},
		{`"1"`, `1`, false},
		{`0.1`, `0.10000000000000001`, true},
		{`1e400`, `1e400`, true},
		{`1e400`, `2e400`, false},
		{`{"a":1}`, `not json`, false},
		{`{"a":1} {}`, `{"a":1}`, false},
		{`1]`, `1`, false},
		{`1]`, `1]`, false},
		{`{"a":1}}`, `{"a":1}`, false},
		{"1 \n", `1`, true},
	} {
		assert.Equal(t, c.want, Equal([]byte(c.a), []byte(c.b)), "Equal(%s, %s)", c.a, c.b)
	}
}

func TestDiffJSON(t *testing.T) {
	for _, c := range []struct {
		want, got string
		diff      string
	}{
		{`{"a":[1,{"b":"x"}]}`, `{"a":[1.0,{"b":"x"}]}`, ""},
		{`{"a":[1,{"b":"x"}]}`, `{"a":[1,{"b":"y"}]}`, `$.a[1].b: want "x", got "y"`},
		{`{"a":1}`, `{}`, `$.a: want 1, got nothing: the member is missing`},
		{`{}`, `{"with space":1}`, `$["with space"]: want nothing: no such member, got 1`},
		{`[1,2,3]`, `[1,2]`, `$[2]: want 3, got nothing: the array is shorter`},
		{`{"a":"1"}`, `{"a":1}`, `$.a: want "1", got 1`},
		{`{"b":1,"a":2}`, `{"b":2,"a":3}`, `$.a: want 2, got 3`},
	} {
		assert.Equal(t, c.diff, DiffJSON("$", []byte(c.want), []byte(c.got)).String(), "DiffJSON(%s, %s)", c.want, c.got)
	}
}

func TestCompare(t *testing.T) {
	result := func(s string) Response { return Response{Result: json.RawMessage(s)} }
	failure := func(kind string, data string) Response {
		e := protocol.NewError(kind, "some text")
		if data != "" {
			require.NoError(t, json.Unmarshal([]byte(data), e.Data))
			e.Data.Kind = kind
		}
		return Response{Error: e}
	}
	for _, c := range []struct {
		name, method string
		want, got    Response
		diff         string
	}{
		{"equal", "window.trim", result(`{"trimmed":[{"role":"user","content":"a"}]}`), result(`{"trimmed":[{"content":"a","role":"user"}]}`), ""},
		{"the same text, not JSON", "window.trim", result(`{"a":1,}`), result(`{"a":1,}`), `result: want JSON, got {"a":1,}`},
		{"extra top-level member", "window.trim", result(`{"a":1}`), result(`{"a":1,"extra":true}`), ""},
		{"extra nested member", "window.trim", result(`{"a":{"b":1}}`), result(`{"a":{"b":1,"c":2}}`), `result.a.c: want nothing: no such member, got 2`},
		{"null may be absent", "window.trim", result(`{"summary":null}`), result(`{}`), ""},
		{"missing member", "window.trim", result(`{"summary":1}`), result(`{}`), `result.summary: want 1, got nothing: the member is missing`},
		{"warning message free", "window.create", result(`{"window":"w1","warnings":[{"code":"c","message":"x"}]}`), result(`{"window":"h","warnings":[{"code":"c","message":"y"}]}`), ""},
		{"warning code counts", "window.create", result(`{"window":"w1","warnings":[{"code":"c","message":"x"}]}`), result(`{"window":"h","warnings":[{"code":"d","message":"x"}]}`), `result.warnings[0].code: want "c", got "d"`},
		{"empty handle", "window.create", result(`{"window":"w1"}`), result(`{"window":""}`), `result.window: want a handle (a non-empty string), got ""`},
		{"event error free", "budget.prepare", result(`{"events":[{"event":"context_compression_failed","error":"x"}]}`), result(`{"events":[{"event":"context_compression_failed","error":"y"}]}`), ""},
		{"loop fixed text", "loop.run", result(`{"iterations":[{"events":[{"code":"conversation_metrics","message":"x"}]}]}`), result(`{"iterations":[{"events":[{"code":"conversation_metrics","message":"y"}]}]}`), `result.iterations[0].events[0].message: want "x", got "y"`},
		{"loop free text", "loop.run", result(`{"iterations":[{"events":[{"code":"summary_failed","message":"x"}]}]}`), result(`{"iterations":[{"events":[{"code":"summary_failed","message":"y"}]}]}`), ""},
		{"loop free text elsewhere is compared", "window.trim", result(`{"iterations":[{"events":[{"code":"summary_failed","message":"x"}]}]}`), result(`{"iterations":[{"events":[{"code":"summary_failed","message":"y"}]}]}`), `result.iterations[0].events[0].message: want "x", got "y"`},
		{"error kinds", "budget.check", failure("unknown_model", ""), failure("invalid_params", ""), `error.kind: want "unknown_model", got "invalid_params" (some text)`},
		{"error data", "budget.prepare", failure("context_window_exhausted", `{"tokenCount":5,"limit":4}`), failure("context_window_exhausted", `{"tokenCount":6,"limit":4}`), `error.data.tokenCount: want 5, got 6`},
		{"error data may say more", "budget.check", failure("unknown_model", ""), failure("unknown_model", `{"model":"x"}`), ""},
		{"error message free", "budget.check", failure("unknown_model", ""), Response{Error: &protocol.Error{Code: -32003, Message: "other"}}, ""},
		{"error for result", "budget.check", result(`{"tokens":1}`), failure("unknown_model", ""), `result: want a result {"tokens":1}, got the error "unknown_model: some text"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.diff, Compare(c.method, c.want, c.got, Rules{}).String())
		})
	}
}

func TestCompareOpen(t *testing.T) {
	rules := Rules{Open: []Pattern{{Method: "x", Path: "a[*].b"}}}
	want, got := Response{Result: json.RawMessage(`{"a":[{"b":1,"c":1}]}`)}, Response{Result: json.RawMessage(`{"a":[{"b":2,"c":1}]}`)}
	assert.Nil(t, Compare("x", want, got, rules))
	assert.Equal(t, `result.a[0].b: want 1, got 2`, Compare("y", want, got, rules).String())
}

// TestWithoutFreeText: the steps leave out of a member's elements exactly
// the free text FreeText names, and nothing else.
func TestWithoutFreeText(t *testing.T) {
	for _, tc := range []struct{ member, in, want string }{
		{"warnings", `[{"code":"c","message":"for people","indexes":[1]}]`, `[{"code":"c","indexes":[1]}]`},
		{"events", `[{"event":"context_compression_failed","error":"quota"}]`, `[{"event":"context_compression_failed"}]`},
		{"events", `[{"event":"context_compressed","originalTokenCount":9}]`, `[{"event":"context_compressed","originalTokenCount":9}]`},
		{"other", `[{"message":"kept"}]`, `[{"message":"kept"}]`},
		{"warnings", `not json`, `not json`},
	} {
		if got := string(WithoutFreeText(tc.member, []byte(tc.in))); !Equal([]byte(got), []byte(tc.want)) && got != tc.want {
			t.Errorf("WithoutFreeText(%q, %s) = %s, want %s", tc.member, tc.in, got, tc.want)
		}
	}
}
