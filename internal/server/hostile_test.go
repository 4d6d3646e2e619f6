package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// Hostile requests the reference once mishandled: each gets the answer
// named, never internal_error, a wrong reading, or a hang.
func TestHostileRequests(t *testing.T) {
	const msgs = `[{"role":"user","content":"hello there"}]`
	for _, tc := range []struct {
		name, params, method string
		wantKind             string // "" for a result
		wantIn               string // a substring of the response
	}{
		{"tagged bool without a value", `{"config":{"format":"yaml","text":"summarize_on_trim: !!bool\n"}}`, protocol.MethodConfigResolve, protocol.KindInvalidConfig, "not a boolean"},
		{"tagged bool tomato", `{"config":{"format":"yaml","text":"summarize_on_trim: !!bool tomato\n"}}`, protocol.MethodConfigResolve, protocol.KindInvalidConfig, "tomato"},
		{"tagged bool True", `{"config":{"format":"yaml","text":"summarize_on_trim: !!bool True\n"}}`, protocol.MethodConfigResolve, "", `"result"`},
		{"target_ratio 1e-12", `{"model":"gpt-4o","messages":` + msgs + `,"target_ratio":1e-12}`, protocol.MethodBudgetPrune, protocol.KindInvalidParams, "target_ratio"},
		{"target_ratio 1e-300", `{"model":"gpt-4o","messages":` + msgs + `,"target_ratio":1e-300}`, protocol.MethodBudgetPrune, protocol.KindInvalidParams, "target_ratio"},
		{"target_ratio 0.01", `{"model":"gpt-4o","messages":` + msgs + `,"target_ratio":0.01}`, protocol.MethodBudgetPrune, "", `"result"`},
		{"a limit that is a fraction names its member", `{"model":"m","messages":` + msgs + `,"limits":{"m":2.5}}`, protocol.MethodBudgetCheck, protocol.KindInvalidParams, "params.limits.m: must be a non-negative integer, got 2.5"},
		{"a delay that is a fraction names its member", `{"messages":` + msgs + `,"summarizer":{"reply":"s","delay_ms":2.5}}`, protocol.MethodWindowSummarize, protocol.KindInvalidParams, "params.summarizer.delay_ms: must be"},
		{"limit written 3e3", `{"model":"m","messages":` + msgs + `,"limits":{"m":3e3}}`, protocol.MethodBudgetCheck, "", `"result"`},
		{"limit written 1.0", `{"model":"m","messages":` + msgs + `,"limits":{"m":1.0}}`, protocol.MethodBudgetCheck, "", `"result"`},
		{"limit 2.5", `{"model":"m","messages":` + msgs + `,"limits":{"m":2.5}}`, protocol.MethodBudgetCheck, protocol.KindInvalidParams, "2.5"},
		{"limit above 2^53-1", `{"model":"m","messages":` + msgs + `,"limits":{"m":9007199254740992}}`, protocol.MethodBudgetCheck, protocol.KindInvalidParams, "9007199254740992"},
		{"delay written 1.0", `{"messages":` + msgs + `,"summarizer":{"reply":"s","delay_ms":1.0}}`, protocol.MethodWindowSummarize, "", `"result"`},
		{"timeout written 3e3", `{"messages":` + msgs + `,"summarizer":{"reply":"s","timeout_ms":3e3}}`, protocol.MethodWindowSummarize, "", `"result"`},
		{"timeout beyond a Duration", `{"messages":` + msgs + `,"summarizer":{"reply":"s","delay_ms":20,"timeout_ms":9223372036855}}`, protocol.MethodWindowSummarize, "", `"result"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := server.NewHandler(server.Reference{})
			line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": tc.method, "params": json.RawMessage(tc.params)})
			require.NoError(t, err)
			out := string(server.AnswerLine(context.Background(), h, line))
			var resp protocol.Response
			require.NoError(t, json.Unmarshal([]byte(out), &resp), out)
			if tc.wantKind == "" {
				require.Nil(t, resp.Error, "want a result, got %s", out)
			} else {
				require.NotNil(t, resp.Error, "want %s, got %s", tc.wantKind, out)
				require.Equal(t, tc.wantKind, resp.Error.Kind(), out)
			}
			require.Contains(t, out, tc.wantIn)
		})
	}
}

// A delay beyond what a time.Duration holds is a long delay, not none: the
// call gives up at its timeout.
func TestDelayBeyondADurationWaits(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	line := `{"jsonrpc":"2.0","id":1,"method":"window.summarize","params":{"messages":[{"role":"user","content":"a"}],"summarizer":{"reply":"s","delay_ms":9223372036855,"timeout_ms":100}}}`
	out := string(server.AnswerLine(ctx, h, []byte(line)))
	require.Contains(t, out, "did not answer", "a delay of 9223372036855 ms answered before its 100 ms timeout")
}

// TestRequestThatIsNotAnObject: a JSON line that is not an object is an
// invalid_request that says so in JSON's terms, not in Go's.
func TestRequestThatIsNotAnObject(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	for line, kind := range map[string]string{`[1,2]`: "an array", `"x"`: "a string", `7`: "a number", `null`: "null", `true`: "a boolean"} {
		out := string(server.AnswerLine(context.Background(), h, []byte(line)))
		assert.Contains(t, out, `"kind":"invalid_request"`, line)
		assert.Contains(t, out, "got "+kind, "%s: want it to say what it got", line)
		assert.NotContains(t, out, "Go value", "%s: want it in JSON's terms", line)
	}
}

// TestHandleParamsThatAreNotJSON: params handed to Handle that are not
// JSON (a caller outside a request line, which Serve checks whole) are
// refused as params that are not an object, as they always were, after
// what a method checks first; shutdown, which reads none, answers.
func TestHandleParamsThatAreNotJSON(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	for _, method := range []string{protocol.MethodWindowTrim, protocol.MethodTrimmerTrim, protocol.MethodTokensEncode, protocol.MethodInitialize} {
		_, err := h.Handle(context.Background(), method, json.RawMessage(`{"messages":[`))
		var pe *protocol.Error
		require.ErrorAs(t, err, &pe, method)
		assert.Equal(t, protocol.KindInvalidParams, pe.Kind(), method)
		assert.Equal(t, "params must be an object", pe.Message, method)
	}
	res, err := h.Handle(context.Background(), protocol.MethodShutdown, json.RawMessage(`{"x":`))
	assert.NoError(t, err)
	assert.Nil(t, res)
}
