package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// FuzzAnswerLine: whatever line arrives, the server answers with a
// well-formed JSON-RPC response (or nothing, for a notification) and never
// panics (PROTO-2).
func FuzzAnswerLine(f *testing.F) {
	for _, seed := range []string{
		`this is not json`,
		`[1,2,3]`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1}}`,
		`{"jsonrpc":"2.0","id":2,"method":"window.create","params":{"config":{"max_messages":-1}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"window.trim","params":{"window":"w1","messages":[{"role":"user","content":"\ud800"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"window.estimate","params":{"messages":[{"role":"user","content":[1e400,{"a":"\u0001"}]}]}}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"window.estimate","params":{"messages":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"window.create","params":{"config":{"preserve_first_n":1e300}}}`,
		`{"JSONRPC":"2.0","Id":6,"Method":"window.estimate","Params":{"messages":[]}}`,
		`{"jsonrpC":"2.0","id[":1,"method":"shutdown"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xff\xfe\",\"method\":\"shutdown\"}",
		`{"jsonrpc":"2.0","id":7,"method":"budget.prune","params":{"model":"gpt-4o","messages":[{"role":"user","content":"a"}],"target_ratio":1e-12}}`,
		`{"jsonrpc":"2.0","id":8,"method":"window.summarize","params":{"messages":[{"role":"user","content":"a"}],"summarizer":{"reply":"s","timeout_ms":9223372036855}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"budget.count","params":{"model":"m","messages":[],"limits":{"m":3e3}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"config.resolve","params":{"config":{"format":"yaml","text":"summarize_on_trim: !!bool\n"}}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h := server.NewHandler(server.Reference{})
		// a window exists so that trims can reach the engine
		server.AnswerLine(context.Background(), h, []byte(`{"jsonrpc":"2.0","id":0,"method":"window.create","params":{"config":{"max_messages":2}}}`))
		// a scripted summarizer may ask for any delay: the bound is the context's
		ctx, cancel := context.WithTimeout(context.Background(), fuzzRequestBound)
		defer cancel()
		start := time.Now()
		out := server.AnswerLine(ctx, h, line)
		// Only a hang reaches this bound; how fast the answer came is not
		// checked (D-44: no timed assertion, a loaded runner is slow).
		if took := time.Since(start); took > fuzzRequestBound+time.Minute {
			t.Fatalf("answering %q took %v: the request bound %v did not end it", line, took, fuzzRequestBound)
		}
		var members map[string]json.RawMessage
		isObject := json.Unmarshal(line, &members) == nil
		if out == nil {
			var method string
			if !isObject || members["id"] != nil || string(members["jsonrpc"]) != `"2.0"` || json.Unmarshal(members["method"], &method) != nil || method == "" {
				t.Fatalf("no response to %q, which is not a valid notification", line)
			}
			return
		}
		if !utf8.Valid(out) {
			t.Fatalf("response to %q is not UTF-8: %q", line, out)
		}
		if bytes.ContainsRune(out, '\n') {
			t.Fatalf("response contains a raw newline: %q", out)
		}
		var got map[string]json.RawMessage
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatalf("response %q is not a JSON object: %v", out, err)
		}
		for name := range got {
			if name != "jsonrpc" && name != "id" && name != "result" && name != "error" {
				t.Fatalf("response %q has member %q, not one of the protocol's exact names", out, name)
			}
		}
		if string(got["jsonrpc"]) != `"2.0"` {
			t.Fatalf("response %q: jsonrpc is not \"2.0\"", out)
		}
		if id, ok := got["id"]; !ok || (string(id) != "null" && !bytes.Equal(compact(t, id), compact(t, members["id"]))) {
			t.Fatalf("response %q: id is not the request's %s (nor null)", out, members["id"])
		}
		var resp protocol.Response
		if err := json.Unmarshal(out, &resp); err != nil {
			t.Fatalf("response %q is not JSON: %v", out, err)
		}
		if (resp.Error == nil) == (resp.Result == nil) {
			t.Fatalf("response %q must have exactly one of result and error", out)
		}
		if resp.Error != nil {
			if resp.Error.Kind() == "" {
				t.Fatalf("error without kind: %q", out)
			}
			if resp.Error.Kind() == protocol.KindInternalError {
				t.Fatalf("internal error (a bug) for %q: %s", line, resp.Error.Message)
			}
		}
	})
}

// fuzzRequestBound bounds one fuzzed request; the reference answers any
// request without a summarizer delay in far less.
const fuzzRequestBound = 2 * time.Second

func compact(t *testing.T, raw json.RawMessage) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}

func TestServeStopsAtShutdownAndEOF(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"shutdown"}` + "\n")
	var out bytes.Buffer
	require.NoError(t, server.Serve(context.Background(), h, in, &out))
	require.Equal(t, 1, strings.Count(out.String(), "\n"), "lines Serve answered, up to shutdown: %q", out.String())
	out.Reset()
	require.NoError(t, server.Serve(context.Background(), h, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"window.estimate","params":{"messages":[]}}`), &out))
	require.Contains(t, out.String(), `"result":{"tokens":0}`, "a last line without newline was not answered")
}

// TestEveryMethodIsServed: the reference answers every method of protocol
// v1 with something other than method_not_found.
func TestEveryMethodIsServed(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	for _, m := range protocol.Methods() {
		_, err := h.Handle(context.Background(), m, nil)
		var pe *protocol.Error
		if errors.As(err, &pe) {
			assert.NotEqual(t, protocol.KindMethodNotFound, pe.Kind(), "%s: %v", m, err)
		}
	}
}
