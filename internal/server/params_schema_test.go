package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/spec/schema"
)

// TestRefusedParamsAreRequiredByTheSchema: every params member the
// reference refuses a request without ("params.model is missing") is one
// the published schema requires (D-63), so that the reference never
// refuses a request the schema allows. The members are found by asking:
// params of {} name the first missing member, which is then given a
// placeholder, until the answer names none.
func TestRefusedParamsAreRequiredByTheSchema(t *testing.T) {
	var doc struct {
		Defs struct {
			Params struct {
				Defs map[string]struct {
					Required []string `json:"required"`
				} `json:"$defs"`
			}
		} `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema.Protocol, &doc))
	for _, method := range protocol.Methods() {
		t.Run(method, func(t *testing.T) {
			refused := refusedWithout(t, method)
			for _, m := range refused {
				assert.Contains(t, doc.Defs.Params.Defs[method].Required, m,
					"the reference refuses %s without params.%s, which the schema does not require", method, m)
			}
		})
	}
	// The probe finds what it looks for: history.build needs both members.
	assert.Equal(t, []string{"messages", "max_messages"}, refusedWithout(t, protocol.MethodHistoryBuild))
}

// refusedWithout is the members the reference names missing in turn.
func refusedWithout(t *testing.T, method string) []string {
	t.Helper()
	h := server.NewHandler(server.Reference{})
	params := map[string]any{}
	var refused []string
	for range 10 {
		raw, err := json.Marshal(params)
		require.NoError(t, err)
		_, err = h.Handle(context.Background(), method, raw)
		var pe *protocol.Error
		if !errors.As(err, &pe) || pe.Kind() != protocol.KindInvalidParams {
			break
		}
		name, ok := strings.CutPrefix(pe.Message, "params.")
		name, missing := strings.CutSuffix(name, " is missing")
		if !ok || !missing || strings.ContainsAny(name, ".[") || slices.Contains(refused, name) {
			break
		}
		refused = append(refused, name)
		params[name] = 0 // a placeholder: the members are checked present before any is read
	}
	return refused
}
