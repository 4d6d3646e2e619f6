package target

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
)

// CreateWindow calls window.create; config nil leaves it out (all defaults).
func CreateWindow(ctx context.Context, t Target, config json.RawMessage) (protocol.WindowCreateResult, error) {
	var r protocol.WindowCreateResult
	err := invoke(ctx, t, protocol.MethodWindowCreate, protocol.WindowCreateParams{Config: config}, &r)
	return r, err
}

// Trim calls window.trim without a summarizer.
func Trim(ctx context.Context, t Target, window string, msgs []json.RawMessage) (protocol.WindowTrimResult, error) {
	return TrimWith(ctx, t, window, msgs, nil)
}

// TrimWith calls window.trim with a scripted summarizer (nil for none).
func TrimWith(ctx context.Context, t Target, window string, msgs []json.RawMessage, s *protocol.SummarizerScript) (protocol.WindowTrimResult, error) {
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	var r protocol.WindowTrimResult
	err := invoke(ctx, t, protocol.MethodWindowTrim, protocol.WindowTrimParams{Window: window, Messages: msgs, Summarizer: s}, &r)
	return r, err
}

// Estimate calls window.estimate.
func Estimate(ctx context.Context, t Target, msgs []json.RawMessage) (int, error) {
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	var r protocol.WindowEstimateResult
	err := invoke(ctx, t, protocol.MethodWindowEstimate, protocol.WindowEstimateParams{Messages: msgs}, &r)
	return r.Tokens, err
}

// invoke calls method and decodes its result, turning a result that breaks
// the protocol's shapes into a protocol-error Failure.
func invoke(ctx context.Context, t Target, method string, params, result any) error {
	raw, err := t.Call(ctx, method, params)
	if err != nil {
		return err
	}
	if err := DecodeResult(method, raw, result); err != nil {
		var me *MemberError
		if errors.As(err, &me) {
			// A deviation of the result's shape: the case fails, naming
			// the member and the rule.
			return fmt.Errorf("%s returned %w", method, err)
		}
		return &Failure{Outcome: ProtocolError, Method: method, Detail: err.Error()}
	}
	return nil
}
