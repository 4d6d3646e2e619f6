package mutants_test

// The kills table: for every faulty variant, the cases that killed it in
// the last full search, so that `make test` runs each variant against
// those cases only instead of searching the suite again (a minute of CPU
// per run for an answer that changes only when the catalogue or the suite
// does). The search itself stays: `make mutants` (every case, seeds 1, 2
// and 3) and `go test ./internal/mutants -run '^TestSuiteKillsEveryMutant$'
// -update` rewrite the table, and TestSuiteKillsEveryMutant fails, saying
// so, when the table no longer matches the catalogue or the suite.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/runner"

	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/prop"
)

var update = flag.Bool("update", false, "search the whole suite for the cases that kill each faulty variant and rewrite "+killsFile)

// killsFile is the table, relative to this package's directory (a test's
// working directory).
const killsFile = "testdata/kills.json"

// handshakeKill is the row of a variant the harness refuses at the
// handshake (ANY-10): no case runs against it.
const handshakeKill = "handshake"

// maxKillers bounds a row: a few killing cases show that the suite still
// catches the variant; the report of `make mutants` lists them all.
const maxKillers = 3

// regenerate says how to rewrite the table, for failure messages.
const regenerate = "run `make mutants` (the full search at three seeds) or " +
	"`go test ./internal/mutants -run '^TestSuiteKillsEveryMutant$' -update` to rewrite " + killsFile

// killsTable is the file's shape.
type killsTable struct {
	About string `json:"about"`
	// Kills maps a variant's name to its row.
	Kills map[string]killsRow `json:"kills"`
}

// killsRow is one variant's: the cases that kill it, each failing with a
// clause it breaks when run with 50 checks at seed 1 (or ["handshake"]);
// and the cases that must run before them on the same implementation,
// for a variant that keeps state from one request to the next and fails
// only once earlier requests have left it wrong.
type killsRow struct {
	Kills []string `json:"kills"`
	After []string `json:"after,omitempty"`
}

const killsAbout = "Generated; do not edit. For each faulty variant, the cases that kill it at seed 1 " +
	"(50 checks), failing with a clause it breaks, and the cases that must run before them when the variant " +
	"keeps state between requests; `make test` runs each variant against these only. " +
	"Rewritten by `make mutants` or `go test ./internal/mutants -run '^TestSuiteKillsEveryMutant$' -update`."

// readKills reads the table; a missing file is an empty table.
func readKills() (map[string]killsRow, error) {
	data, err := os.ReadFile(killsFile)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]killsRow{}, nil
	}
	if err != nil {
		return nil, err
	}
	var t killsTable
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("%s: %w; %s", killsFile, err, regenerate)
	}
	if t.Kills == nil {
		t.Kills = map[string]killsRow{}
	}
	return t.Kills, nil
}

// writeKills writes rows as the table, variants sorted by name (as
// encoding/json orders a map's keys) so that a regenerated table differs
// from the old one only where a kill did.
func writeKills(rows map[string]killsRow) error {
	data, err := json.MarshalIndent(killsTable{About: killsAbout, Kills: rows}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll("testdata", 0o755); err != nil {
		return err
	}
	return os.WriteFile(killsFile, append(data, '\n'), 0o644)
}

// killerGroups sorts the failures that kill a variant into the
// candidates of its row: the scenarios first (they do not depend on the
// seed), then the properties; each sorted.
func killerGroups(killers []mutants.Failure) [][]string {
	var scenarios, props []string
	for _, f := range killers {
		if f.Property {
			props = append(props, f.ID)
		} else {
			scenarios = append(scenarios, f.ID)
		}
	}
	var groups [][]string
	for _, g := range [][]string{scenarios, props} {
		if len(g) > 0 {
			sort.Strings(g)
			groups = append(groups, slices.Compact(g))
		}
	}
	return groups
}

// newRow makes m's row from the failures that killed it in a search, and
// checks that the row alone kills a new m: at most maxKillers of the
// candidates (killerGroups) that do. A variant with state may have failed
// a case in the search only because earlier cases had left it wrong; when
// no candidate kills it alone, the row runs every case of m's own clauses
// of the same kind before them. When even that does not reproduce a kill,
// newRow fails t.
func newRow(t *testing.T, m mutants.Mutant, killers []mutants.Failure) (killsRow, bool) {
	t.Helper()
	if m.RefusedAtHandshake {
		return killsRow{Kills: []string{handshakeKill}}, true
	}
	groups := killerGroups(killers)
	for _, g := range groups {
		// Run the whole group, keep those that fail, then check the row
		// they make on a new engine again.
		problems, err := runRow(m, killsRow{Kills: g})
		if err != nil {
			t.Error(err)
			return killsRow{}, false
		}
		var kills []string
		for _, id := range g {
			if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, "case "+id+" ") }) {
				kills = append(kills, id)
			}
		}
		row := killsRow{Kills: kills[:min(len(kills), maxKillers)]}
		if len(row.Kills) == 0 {
			continue
		}
		if problems, err := runRow(m, row); err == nil && len(problems) == 0 {
			return row, true
		}
	}
	all, err := suiteCases()
	if err != nil {
		t.Error(err)
		return killsRow{}, false
	}
	for _, g := range groups {
		row := killsRow{Kills: g[:min(len(g), maxKillers)]}
		props := strings.HasPrefix(g[0], "prop/")
		for _, c := range all {
			if breaks(m, c.Clauses) && strings.HasPrefix(c.ID, "prop/") == props && !slices.Contains(row.Kills, c.ID) {
				row.After = append(row.After, c.ID)
			}
		}
		if problems, err := runRow(m, row); err == nil && len(problems) == 0 {
			t.Logf("variant %s keeps state: its kills need %d cases run before them", m.Name, len(row.After))
			return row, true
		}
	}
	t.Errorf("variant %s: none of the cases that killed it in the search (%v) kills it again, alone or after the other cases of %v",
		m.Name, groups, m.Clauses)
	return killsRow{}, false
}

