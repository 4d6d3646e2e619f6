package runner_test

import (
	"context"
	"os"
	"slices"
	"testing"

	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/conformance/server"
	"github.com/convspec/convspec/conformance/target"
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
			case r.Outcome == runner.NotApplicable:
				t.Skipf("not applicable: %s", r.Detail)
			case r.Outcome != runner.Passed:
				t.Errorf("%s %v: %s", r.Outcome, r.Clauses, r.Detail)
			}
		})
	}
}

func TestReferenceInProcess(t *testing.T) {
	tg, err := target.NewInProcess(server.Reference{})
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
// promise nobody checks; a tag naming no clause is a typo.
func TestEveryClauseIsChecked(t *testing.T) {
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]bool{}
	for _, c := range cases {
		for _, id := range c.Clauses {
			if _, ok := spec.Lookup(id); !ok {
				t.Errorf("%s names clause %s, which SPEC.md does not define", c.ID, id)
			}
			checked[id] = true
		}
	}
	for _, c := range spec.Clauses() {
		if !checked[c.ID] {
			t.Errorf("clause %s (%s) has no scenario or property", c.ID, c.Title)
		}
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

func TestSelection(t *testing.T) {
	tg, err := target.NewInProcess(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	opts := runner.Options{}
	opts.Run = mustCompile(t, `^WIN-3/`)
	results, err := runner.Run(context.Background(), tg, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("-run ^WIN-3/ selected nothing")
	}
	for _, r := range results {
		if !slices.Contains([]string{r.ID[:6]}, "WIN-3/") {
			t.Errorf("-run ^WIN-3/ ran %s", r.ID)
		}
	}
}
