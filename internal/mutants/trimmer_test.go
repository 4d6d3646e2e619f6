package mutants_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
)

// TestTrimmerPropertiesKillTrimmerMutants: the generic faulty trimmers are
// killed by the trimmer properties alone (prop/trimmer-*), without any
// scenario, under one of the clauses they break, at several seeds with
// the default number of checks.
func TestTrimmerPropertiesKillTrimmerMutants(t *testing.T) {
	all, err := runner.Cases(runner.Options{Run: regexp.MustCompile(`^prop/trimmer-`)})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range mutants.All() {
		if !strings.HasPrefix(m.Name, "trimmer-") || m.RefusedAtHandshake {
			continue // a refused declaration is the kill test's (ANY-10)
		}
		n++
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			var ids []string
			for _, c := range all {
				if slices.ContainsFunc(c.Clauses, func(id string) bool { return slices.Contains(m.Clauses, id) }) {
					ids = append(ids, regexp.QuoteMeta(c.ID))
				}
			}
			if len(ids) == 0 {
				t.Fatalf("no trimmer property checks %v", m.Clauses)
			}
			props := regexp.MustCompile(`^(` + strings.Join(ids, "|") + `)$`)
			tg, err := inprocess.New(m.Engine)
			if err != nil {
				t.Fatal(err)
			}
			for _, seed := range []uint64{1, 2, 3} {
				results, err := runner.Run(context.Background(), tg, runner.Options{Run: props, Seed: seed})
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
