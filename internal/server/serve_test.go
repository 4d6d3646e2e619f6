package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

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
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		h := server.NewHandler(server.Reference{})
		// a window exists so that trims can reach the engine
		server.AnswerLine(context.Background(), h, []byte(`{"jsonrpc":"2.0","id":0,"method":"window.create","params":{"config":{"max_messages":2}}}`))
		out := server.AnswerLine(context.Background(), h, line)
		if out == nil {
			var req protocol.Request
			if json.Unmarshal(line, &req) != nil || len(req.ID) != 0 || req.JSONRPC != "2.0" || req.Method == "" {
				t.Fatalf("no response to %q, which is not a valid notification", line)
			}
			return
		}
		if bytes.ContainsRune(out, '\n') {
			t.Fatalf("response contains a raw newline: %q", out)
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

func TestServeStopsAtShutdownAndEOF(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"shutdown"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"shutdown"}` + "\n")
	var out bytes.Buffer
	if err := server.Serve(context.Background(), h, in, &out); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != 1 {
		t.Fatalf("Serve answered %d lines after shutdown, want 1: %q", got, out.String())
	}
	out.Reset()
	if err := server.Serve(context.Background(), h, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"window.estimate","params":{"messages":[]}}`), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"result":{"tokens":0}`) {
		t.Fatalf("a last line without newline was not answered: %q", out.String())
	}
}

// TestEveryMethodIsServed: the reference answers every method of protocol
// v1 with something other than method_not_found.
func TestEveryMethodIsServed(t *testing.T) {
	h := server.NewHandler(server.Reference{})
	for _, m := range protocol.Methods() {
		_, err := h.Handle(context.Background(), m, nil)
		var pe *protocol.Error
		if errors.As(err, &pe) && pe.Kind() == protocol.KindMethodNotFound {
			t.Errorf("%s: %v", m, err)
		}
	}
}
