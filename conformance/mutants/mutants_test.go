package mutants_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/mutants"
	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

// TestSuiteKillsEveryMutant: the suite must reject every faulty variant,
// and at least one failure must name a clause the bug breaks — a mutant
// caught only by accident elsewhere would leave its own clause untested.
func TestSuiteKillsEveryMutant(t *testing.T) {
	for _, m := range mutants.All() {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			for _, id := range m.Clauses {
				if _, ok := spec.Lookup(id); !ok {
					t.Fatalf("mutant %s names clause %s, which SPEC.md does not define", m.Name, id)
				}
			}
			tg, err := target.NewInProcess(m.Engine)
			if err != nil {
				t.Fatal(err)
			}
			// Scenarios first; the properties run only when the scenarios
			// alone do not kill the variant by one of its clauses.
			var killers, others []string
			for _, opts := range []runner.Options{
				{Skip: regexp.MustCompile(`^prop/`)},
				{Run: regexp.MustCompile(`^prop/`), Checks: 50, Seed: 1},
			} {
				results, err := runner.Run(context.Background(), tg, opts)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range results {
					if !r.Outcome.IsFailure() {
						continue
					}
					if slices.ContainsFunc(r.Clauses, func(c string) bool { return slices.Contains(m.Clauses, c) }) {
						killers = append(killers, r.ID)
					} else {
						others = append(others, r.ID)
					}
				}
				if len(killers) > 0 {
					break
				}
			}
			switch {
			case len(killers) == 0 && len(others) == 0:
				t.Errorf("mutant %s (%s) survived the whole suite", m.Name, m.Bug)
			case len(killers) == 0:
				t.Errorf("mutant %s (%s) was caught only by cases of other clauses: %s; add a case for %v", m.Name, m.Bug, strings.Join(others, ", "), m.Clauses)
			default:
				t.Logf("killed by %d cases, first %s", len(killers), killers[0])
			}
		})
	}
}

func TestCatalogue(t *testing.T) {
	all := mutants.All()
	if len(all) < 5 {
		t.Fatalf("the catalogue has %d mutants; it needs at least 5", len(all))
	}
	seen := map[string]bool{}
	for _, m := range all {
		if seen[m.Name] || m.Name == "" || m.Bug == "" || len(m.Clauses) == 0 || m.Engine == nil {
			t.Errorf("incomplete or duplicate mutant %+v", m)
		}
		seen[m.Name] = true
		if got, ok := mutants.Lookup(m.Name); !ok || got.Name != m.Name {
			t.Errorf("Lookup(%q) failed", m.Name)
		}
	}
}
