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

// TestFirstFailureEndsTheProperty: with FirstFailure a property ends at its
// first failing check — no later example and no random check runs — and
// fails with that check's deviation alone; a property whose examples pass
// still runs its random checks.
func TestFirstFailureEndsTheProperty(t *testing.T) {
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	var ran []string
	check := func(name string, fails bool) prop.Example {
		return prop.Example{Name: name, Run: func(f prop.Failer, _ target.Target) {
			ran = append(ran, name)
			if fails {
				f.Fatalf("EST-1: wrong at %s", name)
			}
		}}
	}
	random := func(t *rapid.T, _ target.Target) {
		ran = append(ran, "random")
		t.Fatalf("EST-2: wrong for every input")
	}
	run := func(examples ...prop.Example) result.Result {
		ran = nil
		p := prop.Property{ID: "prop/first", Clauses: []string{"EST-1", "EST-2"}, Capability: "window", Doc: "a test property",
			Examples: examples, Check: random}
		rs, err := runner.Run(context.Background(), ref, runner.Options{Seed: 1, FirstFailure: true, NoShrink: true,
			Properties: []prop.Property{p}, Features: fstest.MapFS{}})
		require.NoError(t, err)
		require.Len(t, rs, 1)
		return rs[0]
	}

	r := run(check("passes", false), check("fails", true), check("later", true))
	require.Equal(t, result.Failed, r.Outcome, r.Detail)
	assert.Equal(t, []string{"passes", "fails"}, ran, "the checks that ran")
	require.Len(t, r.Deviations, 1)
	assert.Equal(t, "EST-1", r.Deviations[0].Clause)

	r = run(check("passes", false))
	require.Equal(t, result.Failed, r.Outcome, r.Detail)
	assert.Equal(t, "random", ran[len(ran)-1], "the random checks run when no example fails")
	require.Len(t, r.Deviations, 1)
	assert.Equal(t, "EST-2", r.Deviations[0].Clause)
}
