package inprocess_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/paramsjson"
	"github.com/convspec/convspec/internal/server"
)

// TestCallGivesTheWiresBytes: a result read in process is the text the
// same request's response line carries over the wire — no character
// escaped that the wire writes as it is — so that a comparison with an
// implementation's answer finds the same text the same.
func TestCallGivesTheWiresBytes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		params any
	}{
		{"a warning that holds >=", protocol.MethodWindowCreate, map[string]any{"config": map[string]int{"max_messages": 3, "preserve_first_n": 1, "preserve_last_n": 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := inprocess.Oracle(server.Reference{})
			got, err := tg.Call(context.Background(), tc.method, tc.params)
			require.NoError(t, err)

			params, err := paramsjson.Marshal(tc.params)
			require.NoError(t, err)
			line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": tc.method, "params": json.RawMessage(params)})
			require.NoError(t, err)
			var resp struct {
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			wire := server.AnswerLine(context.Background(), server.NewHandler(server.Reference{}), line)
			require.NoError(t, json.Unmarshal(wire, &resp))
			require.Nil(t, resp.Error, "the wire answered an error: %s", wire)
			require.True(t, bytes.ContainsAny(got, "<>&"), "the case must hold a character encoding/json escapes, as the wire writes it: %s", got)
			require.Equal(t, string(resp.Result), string(got))
		})
	}
}
