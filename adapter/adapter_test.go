package adapter_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformtest"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
	"github.com/convspec/convspec/reference/window"
)

// referenceLib is the adapter a Go user would write: the reference library
// (window, summaries, history, cl100k) wired through the kit's interfaces,
// its typed errors mapped to the protocol's kinds.
type referenceLib struct{}

type referenceWindow struct{ w *window.Window }

func kind(err error) error {
	switch {
	case errors.Is(err, message.ErrInvalid):
		return adapter.Errorf(protocol.KindInvalidMessage, "%v", err)
	case errors.Is(err, window.ErrInvalidConfig):
		return adapter.Errorf(protocol.KindInvalidConfig, "%v", err)
	}
	return err
}

func parse(raw []json.RawMessage) ([]message.Message, error) {
	msgs, err := message.FromRaw(raw)
	return msgs, kind(err)
}

func raws(msgs []message.Message) []json.RawMessage {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		out[i] = m.Raw()
	}
	return out
}

func (referenceLib) NewWindow(config json.RawMessage) (adapter.Window, protocol.WindowConfig, []protocol.Warning, error) {
	cfg, err := window.ParseConfig(config)
	if err != nil {
		return nil, protocol.WindowConfig{}, nil, kind(err)
	}
	w, err := window.New(cfg)
	if err != nil {
		return nil, protocol.WindowConfig{}, nil, kind(err)
	}
	var warnings []protocol.Warning
	for _, w := range cfg.Warnings() {
		warnings = append(warnings, protocol.Warning(w))
	}
	return referenceWindow{w}, protocol.WindowConfig(cfg), warnings, nil
}

func (referenceLib) Estimate(raw []json.RawMessage) (int, error) {
	msgs, err := parse(raw)
	return window.EstimateTokens(msgs), err
}

func (rw referenceWindow) Trim(ctx context.Context, raw []json.RawMessage, summarize adapter.Summarizer) (adapter.TrimResult, error) {
	msgs, err := parse(raw)
	if err != nil {
		return adapter.TrimResult{}, err
	}
	var s window.Summarizer
	if summarize != nil {
		s = window.SummarizerFunc(summarize)
	}
	res, err := rw.w.TrimWith(ctx, msgs, s)
	if err != nil {
		return adapter.TrimResult{}, kind(err)
	}
	out := adapter.TrimResult{Trimmed: raws(res.Trimmed), Evicted: raws(res.Evicted), Metrics: protocol.Metrics(res.Metrics)}
	for _, w := range res.Warnings {
		out.Warnings = append(out.Warnings, protocol.Warning(w))
	}
	if res.Summary != nil {
		out.Summary = res.Summary.Raw()
	}
	return out, nil
}

func (referenceLib) Summarize(ctx context.Context, raw []json.RawMessage, summarize adapter.Summarizer) (string, error) {
	msgs, err := parse(raw)
	if err != nil {
		return "", err
	}
	return window.Summarize(ctx, msgs, window.SummarizerFunc(summarize))
}

func (referenceLib) Classify(raw []json.RawMessage) ([]string, [][2]int, error) {
	msgs, err := parse(raw)
	if err != nil {
		return nil, nil, err
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, kind(err)
	}
	classes := make([]string, len(msgs))
	for i, m := range msgs {
		classes[i] = string(m.Class())
	}
	ranges := make([][2]int, len(units))
	for i, u := range units {
		ranges[i] = [2]int{u.Start, u.End}
	}
	return classes, ranges, nil
}

func (referenceLib) Prune(raw []json.RawMessage) ([]json.RawMessage, []int, error) {
	msgs, err := parse(raw)
	if err != nil {
		return nil, nil, err
	}
	kept, removed := history.Prune(msgs)
	return raws(kept), removed, nil
}

func (referenceLib) Build(raw []json.RawMessage, maxMessages int) ([]json.RawMessage, []protocol.Repair, error) {
	msgs, err := parse(raw)
	if err != nil {
		return nil, nil, err
	}
	res, err := history.Build(msgs, maxMessages)
	if err != nil {
		return nil, nil, kind(err)
	}
	repairs := make([]protocol.Repair, len(res.Warnings))
	for i, w := range res.Warnings {
		repairs[i] = protocol.Repair(w)
	}
	return raws(res.Messages), repairs, nil
}

func (referenceLib) Encode(text string) ([]int, error) { return tokens.Encode(text), nil }

var reference = adapter.Implementation{Name: "reference-through-the-go-kit", Version: "0.1.0", Impl: referenceLib{}}

// The reference library wired through the kit passes every case of the
// capabilities it declares: the kit's framing, handles, scripts and result
// shapes are the protocol's.
func TestReferenceThroughTheKit(t *testing.T) {
	conformtest.Run(t, reference)
}

func TestCapabilitiesFollowTheInterfaces(t *testing.T) {
	assert.Equal(t, []string{"window", "window.summarize", "history", "tokens.cl100k"}, reference.Capabilities())
	assert.Equal(t, []string{"tokens.cl100k"}, adapter.Implementation{Name: "t", Impl: tokenizerOnly{}}.Capabilities())
}

type tokenizerOnly struct{}

func (tokenizerOnly) Encode(string) ([]int, error) { return nil, nil }

func TestAnImplementationWithoutNameOrCapabilityIsRefused(t *testing.T) {
	_, err := adapter.InProcess(adapter.Implementation{Impl: tokenizerOnly{}})
	require.ErrorContains(t, err, "Name is empty")
	_, err = adapter.InProcess(adapter.Implementation{Name: "x", Impl: 42})
	require.ErrorContains(t, err, "int implements none of")
}

func TestAMethodOfAnUndeclaredCapabilityIsMethodNotFound(t *testing.T) {
	tg, err := adapter.InProcess(adapter.Implementation{Name: "tok", Impl: tokenizerOnly{}})
	require.NoError(t, err)
	_, err = tg.Call(context.Background(), protocol.MethodWindowCreate, map[string]any{})
	var pe *protocol.Error
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, protocol.KindMethodNotFound, pe.Kind())
	assert.Contains(t, pe.Message, "window.create is not supported by tok")
}

func TestOriginalsReturnsTheInputJSON(t *testing.T) {
	inputs := []json.RawMessage{
		json.RawMessage(`{"role":"system","content":"s"}`),
		json.RawMessage(`{"content":"a","role":"user","n":1.0}`),
		json.RawMessage(`{"role":"assistant","content":"b"}`),
	}
	rebuilt := []any{map[string]any{"role": "user", "content": "a", "n": 1}, map[string]any{"role": "assistant", "content": "b"}}
	got, err := adapter.Originals(inputs, rebuilt)
	require.NoError(t, err)
	assert.Equal(t, []json.RawMessage{inputs[1], inputs[2]}, got)

	_, err = adapter.Originals(inputs, []any{map[string]any{"role": "assistant", "content": "b"}, map[string]any{"role": "user", "content": "a", "n": 1}})
	require.ErrorContains(t, err, "rebuilt message 1")
	_, err = adapter.Originals(inputs, []any{map[string]any{"role": "user", "content": "changed"}})
	require.ErrorContains(t, err, "altered or reordered")
}
