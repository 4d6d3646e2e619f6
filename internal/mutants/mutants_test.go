package mutants_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/spec"
)

// TestSuiteKillsEveryMutant: the suite must reject every faulty variant,
// and at least one failure must name a clause the bug breaks — a mutant
// caught only by accident elsewhere would leave its own clause untested.
// Each variant runs against the cases of its row in the kills table
// (kills_test.go), every one of which must still kill it; with -update
// the test searches the suite instead and rewrites the table.
func TestSuiteKillsEveryMutant(t *testing.T) {
	if *update {
		searchKills(t)
		return
	}
	table, err := readKills()
	if err != nil {
		t.Fatal(err)
	}
	all := mutants.All()
	for name := range table {
		if _, ok := mutants.Lookup(name); !ok {
			t.Errorf("%s has a row for variant %s, which the catalogue no longer has; %s", killsFile, name, regenerate)
		}
	}
	suite, err := suiteCases()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range all {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			checkClauses(t, m)
			row, ok := table[m.Name]
			switch {
			case !ok || len(row.Kills) == 0:
				t.Fatalf("variant %s has no row in %s (added since the table was written?); %s", m.Name, killsFile, regenerate)
			case m.RefusedAtHandshake != slices.Equal(row.Kills, []string{handshakeKill}):
				t.Fatalf("%s says %s is killed by %v, but the catalogue says refused at the handshake: %v; %s", killsFile, m.Name, row.Kills, m.RefusedAtHandshake, regenerate)
			}
			if m.RefusedAtHandshake {
				if _, err := inprocess.New(m.Engine); err == nil {
					t.Fatalf("mutant %s (%s): the handshake was accepted; the harness must refuse it", m.Name, m.Bug)
				}
				return
			}
			for _, id := range append(slices.Clone(row.After), row.Kills...) {
				if !slices.ContainsFunc(suite, func(c result.Case) bool { return c.ID == id }) {
					t.Fatalf("%s names case %s for variant %s, which the suite no longer has (renamed or removed); %s", killsFile, id, m.Name, regenerate)
				}
			}
			if testing.Short() {
				// make check: the table names every variant and only cases
				// that exist; running them is make test's.
				return
			}
			trace := new(fault.Trace)
			problems, err := runRowTraced(m, row, trace)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range problems {
				t.Errorf("%s is stale for variant %s (%s): %s; %s, and if it then says the variant survives, the suite lost the check of %v",
					killsFile, m.Name, m.Bug, p, regenerate, m.Clauses)
			}
			// A variant that is the reference with fault points on must die
			// through them (D-68): a point its kills never reach sits on a
			// dead line, or the variant is killed for another reason.
			for _, p := range m.Faults.Points() {
				if !trace.Reached(p) {
					t.Errorf("variant %s: the cases that kill it (%v) never reach its fault point %s", m.Name, row.Kills, p)
				}
			}
		})
	}
}

// searchKills is TestSuiteKillsEveryMutant with -update: it searches the
// suite for each variant's killers and rewrites the kills table from what
// it finds, once every variant is killed by a case of its own clauses.
func searchKills(t *testing.T) {
	var mu sync.Mutex
	rows := map[string]killsRow{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s not rewritten: a variant is not killed by a case of its own clauses", killsFile)
			return
		}
		if len(rows) != len(mutants.All()) {
			t.Logf("%s not rewritten: -run selected %d of the %d variants", killsFile, len(rows), len(mutants.All()))
			return
		}
		if err := writeKills(rows); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d variants", killsFile, len(rows))
	})
	for _, m := range mutants.All() {
		t.Run(m.Name, func(t *testing.T) {
			t.Parallel()
			checkClauses(t, m)
			killers := searchKillers(t, m)
			if killers == nil {
				return
			}
			if row, ok := newRow(t, m, killers); ok {
				mu.Lock()
				rows[m.Name] = row
				mu.Unlock()
			}
		})
	}
}

// searchKillers runs the suite against m and returns the failures tagged
// with a clause it breaks, or nil having failed t. The cases of the
// mutant's own clauses run first, scenarios before properties; the rest of
// the suite only when those do not kill it, to tell "survived" from
// "caught elsewhere". Running every case against every mutant would take
// minutes; `make mutants` does.
func searchKillers(t *testing.T, m mutants.Mutant) []mutants.Failure {
	t.Helper()
	if m.RefusedAtHandshake {
		if _, err := inprocess.New(m.Engine); err == nil {
			t.Errorf("mutant %s (%s): the handshake was accepted; the harness must refuse it", m.Name, m.Bug)
			return nil
		}
		return []mutants.Failure{{ID: handshakeKill, Clauses: m.Clauses}}
	}
	own, err := casesOf(m.Clauses)
	if err != nil {
		t.Error(err)
		return nil
	}
	var killers []mutants.Failure
	var others []string
	for _, opts := range []runner.Options{
		{Run: own, Skip: regexp.MustCompile(`^prop/`), Checks: 50, Seed: 1, NoShrink: true},
		{Run: own, Checks: 50, Seed: 1, NoShrink: true},
		{Skip: regexp.MustCompile(`^prop/`), Checks: 50, Seed: 1, NoShrink: true},
	} {
		// A new engine for every run: a variant that keeps state between
		// requests must not fail a case because of an earlier run's (the
		// kills table's rows are run alone).
		fresh, _ := mutants.Lookup(m.Name)
		tg, err := inprocess.New(fresh.Engine)
		if err != nil {
			t.Error(err)
			return nil
		}
		results, err := runner.Run(context.Background(), tg, opts)
		if err != nil {
			t.Error(err)
			return nil
		}
		for _, r := range results {
			if !r.Outcome.IsFailure() {
				continue
			}
			if breaks(m, r.Clauses) {
				killers = append(killers, mutants.Failure{ID: r.ID, Property: r.Kind == result.Property, Clauses: r.Clauses})
			} else {
				others = append(others, r.ID)
			}
		}
		if len(killers) > 0 {
			t.Logf("killed by %d cases, first %s", len(killers), killers[0].ID)
			return killers
		}
	}
	if len(others) == 0 {
		t.Errorf("mutant %s (%s) survived the whole suite", m.Name, m.Bug)
	} else {
		t.Errorf("mutant %s (%s) was caught only by cases of other clauses: %s; add a case for %v", m.Name, m.Bug, strings.Join(others, ", "), m.Clauses)
	}
	return nil
}

// checkClauses fails t when m names a clause SPEC.md does not define.
func checkClauses(t *testing.T, m mutants.Mutant) {
	t.Helper()
	for _, id := range m.Clauses {
		if _, ok := spec.Lookup(id); !ok {
			t.Fatalf("mutant %s names clause %s, which SPEC.md does not define", m.Name, id)
		}
	}
}

// breaks says that a failure tagged with clauses names one m breaks.
func breaks(m mutants.Mutant, clauses []string) bool {
	return slices.ContainsFunc(clauses, func(c string) bool { return slices.Contains(m.Clauses, c) })
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
	// Every fault point the reference consults is turned on by a variant,
	// and a variant turns on only points the reference lists (D-68).
	points := map[fault.Point]bool{}
	for _, p := range fault.All() {
		points[p] = true
	}
	used := map[fault.Point]bool{}
	for _, m := range all {
		for _, p := range m.Faults.Points() {
			used[p] = true
			if !points[p] {
				t.Errorf("variant %s turns on fault point %s, which fault.All does not list", m.Name, p)
			}
		}
	}
	for _, p := range fault.All() {
		if !used[p] {
			t.Errorf("fault point %s is turned on by no variant: a point that no variant uses is dead code in the reference", p)
		}
	}
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
