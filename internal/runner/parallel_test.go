package runner_test

import (
	"context"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
)

var windowHandle = regexp.MustCompile(`"window":"w[0-9]+"`)

// A run on several workers reports exactly what a sequential run with the
// same seed reports, in the same order — failures included (a faulty
// variant), since the order and content of a report must not depend on
// -parallel.
func TestWorkersReportWhatASequentialRunReports(t *testing.T) {
	m, ok := mutants.Lookup("cap-off-by-one")
	require.True(t, ok)
	opts := runner.Options{Seed: 42, Checks: 10, Run: regexp.MustCompile(`^(WIN-|SUM-1/|prop/window-head-and-tail-kept$|prop/window-matches-plan$)`)}
	run := func(n int) []result.Result {
		var targets []target.Target
		for range n {
			tg, err := inprocess.New(m.Engine)
			require.NoError(t, err)
			targets = append(targets, tg)
		}
		sum, err := runner.RunWorkers(context.Background(), targets, opts)
		require.NoError(t, err)
		return sum.Results
	}
	sequential, parallel := run(1), run(3)
	require.NotEmpty(t, sequential)
	failed := 0
	for _, r := range sequential {
		if r.Outcome.IsFailure() {
			failed++
		}
	}
	require.Positive(t, failed, "the variant must fail some cases, or the comparison shows little")
	// A window's handle is the implementation's, numbered per process:
	// the one thing in a scenario's report that depends on the number of
	// workers. A failing property's counterexample is shrunk for at most
	// rapid's shrink time, so on a loaded machine it depends on speed, not
	// on workers; its outcome and failing seed do not.
	handles := cmp.Transformer("handles", func(r result.Result) result.Result {
		r.Detail = windowHandle.ReplaceAllString(r.Detail, `"window":"w#"`)
		r.Deviations = slices.Clone(r.Deviations)
		for i := range r.Deviations {
			d := &r.Deviations[i]
			d.Detail = windowHandle.ReplaceAllString(d.Detail, `"window":"w#"`)
			d.Sent = windowHandle.ReplaceAllString(d.Sent, `"window":"w#"`)
			d.Got = windowHandle.ReplaceAllString(d.Got, `"window":"w#"`)
		}
		if r.Kind == result.Property {
			r.Detail = ""
		}
		return r
	})
	if diff := cmp.Diff(sequential, parallel, handles, cmpopts.IgnoreFields(result.Result{}, "Duration")); diff != "" {
		t.Errorf("3 workers report differently from 1 (-sequential +parallel):\n%s", diff)
	}
}
