package runner_test

import (
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/properties"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/trace"
	"github.com/convspec/convspec/spec"
)

// TestMain doubles as the reference server when CONVSPEC_SERVE is set, so
// the wire test runs a real child process without building a binary.
func TestMain(m *testing.M) {
	if os.Getenv("CONVSPEC_SERVE") == "1" {
		if err := server.Serve(context.Background(), server.NewHandler(server.Reference{}), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runAsSubtests reports each case as a subtest, so `go test -run` can pick
// one scenario or property by its stable ID.
func runAsSubtests(t *testing.T, tg target.Target) {
	results, err := runner.Run(context.Background(), tg, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("no case ran")
	}
	for _, r := range results {
		t.Run(r.ID, func(t *testing.T) {
			switch {
			case r.Outcome == result.NotApplicable:
				t.Skipf("not applicable: %s", r.Detail)
			case r.Outcome != result.Passed:
				t.Errorf("%s %v: %s", r.Outcome, r.Clauses, r.Detail)
			}
		})
	}
}

func TestReferenceInProcess(t *testing.T) {
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	runAsSubtests(t, tg)
}

func TestReferenceOverTheWire(t *testing.T) {
	tg, err := target.StartProcess(context.Background(), target.ProcessConfig{
		Command: []string{os.Args[0]},
		Env:     []string{"CONVSPEC_SERVE=1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	runAsSubtests(t, tg)
	if n := tg.Restarts(); n != 0 {
		t.Errorf("the reference server was restarted %d times", n)
	}
}

// TestEveryClauseIsChecked: a clause without a scenario or property is a
// promise nobody checks; a tag naming no clause is a typo (the rules are
// trace.CaseGaps', the trace's part that needs no traceability document).
func TestEveryClauseIsChecked(t *testing.T) {
	cases, err := runner.TraceCases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range trace.CaseGaps(spec.Clauses(), cases) {
		t.Error(g)
	}
}

func TestScenarioIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		tags []string
		id   string
		bad  bool
	}{
		{"an empty config takes every default", []string{"@window", "@CFG-1"}, "CFG-1/an-empty-config-takes-every-default", false},
		{"x", []string{"@WIN-4", "@WIN-2", "@WIN-4"}, "WIN-4/x", false},
		{"untagged", []string{"@window"}, "", true},
		{"typo", []string{"@WIN-4", "@windw"}, "", true},
	} {
		c, err := runner.ScenarioCase(tc.name, "f.feature", tc.tags)
		if tc.bad != (err != nil) || c.ID != tc.id {
			t.Errorf("ScenarioCase(%q, %v) = %q, %v; want %q (error: %v)", tc.name, tc.tags, c.ID, err, tc.id, tc.bad)
		}
	}
	if got := runner.Slug("Head 3 + tail 4: only they're kept (max 0.5)"); got != "head-3-plus-tail-4-only-they-re-kept-max-0.5" {
		t.Errorf("Slug = %q", got)
	}
}

// TestSelection: -run and -skip run exactly the cases `conform list`
// selects, in its order — also when the selection is one example of an
// outline, or skips most of the features — and a case keeps its source.
func TestSelection(t *testing.T) {
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := runner.Cases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ run, skip string }{
		{run: `^WIN-3/`},
		{run: `^EST-1/5-characters`},
		{run: `^(EST-2|WIN-1)/|^prop/window-bound$`},
		{run: `^WIN-`, skip: `exactly|^WIN-[2-9]`},
		{skip: `^[A-Z]`},
	} {
		opts := runner.Options{Checks: 5}
		if tc.run != "" {
			opts.Run = mustCompile(t, tc.run)
		}
		if tc.skip != "" {
			opts.Skip = mustCompile(t, tc.skip)
		}
		var want []string
		sources := map[string]string{}
		for _, c := range all {
			if (opts.Run == nil || opts.Run.MatchString(c.ID)) && (opts.Skip == nil || !opts.Skip.MatchString(c.ID)) {
				want = append(want, c.ID)
				sources[c.ID] = c.Source
			}
		}
		if len(want) == 0 {
			t.Fatalf("-run %q -skip %q selects nothing", tc.run, tc.skip)
		}
		results, err := runner.Run(context.Background(), tg, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range results {
			got = append(got, r.ID)
			if r.Outcome != result.Passed {
				t.Errorf("%s: %s: %s", r.ID, r.Outcome, r.Detail)
			}
			if r.Source != sources[r.ID] {
				t.Errorf("%s: source %q, want %q", r.ID, r.Source, sources[r.ID])
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("-run %q -skip %q ran\n%q\nwant\n%q", tc.run, tc.skip, got, want)
		}
	}
}

// TestCaseIDsAreStable: every ID is derived from what a case is — a
// scenario's first clause and its name, a property's name — never from a
// line number or position, so it survives edits elsewhere; and it is unique.
func TestCaseIDsAreStable(t *testing.T) {
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	scenarioID := regexp.MustCompile(`^[A-Z]+-[0-9]+/[a-z0-9.]+(-[a-z0-9.]+)*$`)
	propertyID := regexp.MustCompile(`^prop/[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.ID] {
			t.Errorf("ID %s twice", c.ID)
		}
		seen[c.ID] = true
		switch c.Kind {
		case result.Scenario:
			if !scenarioID.MatchString(c.ID) || !strings.HasPrefix(c.ID, c.Clauses[0]+"/") || c.ID != c.Clauses[0]+"/"+runner.Slug(c.Name) {
				t.Errorf("scenario %q (%s): ID %s is not its first clause and the slug of its name", c.Name, c.Source, c.ID)
			}
		case result.Property:
			if !propertyID.MatchString(c.ID) {
				t.Errorf("property ID %s is not prop/NAME", c.ID)
			}
		default:
			t.Errorf("%s: kind %q", c.ID, c.Kind)
		}
	}
}

// TestPropertyDetail: a failing property's detail is rapid's message with
// the requests, its seed is the failing check's, and rapid's replay of the
// same lines and its advice on `go test` flags are left out.
func TestPropertyDetail(t *testing.T) {
	m, ok := mutants.Lookup("estimate-floor")
	if !ok {
		t.Skip("no mutant estimate-floor")
	}
	tg, err := inprocess.New(m.Engine)
	if err != nil {
		t.Fatal(err)
	}
	// The random checks' detail: without the edge examples, which catch
	// this variant first.
	var props []properties.Property
	for _, p := range properties.All() {
		if p.ID == "prop/window-estimate" {
			p.Examples = nil
			props = append(props, p)
		}
	}
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: mustCompile(t, `^prop/window-estimate$`), Seed: 42, Checks: 50, Properties: props})
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 1 || results[0].Outcome != result.Failed {
		t.Fatalf("results: %+v", results)
	}
	r := results[0]
	for _, want := range []string{"[rapid] failed after", "EST-1", "requests sent:", "window.estimate {"} {
		if !strings.Contains(r.Detail, want) {
			t.Errorf("detail lacks %q:\n%s", want, r.Detail)
		}
	}
	for _, unwanted := range []string{"Failed test output", "rapid.seed", "To reproduce", "[rapid] draw"} {
		if strings.Contains(r.Detail, unwanted) {
			t.Errorf("detail has %q:\n%s", unwanted, r.Detail)
		}
	}
	if r.Seed == 0 || r.Seed == 42 && !strings.Contains(r.Detail, "failed after 0 tests") {
		t.Errorf("seed %d is not the failing check's", r.Seed)
	}
}
