package mutants_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
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

// TestMutantReport runs every scenario and every property (50 checks, seed
// 1) against every variant and prints the catalogue: the bug each variant
// models and the cases that killed it, then the clauses no variant
// breaks. It fails when a variant survives. It is slow (the whole suite
// once per variant), so it runs only with -mutants.report; `make test`
// has TestSuiteKillsEveryMutant, which stops at the first killing cases.
func TestMutantReport(t *testing.T) {
	if !*reportFlag {
		t.Skip("run with -mutants.report (make mutants)")
	}
	all := mutants.All()
	verdicts := make([]mutants.Verdict, len(all))
	started := time.Now()
	t.Run("variants", func(t *testing.T) {
		for i, m := range all {
			t.Run(m.Name, func(t *testing.T) {
				t.Parallel()
				tg, err := inprocess.New(m.Engine)
				if err != nil {
					t.Fatal(err)
				}
				results, err := runner.Run(context.Background(), tg, runner.Options{Checks: 50, Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				var failures []mutants.Failure
				for _, r := range results {
					if r.Outcome.IsFailure() {
						failures = append(failures, mutants.Failure{ID: r.ID, Property: r.Kind == result.Property, Clauses: r.Clauses})
					}
				}
				verdicts[i] = mutants.NewVerdict(m, failures)
				if !verdicts[i].Killed() {
					t.Errorf("mutant %s (%s) survived", m.Name, m.Bug)
				}
			})
		}
	})
	var buf bytes.Buffer
	if err := mutants.WriteReport(&buf, verdicts, all); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&buf, "\n(%d variants, each against every scenario and property; %s)\n", len(all), time.Since(started).Round(time.Second))
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
	prop := mutants.Failure{ID: "prop/some-property", Property: true, Clauses: a.Clauses}
	other := mutants.Failure{ID: "PROTO-1/elsewhere", Clauses: []string{"PROTO-1"}}
	va := mutants.NewVerdict(a, []mutants.Failure{killing, other, prop})
	vb := mutants.NewVerdict(b, []mutants.Failure{other})
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
		fmt.Sprintf("| `%s` | %s | %s | %s | `%s` | `prop/some-property` | 1 |", a.Name, a.Bug, strings.Join(a.Clauses, ", "), strings.Join(va.KillingClauses(), ", "), killing.ID),
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
