package target

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/spec/schema"
)

// results pairs each method with the type its result decodes into.
var results = map[string]any{
	protocol.MethodInitialize:      protocol.InitializeResult{},
	protocol.MethodWindowCreate:    protocol.WindowCreateResult{},
	protocol.MethodWindowTrim:      protocol.WindowTrimResult{},
	protocol.MethodWindowEstimate:  protocol.WindowEstimateResult{},
	protocol.MethodWindowSummarize: protocol.WindowSummarizeResult{},
	protocol.MethodTokensEncode:    protocol.TokensEncodeResult{},
	protocol.MethodBudgetCount:     protocol.BudgetCountResult{},
	protocol.MethodBudgetCheck:     protocol.BudgetCheckResult{},
	protocol.MethodBudgetPrune:     protocol.BudgetPruneResult{},
	protocol.MethodBudgetCompress:  protocol.BudgetCompressResult{},
	protocol.MethodBudgetPrepare:   protocol.BudgetPrepareResult{},
	protocol.MethodHistoryClassify: protocol.HistoryClassifyResult{},
	protocol.MethodHistoryPrune:    protocol.HistoryPruneResult{},
	protocol.MethodHistoryBuild:    protocol.HistoryBuildResult{},
	protocol.MethodConfigResolve:   protocol.ConfigResolveResult{},
	protocol.MethodLoopRun:         protocol.LoopRunResult{},
	protocol.MethodTrimmerTrim:     protocol.TrimmerTrimResult{},
	protocol.MethodTrimmerCount:    protocol.TrimmerCountResult{},
}

// TestEveryMethodHasAResultSchema: no method's result goes unchecked, and
// the schema names no method the protocol does not have.
func TestEveryMethodHasAResultSchema(t *testing.T) {
	methods, err := schema.Methods()
	require.NoError(t, err)
	assert.ElementsMatch(t, protocol.Methods(), methods)
	for _, m := range protocol.Methods() {
		if m != protocol.MethodShutdown {
			assert.Contains(t, results, m, "the test knows no result type of %s", m)
		}
	}
}

// TestResultSchemaMatchesTypes: every member the schema describes is a
// member of the Go type the result decodes into, and every member the Go
// type always reads (no omitempty) is described, nested shapes included; a
// member renamed on one side only fails here instead of going unchecked.
func TestResultSchemaMatchesTypes(t *testing.T) {
	var doc struct {
		Defs map[string]map[string]any `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema.Protocol, &doc))
	for method, v := range results {
		t.Run(method, func(t *testing.T) {
			compareShape(t, doc.Defs, method, doc.Defs[method], reflect.TypeOf(v))
		})
	}
}

func compareShape(t *testing.T, defs map[string]map[string]any, at string, def map[string]any, ty reflect.Type) {
	t.Helper()
	if ref, ok := def["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		require.Contains(t, defs, name, "%s: $ref %s", at, ref)
		def = defs[name]
	}
	for ty.Kind() == reflect.Pointer {
		ty = ty.Elem()
	}
	switch ty.Kind() {
	case reflect.Slice, reflect.Array:
		if items, ok := def["items"].(map[string]any); ok {
			compareShape(t, defs, at+"[]", items, ty.Elem())
		}
		return
	case reflect.Struct:
	default:
		return
	}
	props, _ := def["properties"].(map[string]any)
	fields := map[string]reflect.StructField{}
	for i := range ty.NumField() {
		f := ty.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		fields[name] = f
		if !strings.Contains(opts, "omitempty") {
			assert.Contains(t, props, name, "%s: the schema does not describe member %q of %s", at, name, ty)
		}
	}
	for name, sub := range props {
		f, ok := fields[name]
		if !assert.True(t, ok, "%s: the schema describes %q, which %s does not have", at, name, ty) {
			continue
		}
		compareShape(t, defs, at+"."+name, sub.(map[string]any), f.Type)
	}
	if req, ok := def["required"].([]any); ok {
		for _, r := range req {
			assert.Contains(t, props, r, "%s: required %q is not described", at, r)
		}
	}
}

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
