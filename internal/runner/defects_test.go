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
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// TestSummaryOfADocumentConversation: an implementation that summarizes
// where SUM-6 says not to, in a scenario whose conversation is a document
// (no labelled messages), fails under SUM-6 with what differs, not with
// the suite's own "assignment to entry in nil map".
func TestSummaryOfADocumentConversation(t *testing.T) {
	tg, err := inprocess.New(mutantNamed(t, "summary-of-tool-results").Engine)
	require.NoError(t, err)
	rs, err := runner.Run(context.Background(), tg, runner.Options{Seed: 1, Properties: []prop.Property{},
		Run: regexp.MustCompile(`^SUM-6/`)})
	require.NoError(t, err)
	failed := 0
	for _, r := range rs {
		if strings.Contains(r.Detail, "nil map") || strings.Contains(r.Detail, "panic") {
			t.Errorf("%s: the suite failed, not the implementation:\n%s", r.ID, r.Detail)
		}
		if r.Outcome == result.Failed {
			failed++
		}
	}
	require.NotZero(t, failed, "no SUM-6 scenario fails against summary-of-tool-results: %+v", rs)
}

func mutantNamed(t *testing.T, name string) mutants.Mutant {
	t.Helper()
	m, ok := mutants.Lookup(name)
	require.True(t, ok, "no mutant %s", name)
	return m
}

// rewording rewrites the free text of every budget.prepare event: the
// error of context_compression_failed is for people (PREP-3).
type rewording struct{ target.Target }

func (r rewording) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	res, err := r.Target.Call(ctx, method, params)
	if err != nil || method != protocol.MethodBudgetPrepare {
		return res, err
	}
	var obj map[string]any
	if json.Unmarshal(res, &obj) != nil {
		return res, nil
	}
	events, _ := obj["events"].([]any)
	for _, e := range events {
		if ev, ok := e.(map[string]any); ok && ev["error"] != nil {
			ev["error"] = "the summarizer let us down"
		}
	}
	return json.Marshal(obj)
}

// TestEventErrorIsFreeText: the steps compare a budget event's error no
// more than the replay does (SPEC.md PREP-3: no check compares it).
func TestEventErrorIsFreeText(t *testing.T) {
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	rs, err := runner.Run(context.Background(), rewording{ref}, runner.Options{Seed: 1, Properties: []prop.Property{},
		Run: regexp.MustCompile(`^PREP-3/`)})
	require.NoError(t, err)
	require.NotEmpty(t, rs, "no PREP-3 scenario ran")
	for _, r := range rs {
		assert.Equal(t, result.Passed, r.Outcome, "%s: %s", r.ID, r.Detail)
	}
}
