package server

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// FuzzEncodeResultAsMarshal: the results that return messages are encoded
// byte for byte as Marshal encodes them, whatever valid JSON their messages
// hold and wherever its white space is.
func FuzzEncodeResultAsMarshal(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":"a b"}`, ` { "role" : "user" , "content" : [ 1 , { "a" : "x \" y" } ] } `,
		"{\"role\":\"assistant\",\r\n\t\"content\":\"\\\\\",\"tool_calls\":[{\"id\":\"c\"}]}\n", `"<&> \u2028 é"`, `[ ]`, `null`, `1.50`,
		`{"a":"\"","b":"\\","c":" \t "}`, `{"k":"x\\\" y"}`, `["\u00000"]`, `["\u00001"]`, `{"a":["\u00002"],"b":["\u00003"]}`,
		`["\u0000x"]`, `["\u00000`, `["\u0000+1"]`, `["\u000001"]`,
	} {
		f.Add([]byte(s), []byte(`{"role":"user","content":"second"}`))
	}
	f.Add([]byte(`{"role":`), []byte(`{"role":"user"}`)) // not JSON: Marshal's error, never a line that is not JSON
	f.Add([]byte(`{"role":"user"} x`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		two := []json.RawMessage{a, b}
		for _, result := range []any{
			protocol.TrimmerTrimResult{Messages: two}, protocol.TrimmerTrimResult{}, protocol.TrimmerTrimResult{Messages: []json.RawMessage{}},
			protocol.WindowTrimResult{Trimmed: two, Evicted: []json.RawMessage{b}, Warnings: []protocol.Warning{{Code: "w", Message: "<m>"}}, Summary: a},
			protocol.WindowTrimResult{Trimmed: []json.RawMessage{}, Summary: json.RawMessage("null")},
			protocol.BudgetPruneResult{Messages: two, Removed: []int{1}},
			protocol.HistoryPruneResult{Messages: []json.RawMessage{nil, a}, Removed: []int{}},
			protocol.HistoryBuildResult{Messages: two, Warnings: []protocol.Repair{}},
			protocol.BudgetCountResult{Tokens: 3, PerMessage: []int{1, 2}},
			protocol.LoopRunResult{Requests: []protocol.LoopRequest{{Iteration: 1, Messages: two}, {Iteration: 2}, {Messages: []json.RawMessage{b}}},
				Iterations:      []protocol.LoopIterationResult{{State: two, Events: []protocol.Warning{}}, {State: []json.RawMessage{}}},
				SummarizerCalls: []protocol.SummarizerCall{{Prompt: string(a) + "<s>", MaxTokens: 2}}},
			protocol.LoopRunResult{},
		} {
			want, wantErr := Marshal(result)
			got, gotErr := encodeResult(result)
			if !bytes.Equal(got, want) || (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("%T of %q, %q:\n got  %s (%v)\n want %s (%v)", result, a, b, got, gotErr, want, wantErr)
			}
		}
	})
}