// runRow runs m, new, against its row's cases, at the search's settings
// (a property's counterexample depends on the seed and the number of
// checks), and says which kills no longer kill it.
func runRow(m mutants.Mutant, row killsRow) ([]string, error) {
	return runRowTraced(m, row, nil)
}

// runRowTraced is runRow recording into trace, when not nil, the fault
// points of the variant that its cases reach.
func runRowTraced(m mutants.Mutant, row killsRow, trace *fault.Trace) ([]string, error) {
	// A variant with state must start as `make test` starts it, not as an
	// earlier search left it: All makes new engines.
	if fresh, ok := mutants.Lookup(m.Name); ok {
		m = fresh
	}
	if trace != nil {
		m = m.Traced(trace)
	}
	tg, err := inprocess.New(m.Engine)
	if err != nil {
		return nil, err
	}
	suite, err := suiteCases()
	if err != nil {
		return nil, err
	}
	// Only the feature files and properties the row needs: the runner
	// parses every feature file it is given on every run, and
	// runner.Properties computes its examples' expected values, which together
	// cost more than the row's cases.
	feats := fstest.MapFS{}
	var props []prop.Property
	var ids []string
	for _, id := range append(slices.Clone(row.After), row.Kills...) {
		ids = append(ids, regexp.QuoteMeta(id))
		if i := slices.IndexFunc(suite, func(c result.Case) bool { return c.ID == id }); i >= 0 && suite[i].Kind == result.Scenario {
			data, err := fs.ReadFile(features.FS, suite[i].Source)
			if err != nil {
				return nil, fmt.Errorf("case %s: %w", id, err)
			}
			feats[suite[i].Source] = &fstest.MapFile{Data: data}
		}
		if i := slices.IndexFunc(allProperties(), func(p prop.Property) bool { return p.ID == id }); i >= 0 {
			props = append(props, allProperties()[i])
		}
	}
	results, err := runner.Run(context.Background(), tg, runner.Options{
		Run: regexp.MustCompile(`^(` + strings.Join(ids, "|") + `)$`), Checks: 50, Seed: 1, NoShrink: true, FirstFailure: true,
		Features: feats, Properties: slices.Clip(append([]prop.Property{}, props...)),
	})
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, id := range row.Kills {
		i := slices.IndexFunc(results, func(r result.Result) bool { return r.ID == id })
		switch {
		case i < 0:
			problems = append(problems, fmt.Sprintf("case %s did not run", id))
		case !results[i].Outcome.IsFailure() || !breaks(m, results[i].Clauses):
			problems = append(problems, fmt.Sprintf("case %s no longer kills it: outcome %s, clauses %v, want a failure tagged with one of %v",
				id, results[i].Outcome, results[i].Clauses, m.Clauses))
		}
	}
	return problems, nil
}

// suiteCases and allProperties are computed once for all the variants.
var (
	suiteCases    = sync.OnceValues(func() ([]result.Case, error) { return runner.Cases(runner.Options{}) })
	allProperties = sync.OnceValue(runner.Properties)
)

// TestNewRowSkipsKillsOfState: a variant with state fails, in a whole run,
// cases that pass on a new engine; the row must hold only cases that kill
// it alone, as make test runs them.
func TestNewRowSkipsKillsOfState(t *testing.T) {
	m, ok := mutants.Lookup("prune-remembers-removed")
	if !ok {
		t.Skip("no variant prune-remembers-removed")
	}
	// The scenario fails only after earlier prunes on the same engine; the
	// property fails on its own.
	stateKill := mutants.Failure{ID: "PRUNE-3/pruning-removes-prompts-only-and-keeps-everything-else-in-order", Clauses: []string{"PRUNE-3"}}
	ownKill := mutants.Failure{ID: "prop/prune-only-prompts", Property: true, Clauses: []string{"PRUNE-3"}}
	if problems, err := runRow(m, killsRow{Kills: []string{stateKill.ID}}); err != nil || len(problems) == 0 {
		t.Skipf("the scenario kills the variant alone now (%v); the test needs a kill that depends on state", err)
	}
	row, ok := newRow(t, m, []mutants.Failure{stateKill, ownKill})
	if !ok || !slices.Equal(row.Kills, []string{ownKill.ID}) || len(row.After) != 0 {
		t.Errorf("row %+v (ok %v), want the property alone", row, ok)
	}
}
