package mutants_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/spec"
)

var (
	reportFlag = flag.Bool("mutants.report", false, "run the whole suite against every faulty variant and print the catalogue as a report (`make mutants`)")
	reportOut  = flag.String("mutants.out", "", "also write the report to `FILE`")
)

// seeds are the seeds TestMutantReport runs the properties with: a kill
// that depends on the seed is flagged.
var seeds = []uint64{1, 2, 3}

// TestMutantReport runs every scenario and every property (50 checks) against
// every variant, the properties under three seeds, and prints the
// catalogue: the bug each variant models, the cases that killed it,
// whether the differential properties did, under how many seeds it died,
// then the clauses no variant breaks. It fails when a variant survives or
// a kill depends on the seed. It is slow (the whole suite once per
// variant, the properties twice more), so it runs only with
// -mutants.report; it rewrites the kills table, against which `make test`'s
// TestSuiteKillsEveryMutant runs each variant.
func TestMutantReport(t *testing.T) {
	if !*reportFlag {
		t.Skip("run with -mutants.report (make mutants)")
	}
	differential := map[string]bool{}
	for _, p := range runner.Properties() {
		differential[p.ID] = p.Differential
	}
	all := mutants.All()
	verdicts := make([]mutants.Verdict, len(all))
	rows := make([]killsRow, len(all)) // the kills table's
	started := time.Now()
	t.Run("variants", func(t *testing.T) {
		for i, m := range all {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				if m.RefusedAtHandshake {
					// The harness refuses it before any case, at every seed.
					if _, err := inprocess.New(m.Engine); err == nil {
						t.Errorf("mutant %s (%s): the handshake was accepted", m.Name, m.Bug)
						return
					}
					verdicts[i] = mutants.NewVerdict(m, []mutants.Failure{{ID: handshakeKill, Clauses: m.Clauses}})
					rows[i] = killsRow{Kills: []string{handshakeKill}}
					for range seeds[1:] {
						verdicts[i].AddSeed(verdicts[i].Killers)
					}
					return
				}
				// What does not depend on the seed runs once, under the
				// first: the scenarios and the properties' edge examples.
				var onceKills []mutants.Failure
				for k, seed := range seeds {
					tg, err := inprocess.New(m.Engine)
					if err != nil {
						t.Fatal(err)
					}
					opts := runner.Options{Checks: 50, Seed: seed, NoShrink: true, FirstFailure: true}
					if k > 0 {
						opts.Run = regexp.MustCompile(`^prop/`)
						opts.NoExamples = true
					}
					results, err := runner.Run(context.Background(), tg, opts)
					if err != nil {
						t.Fatal(err)
					}
					var failures []mutants.Failure
					for _, r := range results {
						if !r.Outcome.IsFailure() {
							continue
						}
						f := mutants.Failure{ID: r.ID, Property: r.Kind == result.Property, Differential: differential[r.ID], Clauses: r.Clauses}
						failures = append(failures, f)
						if k == 0 && (!f.Property || strings.HasPrefix(r.Detail, "edge example ")) {
							onceKills = append(onceKills, f)
						}
					}
					if k == 0 {
						verdicts[i] = mutants.NewVerdict(m, failures)
					} else {
						// They ran once: their kills hold under every seed.
						failures = append(failures, onceKills...)
						verdicts[i].AddSeed(failures)
					}
				}
				switch v := verdicts[i]; {
				case !v.Killed():
					t.Errorf("mutant %s (%s) survived", m.Name, m.Bug)
				case v.SeedDependent():
					t.Errorf("mutant %s (%s) is killed under some seeds only: %v", m.Name, m.Bug, v.Seeds)
				default:
					rows[i], _ = newRow(t, m, v.Killers)
				}
			})
		}
	})
	// The full search is the kills table's source: the same failures at
	// seed 1 that TestSuiteKillsEveryMutant's search would find first.
	// A -run that selects some variants leaves the others' rows empty:
	// the table is rewritten only from a search of every variant.
	if !t.Failed() && !slices.ContainsFunc(rows, func(r killsRow) bool { return len(r.Kills) == 0 }) {
		table := map[string]killsRow{}
		for i, m := range all {
			table[m.Name] = rows[i]
		}
		if err := writeKills(table); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := mutants.WriteReport(&buf, verdicts, all); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&buf, "\n(%d variants, each against every scenario and property, the properties under seeds %v; %s)\n", len(all), seeds, time.Since(started).Round(time.Second))
	os.Stdout.Write(buf.Bytes())
	if *reportOut != "" {
		if err := os.WriteFile(*reportOut, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReportFormat(t *testing.T) {
	all := mutants.All()
	if len(all) < 2 {
		t.Skip("too few variants")
	}
	a, b := all[0], all[1]
	killing := mutants.Failure{ID: a.Clauses[0] + "/some-scenario", Clauses: []string{a.Clauses[0]}}
	prop := mutants.Failure{ID: "prop/some-property", Property: true, Differential: true, Clauses: a.Clauses}
	other := mutants.Failure{ID: "PROTO-1/elsewhere", Clauses: []string{"PROTO-1"}}
	va := mutants.NewVerdict(a, []mutants.Failure{killing, other, prop})
	vb := mutants.NewVerdict(b, []mutants.Failure{other})
	va.AddSeed([]mutants.Failure{other})
	if !va.Killed() || len(va.Killers) != 2 || len(va.Others) != 1 || vb.Killed() {
		t.Fatalf("verdicts: %+v / %+v", va, vb)
	}
	var buf bytes.Buffer
	if err := mutants.WriteReport(&buf, []mutants.Verdict{va, vb}, all); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"## Faulty variants: 1 of 2 killed",
		fmt.Sprintf("| `%s` | %s | %s | %s | `%s` | `prop/some-property` | yes | **1/2 SEED-DEPENDENT** | 1 |", a.Name, a.Bug, strings.Join(a.Clauses, ", "), strings.Join(va.KillingClauses(), ", "), killing.ID),
		"The differential properties alone kill 1; the suite without them 1; 0 only the differential properties kill.",
		"### Kills that depend on the seed: 1",
		fmt.Sprintf("- `%s` (%s): killed under 1 of 2 seeds ([true false])", a.Name, a.Bug),
		fmt.Sprintf("| `%s` |", b.Name),
		"**SURVIVED**",
		"### Survivors",
		fmt.Sprintf("- `%s` (%s): only cases of other clauses failed (`PROTO-1/elsewhere`)", b.Name, b.Bug),
		"### Clauses no variant breaks: ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestUnbroken(t *testing.T) {
	if got := mutants.Unbroken(nil); len(got) != len(spec.Clauses()) {
		t.Errorf("with no variants every clause is unbroken: got %d of %d", len(got), len(spec.Clauses()))
	}
	first := spec.Clauses()[0]
	for _, c := range mutants.Unbroken([]mutants.Mutant{{Clauses: []string{first.ID}}}) {
		if c.ID == first.ID {
			t.Errorf("%s is named by a variant, yet listed as unbroken", c.ID)
		}
	}
}
