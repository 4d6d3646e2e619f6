package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
)

// TestEveryCountIsReadExactly: every count of the protocol — in
// window.create's config, history.build, trimmer.trim, a config file in
// JSON or YAML, delay_ms and limits — and target_ratio's two decimals are
// read from their decimal text exactly (CFG-3): a number a float64 would
// round to a whole one is refused everywhere alike, and the same value
// spelled 3.0 or 3e0 is accepted everywhere alike.
func TestEveryCountIsReadExactly(t *testing.T) {
	tg, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	msgs := []json.RawMessage{json.RawMessage(`{"role":"system","content":"s"}`), json.RawMessage(`{"role":"user","content":"u"}`)}
	requests := map[string]func(n string) (string, any){
		"window.create max_messages": func(n string) (string, any) {
			return protocol.MethodWindowCreate, map[string]any{"config": json.RawMessage(`{"max_messages":` + n + `}`)}
		},
		"history.build max_messages": func(n string) (string, any) {
			return protocol.MethodHistoryBuild, map[string]any{"messages": msgs, "max_messages": json.RawMessage(n)}
		},
		"trimmer.trim limit": func(n string) (string, any) {
			return protocol.MethodTrimmerTrim, map[string]any{"trimmer": server.TrimmerWindow, "messages": msgs, "limit": json.RawMessage(n)}
		},
		"JSON config file": func(n string) (string, any) {
			return protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "json", "text": `{"execution":{"max_conversation_messages":` + n + `}}`}}
		},
		"YAML config file": func(n string) (string, any) {
			return protocol.MethodConfigResolve, map[string]any{"config": map[string]any{"format": "yaml", "text": "execution:\n  max_conversation_messages: " + n + "\n"}}
		},
		"budget limits": func(n string) (string, any) {
			return protocol.MethodBudgetCheck, map[string]any{"messages": msgs, "model": "m", "limits": map[string]any{"m": json.RawMessage(n)}}
		},
	}
	for name, req := range requests {
		for _, c := range []struct {
			n  string
			ok bool
		}{
			{"3", true}, {"3.0", true}, {"3e0", true}, {"30e-1", true}, {"9007199254740991", true},
			{"3.0000000000000001", false}, {"9007199254740991.0000000001", false}, {"9007199254740992", false}, {"2.5", false},
		} {
			method, params := req(c.n)
			_, err := tg.Call(context.Background(), method, params)
			var pe *protocol.Error
			if c.ok {
				assert.NoError(t, err, "%s %s", name, c.n)
			} else if assert.True(t, errors.As(err, &pe), "%s %s: want a refusal, got %v", name, c.n, err) {
				assert.Contains(t, []string{protocol.KindInvalidParams, protocol.KindInvalidConfig}, pe.Kind(), "%s %s", name, c.n)
			}
		}
	}
	for ratio, ok := range map[string]bool{"0.8": true, "0.80": true, "8e-1": true, "0.800000000000": true, "1": true, "0.01": true,
		"0.8000000000000001": false, "0.805": false, "0.009999999999999999": false, "1.0000000000000001": false, "0": false} {
		_, err := tg.Call(context.Background(), protocol.MethodBudgetPrune, map[string]any{"messages": msgs, "model": "gpt-4o", "target_ratio": json.RawMessage(ratio)})
		assert.Equal(t, ok, err == nil, "target_ratio %s: %v", ratio, err)
	}
}
