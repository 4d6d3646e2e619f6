package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		doc  string
		errs []string
	}{
		{"valid", `{"version":1,"implementation":"x","entries":[{"id":"A/b","reason":"r"}]}`, nil},
		{"wrong const", `{"version":2,"implementation":"x","entries":[]}`, []string{"$.version: value must be 1"}},
		{"missing member", `{"implementation":"x","entries":[]}`, []string{"$.version is missing"}},
		{"short string and unknown member", `{"version":1,"implementation":"x","entries":[{"id":"","reason":"r","x":1}]}`,
			[]string{"$.entries[0]: additional properties 'x' not allowed", "$.entries[0].id: minLength: got 0, want 1"}},
		{"wrong types", `{"version":1,"implementation":7,"entries":{}}`,
			[]string{"$.entries must be array, got object", "$.implementation must be string, got number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			errs, err := Validate(Baseline, []byte(tc.doc))
			require.NoError(t, err)
			got := make([]string, len(errs))
			for i, e := range errs {
				got[i] = e.Error()
			}
			assert.ElementsMatch(t, tc.errs, got)
		})
	}
}

func TestValidateUnreadable(t *testing.T) {
	_, err := Validate([]byte(`{"type": 7}`), []byte(`{}`))
	assert.ErrorContains(t, err, "schema")
	_, err = Validate(Baseline, []byte(`{"version":`))
	assert.ErrorContains(t, err, "document")
}

func TestResult(t *testing.T) {
	const trim = `"trimmed":[],"evicted":[],"warnings":[]`
	for _, tc := range []struct {
		name, method, raw, err string
	}{
		{"valid", "window.trim", `{` + trim + `,"metrics":{"totalMessages":1,"preservedMessages":1,"evictedMessages":0,"estimatedTokens":2}}`, ""},
		{"a missing member", "window.trim", `{` + trim + `}`, "result.metrics is missing"},
		{"a null member is missing", "window.trim", `{` + trim + `,"metrics":null}`, "result.metrics is missing"},
		{"a missing nested member", "window.trim", `{` + trim + `,"metrics":{"totalMessages":1,"preservedMessages":1,"estimatedTokens":2}}`, "result.metrics.evictedMessages is missing"},
		{"a wrong type", "window.estimate", `{"tokens":"7"}`, "result.tokens must be integer, got string"},
		{"not an object", "window.estimate", `[1]`, "result must be object, got array"},
		{"null", "window.estimate", `null`, "result must be object, got null"},
		{"a member of an array element", "loop.run", `{"config":{"max_messages":1,"summarize_on_trim":false,"preserve_first_n":1,"preserve_last_n":0},"requests":[],"summarizer_calls":[],"iterations":[{"state":[],"events":[]}]}`, "result.iterations[0].metrics is missing"},
		{"shutdown answers null", "shutdown", `null`, ""},
		{"a handshake with levels and formats", "initialize", `{"protocol":1,"implementation":{},"capabilities":[],"levels":["core"],"formats":null}`, ""},
		{"a handshake's levels are strings", "initialize", `{"protocol":1,"implementation":{},"capabilities":[],"levels":"core"}`, "result.levels must be"},
		{"a handshake's formats are strings", "initialize", `{"protocol":1,"implementation":{},"capabilities":[],"formats":[1]}`, "result.formats[0] must be string"},
		{"an unknown method", "window.unknown", `{}`, "no result schema"},
		{"not JSON", "window.estimate", `{`, "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Result(tc.method, []byte(tc.raw))
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.err)
		})
	}
}
