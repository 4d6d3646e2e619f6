package server_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
)

// TestWireReadingsOfD48: the readings D-48 settles for the wire, each one a
// request line and the kind of error wanted ("" for a result). They were
// found by an implementation written from spec/ alone, where the reference
// answered otherwise: a missing config text read as an empty file (PROTO-2),
// an escaped unpaired surrogate accepted as an id and encoded as U+FFFD, and
// protocol 1.0 refused although JSON does not tell it from 1 (D-3).
func TestWireReadingsOfD48(t *testing.T) {
	tg, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	for _, c := range []struct{ name, line, kind string }{
		{"config.resolve without text", `{"jsonrpc":"2.0","id":1,"method":"config.resolve","params":{"config":{"format":"json"}}}`, "invalid_params"},
		{"config.resolve with a null text", `{"jsonrpc":"2.0","id":1,"method":"config.resolve","params":{"config":{"format":"yaml","text":null}}}`, "invalid_params"},
		{"config.resolve with an empty text", `{"jsonrpc":"2.0","id":1,"method":"config.resolve","params":{"config":{"format":"yaml","text":""}}}`, ""},
		{"loop.run without config text", `{"jsonrpc":"2.0","id":1,"method":"loop.run","params":{"config":{"format":"json"},"iterations":[]}}`, "invalid_params"},
		{"an id escaping an unpaired surrogate", `{"jsonrpc":"2.0","id":"\ud800","method":"window.estimate","params":{"messages":[]}}`, "invalid_request"},
		{"an id escaping a surrogate pair", `{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"window.estimate","params":{"messages":[]}}`, ""},
		{"tokens.encode of an unpaired surrogate", `{"jsonrpc":"2.0","id":1,"method":"tokens.encode","params":{"text":"a\ud800"}}`, "invalid_params"},
		{"tokens.encode of a surrogate pair", `{"jsonrpc":"2.0","id":1,"method":"tokens.encode","params":{"text":"a\ud83d\ude00"}}`, ""},
		{"initialize with protocol 1.0", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1.0,"suite":"convspec"}}`, ""},
		{"initialize with protocol 1e0", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1e0,"suite":"convspec"}}`, ""},
		{"initialize with protocol 1.5", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1.5,"suite":"convspec"}}`, "invalid_params"},
		{"initialize with protocol 2", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":2,"suite":"convspec"}}`, "invalid_params"},
	} {
		raw, err := tg.SendLine(context.Background(), []byte(c.line))
		require.NoError(t, err, c.name)
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Data struct {
					Kind string `json:"kind"`
				} `json:"data"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal(raw, &resp), c.name)
		if c.kind == "" {
			assert.Nil(t, resp.Error, "%s: want a result, got %s", c.name, raw)
			continue
		}
		if assert.NotNil(t, resp.Error, "%s: want %s, got %s", c.name, c.kind, raw) {
			assert.Equal(t, c.kind, resp.Error.Data.Kind, "%s: %s", c.name, raw)
		}
		if c.kind == "invalid_request" {
			assert.Equal(t, "null", string(resp.ID), "%s: answered with id null", c.name)
		}
	}
}
