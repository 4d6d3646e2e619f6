package target

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/convspec/convspec/conformance/protocol"
)

func TestDecodeResult(t *testing.T) {
	for _, tc := range []struct {
		name, method, raw string
		schemaErr         bool
		err               string
	}{
		{"valid", protocol.MethodWindowEstimate, `{"tokens":7}`, false, ""},
		{"a missing member", protocol.MethodWindowCreate, `{"window":"w1","warnings":[]}`, true, "result does not match protocol v1: result.config is missing"},
		{"a missing nested member", protocol.MethodConfigResolve, `{"config":{"max_messages":1,"summarize_on_trim":false,"preserve_first_n":1},"max_messages_from":"default","warnings":[]}`, true, "result.config.preserve_last_n is missing"},
		{"a number too large for Go", protocol.MethodWindowEstimate, `{"tokens":1e400}`, true, "result does not match protocol v1"},
		{"an unknown method", "window.unknown", `{}`, false, "no result schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			err := DecodeResult(tc.method, json.RawMessage(tc.raw), &v)
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.err)
			assert.Equal(t, tc.schemaErr, errors.Is(err, ErrSchema))
		})
	}
}

// An error's message is kept on one line with its controls escaped, and
// its texts are clipped at MaxErrorTextBytes with the size they had
// (D-52): a message cannot start a line of a detail — a label of the
// harness, "wanted: …", in the HTML report — nor move a terminal's
// cursor, nor make conform hold what the implementation sends.
func TestErrorTextsAreTamed(t *testing.T) {
	big := strings.Repeat("y", 1<<20)
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad\nwanted: evil\r\u001b[2J","data":{"kind":"invalid_params","model":%q,"path":%q}}}`, big, big)
	_, err := decodeResponse("window.trim", []byte(line), 3)
	var pe *protocol.Error
	if !errors.As(err, &pe) {
		t.Fatalf("want a *protocol.Error, got %T: %v", err, err)
	}
	if want := `bad\nwanted: evil\r\x1b[2J`; pe.Message != want {
		t.Errorf("message %q, want %q", pe.Message, want)
	}
	for _, s := range []string{pe.Data.Model, *pe.Data.Path} {
		if len(s) > MaxErrorTextBytes+100 || !strings.Contains(s, "clipped: 1048576 bytes in all") {
			t.Errorf("a 1 MiB text is kept as %d bytes: …%s", len(s), s[max(0, len(s)-80):])
		}
	}
}

// FuzzClipStrings: clipping an error object's long strings as written
// leaves valid JSON whose short strings are as sent and whose long ones
// are a prefix of what was sent, saying so (D-52).
func FuzzClipStrings(f *testing.F) {
	f.Add(strings.Repeat("x", 300), 200)
	f.Add(strings.Repeat("\\\"é\u2028\U0001F600\x01", 80), 200)
	f.Add("short", 200)
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = 200 + abs(limit)%4000
		raw, err := json.Marshal(map[string]any{"code": 1, "message": s, "data": map[string]string{"kind": s, "model": "m"}})
		if err != nil {
			return
		}
		clipped := clipStrings(raw, limit)
		if !json.Valid(clipped) {
			t.Fatalf("clipStrings(%s, %d) = %s, not JSON", raw, limit, clipped)
		}
		var e struct {
			Message string
			Data    struct{ Kind, Model string }
		}
		if err := json.Unmarshal(clipped, &e); err != nil {
			t.Fatal(err)
		}
		quoted, _ := json.Marshal(s)
		var sent string
		_ = json.Unmarshal(quoted, &sent)
		if len(quoted)-2 <= limit {
			if e.Message != sent || e.Data.Model != "m" {
				t.Fatalf("a short message changed: %q -> %q", s, e.Message)
			}
			return
		}
		if len(e.Message) > limit || !strings.Contains(e.Message, fmt.Sprintf("clipped: %d bytes in all", len(quoted)-2)) {
			t.Fatalf("a long message is kept as %q", e.Message)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// FuzzDecodeResultAsUnmarshal: a result DecodeResult accepts is decoded
// into its Go type as json.Unmarshal decodes it, its messages byte for
// byte, though DecodeResult reads most members in place.
func FuzzDecodeResultAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"messages":[{"role":"user","content":"a\u00e9"} , {"role":"tool","content":[1,2.50]}]}`,
		`{"trimmed":[{"role":"user"}],"evicted":[],"metrics":{"inputCount":1,"trimmedCount":1,"evictedCount":0,"estimatedTokens":1},"warnings":[],"summary":null,"summarizer_calls":[]}`,
		`{"tokens":3}`, `{"tokens":3.0}`, `{"Messages":[{"role":"user"}],"messages":[]}`, `{"count":2}`,
		`{"messages":[{"role":"user"}],"removed":[0,1]}`, `{"messages":[{"role":"system"}],"warnings":[{"kind":"x","index":1}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, tc := range []struct {
			method string
			v      func() any
		}{
			{protocol.MethodTrimmerTrim, func() any { return new(protocol.TrimmerTrimResult) }},
			{protocol.MethodWindowTrim, func() any { return new(protocol.WindowTrimResult) }},
			{protocol.MethodWindowEstimate, func() any { return new(protocol.WindowEstimateResult) }},
			{protocol.MethodHistoryPrune, func() any { return new(protocol.HistoryPruneResult) }},
			{protocol.MethodHistoryBuild, func() any { return new(protocol.HistoryBuildResult) }},
			{protocol.MethodTrimmerCount, func() any { return new(protocol.TrimmerCountResult) }},
		} {
			got, want := tc.v(), tc.v()
			if DecodeResult(tc.method, raw, got) != nil || json.Unmarshal(raw, want) != nil {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q as %s:\n got  %#v\n want %#v", raw, tc.method, got, want)
			}
		}
	})
}
