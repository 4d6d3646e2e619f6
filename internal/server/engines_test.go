package server

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// identityOnly is an engine that implements no capability's interface.
type identityOnly struct{}

func (identityOnly) Name() string           { return "identity-only" }
func (identityOnly) Capabilities() []string { return nil }

// An engine serves a capability's methods only when it implements that
// capability's interface: every other method is method_not_found, whatever
// its params, and never a panic or another kind.
func TestAnEngineServesOnlyItsCapabilities(t *testing.T) {
	h := NewHandler(identityOnly{})
	for _, method := range protocol.Methods() {
		if method == protocol.MethodInitialize || method == protocol.MethodShutdown {
			continue
		}
		for _, params := range []string{`{}`, `{"messages": []}`, `[]`} {
			_, err := h.Handle(context.Background(), method, json.RawMessage(params))
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Data == nil || pe.Data.Kind != protocol.KindMethodNotFound {
				t.Errorf("%s with params %s: got %v, want a method_not_found error", method, params, err)
			}
		}
	}
	res, err := h.Handle(context.Background(), protocol.MethodInitialize, json.RawMessage(`{"protocol": 1}`))
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if caps := res.(protocol.InitializeResult).Capabilities; len(caps) != 0 {
		t.Errorf("initialize declares %v, want no capability", caps)
	}
	// The reference implements every capability's interface.
	var ref Engine = Reference{}
	for name, ok := range map[string]bool{
		"WindowEngine": implements[WindowEngine](ref), "SummarizeEngine": implements[SummarizeEngine](ref),
		"HistoryEngine": implements[HistoryEngine](ref), "TokensEngine": implements[TokensEngine](ref),
		"BudgetEngine": implements[BudgetEngine](ref), "ConfigEngine": implements[ConfigEngine](ref),
		"LoopEngine": implements[LoopEngine](ref), "TrimmerEngine": implements[TrimmerEngine](ref),
	} {
		if !ok {
			t.Errorf("the reference does not implement %s", name)
		}
	}
}

func implements[E any](e Engine) bool { _, ok := e.(E); return ok }
