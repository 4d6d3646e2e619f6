package adapter_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/kitprobe"
)

// probe implements every interface of the kit with fixed answers: what
// TestKitMatchesTheSchema serves.
type probe struct{}

type probeWindow struct{}

var probeConfig = protocol.WindowConfig{MaxMessages: 1}

func (probe) NewWindow(json.RawMessage) (adapter.Window, protocol.WindowConfig, []protocol.Warning, error) {
	return probeWindow{}, probeConfig, nil, nil
}
func (probe) Estimate([]json.RawMessage) (int, error) { return 0, nil }
func (probeWindow) Trim(_ context.Context, m []json.RawMessage, _ adapter.Summarizer) (adapter.TrimResult, error) {
	return adapter.TrimResult{Trimmed: m}, nil
}
func (probe) Summarize(context.Context, []json.RawMessage, adapter.Summarizer) (string, error) {
	return "summary", nil
}
func (probe) Classify([]json.RawMessage) ([]string, [][2]int, error)      { return nil, nil, nil }
func (probe) Prune(m []json.RawMessage) ([]json.RawMessage, []int, error) { return m, nil, nil }
func (probe) Build(m []json.RawMessage, _ int) ([]json.RawMessage, []protocol.Repair, error) {
	return m, nil, nil
}
func (probe) Encode(string) ([]int, error) { return nil, nil }
func (probe) Resolve(string, string) (protocol.ConfigResolveResult, error) {
	return protocol.ConfigResolveResult{Config: probeConfig, MaxMessagesFrom: "default"}, nil
}

// TestKitMatchesTheSchema: the Go kit, served with an implementation of
// every interface, answers the methods of its capabilities, refuses a
// request only without a member the schema requires, and writes results
// the schema describes, member by member (D-63). It has no budget and no
// loop capability.
func TestKitMatchesTheSchema(t *testing.T) {
	impl := adapter.Implementation{Name: "schema-probe", Version: "0.0.0", Impl: probe{},
		Trimmers: []adapter.Trimmer{{
			TrimmerDecl: protocol.TrimmerDecl{Name: kitprobe.Trimmer, Version: 2, Bound: protocol.BoundTokens,
				Counter: protocol.CounterNative, Guarantees: []string{protocol.GuaranteeSubsequence}},
			Trim:        func(_ context.Context, m []json.RawMessage, _ int) ([]json.RawMessage, error) { return m, nil },
			NativeCount: func(context.Context, []json.RawMessage) (int, error) { return 0, nil },
		}},
	}
	requests, in := io.Pipe()
	out, responses := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := adapter.Serve(context.Background(), impl, requests, responses)
		_ = responses.CloseWithError(fmt.Errorf("the kit stopped serving: %v", err))
		done <- err
	}()
	lines := bufio.NewReader(out)
	answered := kitprobe.Check(t, func(request []byte) ([]byte, error) {
		if _, err := in.Write(append(request, '\n')); err != nil {
			return nil, err
		}
		return lines.ReadBytes('\n')
	})
	_ = in.Close()
	assert.NoError(t, <-done)
	assert.Equal(t, []string{
		protocol.MethodWindowCreate, protocol.MethodWindowTrim, protocol.MethodWindowEstimate, protocol.MethodWindowSummarize,
		protocol.MethodTokensEncode, protocol.MethodHistoryClassify, protocol.MethodHistoryPrune, protocol.MethodHistoryBuild,
		protocol.MethodConfigResolve, protocol.MethodTrimmerTrim, protocol.MethodTrimmerCount,
	}, answered)
}
