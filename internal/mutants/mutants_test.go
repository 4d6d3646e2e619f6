package mutants_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
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
			tg, err := inprocess.New(m.Engine)
			switch {
			case m.RefusedAtHandshake && err == nil:
				t.Fatalf("mutant %s (%s): the handshake was accepted; the harness must refuse it", m.Name, m.Bug)
			case m.RefusedAtHandshake:
				t.Logf("refused at the handshake: %v", err)
				return
			case err != nil:
				t.Fatal(err)
			}
			// The cases of the mutant's own clauses first, scenarios before
			// properties; the rest of the suite only when those do not kill
			// it, to tell "survived" from "caught elsewhere". Running every
			// case against every mutant would take minutes.
			own, err := casesOf(m.Clauses)
			if err != nil {
				t.Fatal(err)
			}
			var killers, others []string
			for _, opts := range []runner.Options{
				{Run: own, Skip: regexp.MustCompile(`^prop/`)},
				{Run: own, Checks: 50, Seed: 1, NoShrink: true},
				{Skip: regexp.MustCompile(`^prop/`)},
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

// casesOf matches exactly the IDs of the cases tagged with any of clauses.
func casesOf(clauses []string) (*regexp.Regexp, error) {
	all, err := runner.Cases(runner.Options{})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, c := range all {
		if slices.ContainsFunc(c.Clauses, func(id string) bool { return slices.Contains(clauses, id) }) {
			ids = append(ids, regexp.QuoteMeta(c.ID))
		}
	}
	if len(ids) == 0 {
		return regexp.MustCompile(`^$`), nil
	}
	return regexp.Compile(`^(` + strings.Join(ids, "|") + `)$`)
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
