package runner_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/trace"
	"github.com/convspec/convspec/spec"
)

// TestMain doubles as the reference server when CONVSPEC_SERVE is set, so
// the wire test runs a real child process without building a binary.
// With CONVSPEC_SERVE=twice:METHOD it is the reference that answers every
// request of METHOD twice (see TestStraysFollowTheAnswer).
func TestMain(m *testing.M) {
	switch serve := os.Getenv("CONVSPEC_SERVE"); {
	case serve == "1":
		if err := server.Serve(context.Background(), server.NewHandler(server.Reference{}), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	case strings.HasPrefix(serve, "twice:"):
		serveTwice(strings.TrimPrefix(serve, "twice:"))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveTwice serves the reference on stdio, answering each request of
// method a second time, right after the first.
func serveTwice(method string) {
	h := server.NewHandler(server.Reference{})
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 64<<20)
	for in.Scan() {
		line := in.Bytes()
		resp := server.AnswerLine(context.Background(), h, line)
		if resp == nil {
			continue
		}
		var req struct{ Method string }
		_ = json.Unmarshal(line, &req)
		n := 1
		if req.Method == method {
			n = 2
		}
		for range n {
			os.Stdout.Write(append(resp, '\n'))
		}
		if req.Method == protocol.MethodShutdown {
			return
		}
	}
}

// wireChecks is how many cases a property draws in the run over the wire:
// the suite at full strength is the run in process, the subject of the one
// over the wire is the transport, which 20 cases a property exercise as
// 100 do (D-87); make test-full passes 100.
var wireChecks = flag.Int("runner.wire-checks", 20, "generated cases per property in TestReferenceOverTheWire (conform -checks)")

// runAsSubtests reports each case as a subtest, so `go test -run` can pick
// one scenario or property by its stable ID; checks is conform -checks (0:
// the default).
func runAsSubtests(t *testing.T, tg target.Target, checks int) {
	opts := runner.Options{Checks: checks}
	if testing.Short() {
		// make check: every case, the properties at a tenth of their
		// checks (conform -checks 10); make test runs them all.
		opts.Checks = 10
	}
	results, err := runner.Run(context.Background(), tg, opts)
	require.NoError(t, err)
	require.NotEmpty(t, results, "no case ran")
	for _, r := range results {
		t.Run(r.ID, func(t *testing.T) {
			if r.Outcome == result.NotApplicable {
				t.Skipf("not applicable: %s", r.Detail)
			}
			assert.Equal(t, result.Passed, r.Outcome, "%v: %s", r.Clauses, r.Detail)
		})
	}
}

func TestReferenceInProcess(t *testing.T) {
	t.Parallel() // beside the run over the wire, which waits on its pipe half the time
	tg, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	runAsSubtests(t, tg, 0)
}

func TestReferenceOverTheWire(t *testing.T) {
	t.Parallel() // harness and server take turns on the pipe: a core is left for other tests
	// The first cl100k request builds the tokenizer's tables: on a loaded
	// runner it took longer than the default request timeout. These bounds
	// are for a hang, not for speed (D-44).
	tg, err := target.StartProcess(context.Background(), target.ProcessConfig{
		Command:      []string{os.Args[0]},
		Env:          []string{"CONVSPEC_SERVE=1"},
		StartTimeout: 2 * time.Minute,
		CallTimeout:  2 * time.Minute,
	})
	require.NoError(t, err)
	defer tg.Close()
	runAsSubtests(t, tg, *wireChecks)
	assert.Zero(t, tg.Restarts(), "times the reference server was restarted")
}

// TestEveryClauseIsChecked: a clause without a scenario or property is a
// promise nobody checks; a tag naming no clause is a typo (the rules are
// trace.CaseGaps', the trace's part that needs no traceability document).
func TestEveryClauseIsChecked(t *testing.T) {
	cases, err := runner.TraceCases(runner.Options{})
	require.NoError(t, err)
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
		if tc.bad {
			assert.Error(t, err, "ScenarioCase(%q, %v)", tc.name, tc.tags)
		} else {
			assert.NoError(t, err, "ScenarioCase(%q, %v)", tc.name, tc.tags)
		}
		assert.Equal(t, tc.id, c.ID, "ScenarioCase(%q, %v)", tc.name, tc.tags)
	}
	assert.Equal(t, "head-3-plus-tail-4-only-they-re-kept-max-0.5", runner.Slug("Head 3 + tail 4: only they're kept (max 0.5)"))
}

// TestSelection: -run and -skip run exactly the cases `conform list`
// selects, in its order — also when the selection is one example of an
// outline, or skips most of the features — and a case keeps its source.
func TestSelection(t *testing.T) {
	tg, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	all, err := runner.Cases(runner.Options{})
	require.NoError(t, err)
	for _, tc := range []struct{ run, skip string }{
		{run: `^WIN-3/`},
		{run: `^EST-1/5-characters`},
		{run: `^(EST-2|WIN-1)/|^prop/window-bound$`},
		{run: `^WIN-`, skip: `exactly|^WIN-[2-9]`},
		// every feature skipped, and the properties but the window's:
		// every property's edge examples are TestReferenceInProcess's
		// work (D-86)
		{skip: `^([A-Z]|prop/[a-v])`},
	} {
		// One random check a property: the subject is which cases run,
		// not what they find (D-86).
		opts := runner.Options{Checks: 1}
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
		require.NotEmpty(t, want, "-run %q -skip %q selects nothing", tc.run, tc.skip)
		results, err := runner.Run(context.Background(), tg, opts)
		require.NoError(t, err)
		var got []string
		for _, r := range results {
			got = append(got, r.ID)
			assert.Equal(t, result.Passed, r.Outcome, "%s: %s", r.ID, r.Detail)
			assert.Equal(t, sources[r.ID], r.Source, "%s: source", r.ID)
		}
		assert.Equal(t, want, got, "the cases -run %q -skip %q ran", tc.run, tc.skip)
	}
}

// TestCaseIDsAreStable: every ID is derived from what a case is — a
// scenario's first clause and its name, a property's name — never from a
// line number or position, so it survives edits elsewhere; and it is unique.
func TestCaseIDsAreStable(t *testing.T) {
	cases, err := runner.Cases(runner.Options{})
	require.NoError(t, err)
	scenarioID := regexp.MustCompile(`^[A-Z]+-[0-9]+/[a-z0-9.]+(-[a-z0-9.]+)*$`)
	propertyID := regexp.MustCompile(`^prop/[a-z0-9]+(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	for _, c := range cases {
		assert.False(t, seen[c.ID], "ID %s twice", c.ID)
		seen[c.ID] = true
		switch c.Kind {
		case result.Scenario:
			assert.Regexp(t, scenarioID, c.ID, "scenario %q (%s)", c.Name, c.Source)
			assert.Equal(t, c.Clauses[0]+"/"+runner.Slug(c.Name), c.ID, "scenario %q (%s): ID is not its first clause and the slug of its name", c.Name, c.Source)
		case result.Property:
			assert.Regexp(t, propertyID, c.ID, "property ID is not prop/NAME")
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
	require.NoError(t, err)
	// The random checks' detail: without the edge examples, which catch
	// this variant first.
	var props []prop.Property
	for _, p := range runner.Properties() {
		if p.ID == "prop/window-estimate" {
			p.Examples = nil
			props = append(props, p)
		}
	}
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: mustCompile(t, `^prop/window-estimate$`), Seed: 42, Checks: 50, Properties: props})
	require.NoError(t, err)
	require.Len(t, results, 1)
	require.Equal(t, result.Failed, results[0].Outcome, "%+v", results[0])
	r := results[0]
	// The detail spans lines: these messages print it as it is, where
	// assert.Contains would quote it on one line.
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

// TestPropertyDeviationParts: a failing property's deviation carries the
// requests it sent as Sent (D-72), one per line as its detail lists them,
// both for an edge example and for a random check shrunk by rapid (whose
// failure reaches the runner as text only).
func TestPropertyDeviationParts(t *testing.T) {
	m, ok := mutants.Lookup("estimate-floor")
	if !ok {
		t.Skip("no mutant estimate-floor")
	}
	tg, err := inprocess.New(m.Engine)
	require.NoError(t, err)
	for _, examples := range []bool{true, false} {
		var props []prop.Property
		for _, p := range runner.Properties() {
			if p.ID == "prop/window-estimate" {
				if !examples {
					p.Examples = nil
				}
				props = append(props, p)
			}
		}
		results, err := runner.Run(context.Background(), tg, runner.Options{Run: mustCompile(t, `^prop/window-estimate$`), Seed: 42, Checks: 50, Properties: props})
		require.NoError(t, err)
		require.Len(t, results, 1)
		r := results[0]
		require.Equal(t, result.Failed, r.Outcome, "%+v", r)
		require.Len(t, r.Deviations, 1)
		sent := r.Deviations[0].Sent
		require.NotEmpty(t, sent, "examples %v: no requests sent in the deviation; detail:\n%s", examples, r.Detail)
		for _, l := range strings.Split(sent, "\n") {
			require.True(t, strings.HasPrefix(l, "window."), "examples %v: sent line %q", examples, l)
			require.Contains(t, r.Detail, l, "examples %v: the detail lists every request sent", examples)
		}
	}
}

// TestDifferentialDeviationParts: a differential property's deviation says
// what came back and what was wanted as the member that differs, in the
// implementation's answer and in the reference's (D-72).
func TestDifferentialDeviationParts(t *testing.T) {
	m, ok := mutants.Lookup("estimate-floor")
	if !ok {
		t.Skip("no mutant estimate-floor")
	}
	tg, err := inprocess.New(m.Engine)
	require.NoError(t, err)
	results, err := runner.Run(context.Background(), tg, runner.Options{Run: mustCompile(t, `^prop/diff-window-estimate$`), Seed: 42, Checks: 50})
	require.NoError(t, err)
	require.Len(t, results, 1)
	r := results[0]
	require.Equal(t, result.Failed, r.Outcome, "%+v", r)
	d := r.Deviations[0]
	require.True(t, strings.HasPrefix(d.Got, "result.tokens: "), "got %q", d.Got)
	require.True(t, strings.HasPrefix(d.Want, "result.tokens: "), "want %q", d.Want)
	require.NotEqual(t, d.Got, d.Want)
	require.True(t, strings.HasPrefix(d.Sent, "window.estimate {"), "sent %q", d.Sent)
}
