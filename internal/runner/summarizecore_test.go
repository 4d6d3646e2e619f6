package runner_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// ownPrompt declares levels core and validation, not diagnostics, and
// words its summarizer prompts its own way: SUM-1's exact bytes are
// diagnostics (D-42), what a prompt covers is core (SUM-4).
type ownPrompt struct{ target.Target }

func (o ownPrompt) Info() target.Info {
	i := o.Target.Info()
	i.Levels = []string{protocol.LevelCore, protocol.LevelValidation}
	return i
}

func (o ownPrompt) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	res, err := o.Target.Call(ctx, method, params)
	if err != nil || method != protocol.MethodWindowTrim {
		return res, err
	}
	var obj map[string]any
	if json.Unmarshal(res, &obj) != nil {
		return res, nil
	}
	calls, _ := obj["summarizer_calls"].([]any)
	for _, c := range calls {
		if m, ok := c.(map[string]any); ok {
			if p, ok := m["prompt"].(string); ok {
				_, rest, _ := strings.Cut(p, "\n\n")
				m["prompt"] = "Condense this conversation:\n" + strings.ReplaceAll(rest, "\n\n", "\n---\n")
			}
		}
	}
	return json.Marshal(obj)
}

func runSummarize(t *testing.T, tg target.Target) []result.Result {
	t.Helper()
	sum, err := runner.RunAll(context.Background(), tg, runner.Options{Seed: 1, Run: regexp.MustCompile(`^SUM-`)})
	require.NoError(t, err)
	require.NotEmpty(t, sum.Results)
	return sum.Results
}

// TestSummarizeCoreWithoutDiagnostics: without diagnostics declared, the
// core SUM scenarios check which messages a prompt covers, not its bytes —
// and a summary that leaves out messages held back by the rate limit is
// reported as that, not as a prompt that differs at line 1.
func TestSummarizeCoreWithoutDiagnostics(t *testing.T) {
	t.Parallel()
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	for _, r := range runSummarize(t, ownPrompt{ref}) {
		assert.Contains(t, []result.Outcome{result.Passed, result.NotApplicable}, r.Outcome, "%s: %s", r.ID, r.Detail)
	}

	bad, err := inprocess.New(engineOf(t, "summary-covers-only-this-trim"))
	require.NoError(t, err)
	var heldBack bool
	for _, r := range runSummarize(t, ownPrompt{bad}) {
		if r.Outcome != result.Failed {
			continue
		}
		assert.NotContains(t, r.Detail, "prompt differs", "%s: a core failure reported as prompt bytes", r.ID)
		heldBack = heldBack || strings.Contains(r.Detail, "held back")
	}
	assert.True(t, heldBack, "no failure says that held-back evictions were never summarized")
}
