package mutants_test

import (
	"context"
	"flag"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/runner"
)

// trimmerSeeds are the seeds at which TestTrimmerPropertiesKillTrimmerMutants
// runs: make test one, make test-full three, so that a kill that holds at
// seed 1 only by luck is still found before a merge (D-87).
var trimmerSeeds = flag.String("mutants.trimmer-seeds", "1", "seeds at which the trimmer properties alone must kill each faulty trimmer")

// TestTrimmerPropertiesKillTrimmerMutants: the generic faulty trimmers are
// killed by the trimmer properties alone (prop/trimmer-*), without any
// scenario, under one of the clauses they break, at each of
// -mutants.trimmer-seeds with the default number of checks. A kill is a
// failure, so nothing is shrunk and a property ends at its first failing
// check, as in the kill test; the runner is given only the properties a
// variant runs and no feature file to parse (D-91).
func TestTrimmerPropertiesKillTrimmerMutants(t *testing.T) {
	var seeds []uint64
	for _, f := range strings.Fields(*trimmerSeeds) {
		seed, err := strconv.ParseUint(f, 10, 64)
		if err != nil || seed == 0 {
			t.Fatalf("-mutants.trimmer-seeds %q: %q is not a positive integer", *trimmerSeeds, f)
		}
		seeds = append(seeds, seed)
	}
	if len(seeds) == 0 {
		t.Fatal("-mutants.trimmer-seeds names no seed")
	}
	var trimmerProps []prop.Property
	for _, p := range allProperties() {
		if strings.HasPrefix(p.ID, "prop/trimmer-") {
			trimmerProps = append(trimmerProps, p)
		}
	}
	n := 0
	for _, m := range mutants.All() {
		if !strings.HasPrefix(m.Name, "trimmer-") || m.RefusedAtHandshake {
			continue // a refused declaration is the kill test's (ANY-10)
		}
		n++
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			var props []prop.Property
			for _, p := range trimmerProps {
				if slices.ContainsFunc(p.Clauses, func(id string) bool { return slices.Contains(m.Clauses, id) }) {
					props = append(props, p)
				}
			}
			if len(props) == 0 {
				t.Fatalf("no trimmer property checks %v", m.Clauses)
			}
			tg, err := inprocess.New(m.Engine)
			if err != nil {
				t.Fatal(err)
			}
			for _, seed := range seeds {
				results, err := runner.Run(context.Background(), tg, runner.Options{
					Seed: seed, NoShrink: true, FirstFailure: true,
					Features: fstest.MapFS{}, Properties: slices.Clip(props),
				})
				if err != nil {
					t.Fatal(err)
				}
				killed := slices.ContainsFunc(results, func(r result.Result) bool {
					return r.Outcome.IsFailure() && slices.ContainsFunc(r.Clauses, func(c string) bool { return slices.Contains(m.Clauses, c) })
				})
				if !killed {
					t.Errorf("seed %d: mutant %s (%s) survived the trimmer properties", seed, m.Name, m.Bug)
				}
			}
		})
	}
	if n < 5 {
		t.Fatalf("%d trimmer mutants; the catalogue needs at least 5", n)
	}
}
