package target

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec/schema"
)

func TestDecodeResponseNamesAreExact(t *testing.T) {
	for _, line := range []string{
		`{"JSONRPC":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","Id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"Result":{}}`,
		`{"jsonrpc":"2.0","id":1,"ERROR":{"code":-32602,"message":"x","data":{"kind":"invalid_params"}}}`,
	} {
		_, err := decodeResponse("window.estimate", []byte(line), 1)
		var f *Failure
		require.True(t, errors.As(err, &f), "%s: want a protocol error, got %v", line, err)
		require.Equal(t, ProtocolError, f.Outcome)
	}
	_, err := decodeResponse("window.estimate", []byte(`{"jsonrpc":"2.0","id":1,"result":{},"extra":1}`), 1)
	require.NoError(t, err, "an unknown member is ignored")
}

// FuzzDecodeResponse: whatever an implementation writes, decoding it as the
// answer to request 1 gives a result, a *protocol.Error or a *Failure, and
// never panics.
func FuzzDecodeResponse(f *testing.F) {
	for _, seed := range []string{`{"jsonrpc":"2.0","id":1,"result":{}}`, `{"JSONRPC":"2.0","Id":1,"Result":{}}`, `null`, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602}}`, "\xff", `{"jsonrpc":"2.0","id":1.0,"result":1}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		res, err := decodeResponse("m", line, 1)
		if err == nil && res == nil {
			t.Fatalf("%q: neither a result nor an error", line)
		}
	})
}

// TestResponseMembersAreTheSchemas: the exact names a response is read by
// are those of the published Response shape (D-63).
func TestResponseMembersAreTheSchemas(t *testing.T) {
	var doc struct {
		Defs struct {
			Response struct {
				Properties map[string]any `json:"properties"`
			}
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema.Protocol, &doc))
	require.ElementsMatch(t, slices.Collect(maps.Keys(doc.Defs.Response.Properties)), responseMembers)
}
