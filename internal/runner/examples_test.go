package runner_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// TestAFailingExampleHidesNoOtherCheck: a property whose edge examples fail
// still runs its other examples and its random checks, and reports what
// they find beyond the first failure — another clause broken — while the
// same clause broken again is not repeated (D-77).
func TestAFailingExampleHidesNoOtherCheck(t *testing.T) {
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	fail := func(clause string) func(f prop.Failer, _ target.Target) {
		return func(f prop.Failer, _ target.Target) { f.Fatalf("%s: wrong at the boundary", clause) }
	}
	p := prop.Property{
		ID: "prop/two-checks", Clauses: []string{"EST-1", "EST-2", "EST-3"}, Capability: "window", Doc: "a test property",
		Examples: []prop.Example{
			{Name: "first", Run: fail("EST-1")},
			{Name: "first again", Run: fail("EST-1")},
			{Name: "second", Run: func(prop.Failer, target.Target) {}},
			{Name: "third", Run: fail("EST-3")},
		},
		Check: func(t *rapid.T, _ target.Target) {
			if rapid.IntRange(0, 10).Draw(t, "n") > 5 {
				t.Fatalf("EST-2: wrong for some inputs")
			}
		},
	}
	rs, err := runner.Run(context.Background(), ref, runner.Options{Seed: 1, Properties: []prop.Property{p}, Features: fstest.MapFS{}})
	require.NoError(t, err)
	require.Len(t, rs, 1)
	r := rs[0]
	require.Equal(t, result.Failed, r.Outcome, r.Detail)
	var clauses []string
	for _, d := range r.Deviations {
		clauses = append(clauses, d.Clause)
	}
	assert.Equal(t, []string{"EST-1", "EST-3", "EST-2"}, clauses, "the examples' clauses once each, then the random checks': %s", r.Detail)
	assert.Contains(t, r.Detail, `edge example "third"`)
	assert.NotContains(t, r.Detail, `edge example "first again"`, "the same clause broken again is not repeated")
	assert.Contains(t, r.Detail, "random checks (seed ")
	assert.NotZero(t, r.Seed, "the random checks' failure needs its seed to reproduce")
}
