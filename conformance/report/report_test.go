package report_test

import (
	"bytes"
	"encoding/xml"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

func scenario(id string, o result.Outcome, detail string, clauses ...string) result.Result {
	return result.Result{Case: result.Case{ID: id, Kind: result.Scenario, Name: "name of " + id, Clauses: clauses, Capability: "window", Source: "window.feature"},
		Outcome: o, Detail: detail, Duration: 3 * time.Millisecond}
}

// withDeviation is r with one deviation, d, whose detail is r's, as the
// runner makes a scenario's single failing Then.
func withDeviation(r result.Result, d result.Deviation) result.Result {
	d.Detail = r.Detail
	r.Deviations = []result.Deviation{d}
	return r
}

func property(id string, o result.Outcome, seed uint64, detail string, clauses ...string) result.Result {
	return result.Result{Case: result.Case{ID: id, Kind: result.Property, Name: "what " + id + " checks", Clauses: clauses, Capability: "window"},
		Outcome: o, Detail: detail, Seed: seed, Duration: 40 * time.Millisecond}
}

func resultsOf(cases []report.Case) []result.Result {
	out := make([]result.Result, len(cases))
	for i, c := range cases {
		out[i] = c.Result
	}
	return out
}

var info = &target.Info{Name: "my-trimmer", Version: "1.2.0", Capabilities: []string{"window"}}

// sampleRuns are runs of every shape a report can take.
func sampleRuns() map[string]*report.Run {
	base := func() *report.Run {
		return &report.Run{Implementation: info, Command: []string{"node", "adapter.js"}, Seed: 42, Checks: 100,
			Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Duration: 2 * time.Second}
	}
	passed := base()
	passed.Cases = report.Judge([]result.Result{
		scenario("WIN-1/under-the-cap", result.Passed, "", "WIN-1"),
		scenario("WIN-9/openai-units", result.NotApplicable, "capability history not declared", "WIN-9"),
		property("prop/window-bound", result.Passed, 42, "", "WIN-6"),
	}, nil, false)

	failures := base()
	baseline := &report.Baseline{Version: 1, Implementation: "my-trimmer", Entries: []report.Entry{
		{ID: "WIN-2/b", Reason: "known: we keep one more", Issue: "https://example.com/issues/7"},
		{ID: "WIN-1/under-the-cap", Reason: "was broken"},
	}}
	failures.Baseline = &report.BaselineFile{Path: "conform-baseline.json", Baseline: baseline}
	failures.Cases = report.Judge([]result.Result{
		scenario("WIN-1/under-the-cap", result.Passed, "", "WIN-1"),
		withDeviation(scenario("WIN-2/a", result.Failed, "wanted trimmed = messages [1 2 3]\ngot    trimmed = messages [1 2 3 3]\n  sent: window.trim {\"messages\":[]}\n  got:  <b>&amp ``` fence", "WIN-2", "WIN-5"),
			result.Deviation{Step: "the trimmed conversation is m1 m2 m3", Sent: `window.trim {"messages":[]}`, Got: "messages [1 2 3 3] <b>&amp ``` fence", Want: "messages [1 2 3]"}),
		scenario("WIN-2/b", result.Failed, "wanted 1, got 2", "WIN-2"),
		scenario("WIN-3/c", result.Timeout, "timeout during window.trim: no response within 300ms\nlast lines of stderr:\n  | \x1b[31mbang\x00", "WIN-3"),
		scenario("WIN-4/d", result.Crash, "crash during window.trim: stdout closed without a response; it ended with exit status 2", "WIN-4"),
		scenario("PROTO-1/e", result.ProtocolError, "protocol_error during window.create: response has id 7, the request had id 3", "PROTO-1"),
		scenario("WIN-5/f", result.Unsupported, "unsupported: no summaries here", "WIN-5"),
		scenario("WIN-9/g", result.NotApplicable, "capability history not declared", "WIN-9"),
		property("prop/window-bound", result.Failed, 1234567, "[rapid] failed after 2 tests: WIN-6: kept 11 > max 10", "WIN-6"),
		property("prop/window-idempotent", result.Passed, 42, "", "WIN-7"),
	}, baseline, false)
	for i := range failures.Cases {
		if failures.Cases[i].Outcome.IsFailure() {
			failures.Cases[i].Reproduce = "conform -run '^" + failures.Cases[i].ID + "$' -- node adapter.js"
		}
	}

	limit := base()
	limit.RestartLimit = true
	nr := func(id string) result.Result {
		r := scenario(id, result.Crash, result.NotRunDetail+" before this case", "WIN-4")
		r.NotRun = true
		return r
	}
	limit.Cases = report.Judge([]result.Result{
		scenario("WIN-1/under-the-cap", result.Passed, "", "WIN-1"),
		scenario("WIN-4/d", result.Crash, "crash during window.trim: it was killed by signal 9", "WIN-4"),
		nr("WIN-4/x"), nr("WIN-4/y"),
	}, nil, false)

	interrupted := base()
	interrupted.Interrupted = true
	interrupted.Cases = passed.Cases[:1]

	notStarted := base()
	notStarted.Implementation = nil
	notStarted.StartError = "timeout during initialize: no response within 300ms"

	interruptedEarly := base()
	interruptedEarly.Implementation = nil
	interruptedEarly.Interrupted = true

	mutant := base()
	mutant.Command, mutant.Mutant = nil, "head-tail-overlap"
	mutant.Cases = failures.Cases[1:2]

	// A strict run: one unsupported case the baseline lists (expected),
	// one it does not (failing).
	strict := base()
	strict.Strict = true
	strictBase := &report.Baseline{Version: 1, Implementation: "my-trimmer", Entries: []report.Entry{
		{ID: "EST-1/b", Reason: "no estimates until v2"},
	}}
	strict.Baseline = &report.BaselineFile{Path: "conform-baseline.json", Baseline: strictBase}
	strict.Cases = report.Judge([]result.Result{
		scenario("WIN-1/under-the-cap", result.Passed, "", "WIN-1"),
		scenario("EST-1/a", result.Unsupported, "unsupported: window.estimate is not supported", "EST-1"),
		scenario("EST-1/b", result.Unsupported, "unsupported: window.estimate is not supported", "EST-1"),
		scenario("WIN-9/g", result.NotApplicable, "capability history not declared", "WIN-9"),
	}, strictBase, true)

	return map[string]*report.Run{
		"passed": passed, "failures": failures, "restart-limit": limit, "interrupted": interrupted,
		"not-started": notStarted, "interrupted-before-handshake": interruptedEarly, "mutant": mutant,
		"strict": strict,
	}
}

func TestVerdictsAndExitCodes(t *testing.T) {
	runs := sampleRuns()
	for _, tc := range []struct {
		run     string
		status  string
		code    int
		verdict string
	}{
		{"passed", "passed", 0, "PASS"},
		{"failures", "failed", 1, "FAIL: 5 cases fail outside the baseline; 1 stale baseline entry"},
		{"restart-limit", "failed", 1, "FAIL: restart limit reached, 2 cases not run; 1 case fails"},
		{"interrupted", "interrupted", 1, "INTERRUPTED after 1 case"},
		{"not-started", "not_started", 3, "NOT STARTED: the implementation could not be started or failed the handshake"},
		{"interrupted-before-handshake", "interrupted", 1, "INTERRUPTED after 0 cases"},
		{"mutant", "failed", 1, "FAIL: 1 case fails"},
		{"strict", "failed", 1, "FAIL: 1 case fails outside the baseline (strict: 1 unsupported)"},
	} {
		r := runs[tc.run]
		if got := r.Status(); got != tc.status {
			t.Errorf("%s: Status() = %q, want %q", tc.run, got, tc.status)
		}
		if got := r.ExitCode(); got != tc.code {
			t.Errorf("%s: ExitCode() = %d, want %d", tc.run, got, tc.code)
		}
		if got := r.Verdict(); got != tc.verdict {
			t.Errorf("%s: Verdict() = %q, want %q", tc.run, got, tc.verdict)
		}
	}
}

func TestBaselineOnlyAcceptsWhatFails(t *testing.T) {
	b := &report.Baseline{Version: 1, Entries: []report.Entry{{ID: "A/x", Reason: "r", Outcome: result.Timeout}, {ID: "A/y", Reason: "r"}}}
	run := &report.Run{Implementation: info, Seed: 1, Baseline: &report.BaselineFile{Path: "b.json", Baseline: b}}
	run.Cases = report.Judge([]result.Result{
		scenario("A/x", result.Timeout, "slow", "WIN-1"),
		scenario("A/z", result.Passed, "", "WIN-1"),
	}, b, false)
	if v := run.Cases[0].Verdict(); v != report.Expected {
		t.Errorf("a listed timeout is %s, want expected_failure", v)
	}
	if !run.Passed() || run.ExitCode() != 0 {
		t.Errorf("a run whose only failure is expected fails: %s", run.Verdict())
	}
	if got := run.Verdict(); got != "PASS (1 expected failure)" {
		t.Errorf("Verdict() = %q", got)
	}
	// A listed case that passes is stale; one that is not applicable too.
	for _, o := range []result.Outcome{result.Passed, result.NotApplicable, result.Unsupported} {
		run.Cases = report.Judge([]result.Result{scenario("A/x", o, "", "WIN-1")}, b, false)
		if v := run.Cases[0].Verdict(); v != report.Stale || run.ExitCode() != 1 {
			t.Errorf("a listed case that is %s: verdict %s, exit %d; want stale, 1", o, v, run.ExitCode())
		}
	}
	// An entry accepts the outcome it names, and the causes it lists; any
	// other failure of its case fails the run (D-50). Without an outcome
	// it accepts a deviation (failed, unsupported), never a transport
	// failure such as a second answer charged to the case.
	for _, tc := range []struct {
		entry report.Entry
		got   result.Result
		want  report.Verdict
	}{
		{report.Entry{Outcome: result.Timeout}, scenario("A/x", result.Crash, "exit status 1", "WIN-1"), report.Failing},
		{report.Entry{}, scenario("A/x", result.ProtocolError, "protocol_error during tokens.encode: a second answer", "WIN-1"), report.Failing},
		{report.Entry{}, scenario("A/x", result.Failed, "trimmed differs at index 2: got 3", "WIN-1"), report.Expected},
		{report.Entry{Outcome: result.Failed, Causes: []string{"failed: trimmed differs at index N"}},
			scenario("A/x", result.Failed, "trimmed differs at index 2: got 3", "WIN-1"), report.Expected},
		{report.Entry{Outcome: result.Failed, Causes: []string{"failed: trimmed differs at index N"}},
			scenario("A/x", result.Failed, "evicted differs at index 2: got 3", "WIN-1"), report.Failing},
		{report.Entry{Outcome: result.Crash, Causes: []string{"crash: shutdown"}},
			scenario("A/x", result.Crash, "shutdown: non_zero_exit: after shutdown it ended with exit status 1", "PROTO-1"), report.Expected},
	} {
		tc.entry.ID, tc.entry.Reason = "A/x", "r"
		eb := &report.Baseline{Version: 1, Entries: []report.Entry{tc.entry}}
		run.Cases = report.Judge([]result.Result{tc.got}, eb, false)
		if v := run.Cases[0].Verdict(); v != tc.want {
			t.Errorf("entry %+v, result %s %q: verdict %s, want %s", tc.entry, tc.got.Outcome, tc.got.Detail, v, tc.want)
		}
		if tc.want == report.Failing && run.Passed() {
			t.Errorf("entry %+v accepts %s %q: %s", tc.entry, tc.got.Outcome, tc.got.Detail, run.Verdict())
		}
	}
	// A case not run because of the restart limit is never expected.
	nr := scenario("A/x", result.Crash, result.NotRunDetail, "WIN-1")
	nr.NotRun = true
	run.Cases = report.Judge([]result.Result{nr}, b, false)
	if v := run.Cases[0].Verdict(); v != report.Failing {
		t.Errorf("a listed case not run: %s, want failing", v)
	}
}

func TestCountsEveryOutcomeClass(t *testing.T) {
	c := sampleRuns()["failures"].Count()
	want := map[result.Outcome]int{
		result.Passed: 2, result.Failed: 3, result.Timeout: 1, result.Crash: 1, result.ProtocolError: 1,
		result.Unsupported: 1, result.NotApplicable: 1,
	}
	for o, n := range want {
		if c.Outcomes[o] != n {
			t.Errorf("%s: %d, want %d", o, c.Outcomes[o], n)
		}
	}
	if c.Total != 10 || c.Expected != 1 || c.Stale != 1 || c.Failing != 6 || c.NotRun != 0 {
		t.Errorf("counts %+v", c)
	}
	if got := c.Summary(); got != "2 passed, 3 failed, 1 timeout, 1 crash, 1 protocol error, 1 unsupported, 1 not applicable" {
		t.Errorf("Summary() = %q", got)
	}
	if got := sampleRuns()["restart-limit"].Count().Summary(); !strings.Contains(got, "3 crash (2 not run)") {
		t.Errorf("Summary() = %q", got)
	}
}

func TestText(t *testing.T) {
	var buf bytes.Buffer
	run := sampleRuns()["failures"]
	if err := report.Text(&buf, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	title := "WIN-2"
	if c, ok := spec.Lookup("WIN-2"); ok {
		title = "WIN-2 — " + c.Title
	}
	for _, want := range []string{
		"convspec conformance: my-trimmer 1.2.0 (capabilities: window)\nseed 42\n",
		"--- FAILED WIN-2/a [WIN-2 WIN-5]\n    " + title + "\n",
		"    scenario: \"name of WIN-2/a\" (features/window.feature)\n",
		"    got    trimmed = messages [1 2 3 3]\n",
		"    reproduce: conform -run '^WIN-2/a$' -- node adapter.js\n",
		"--- EXPECTED FAILED WIN-2/b [WIN-2] (baseline: known: we keep one more; https://example.com/issues/7)\n",
		"--- STALE WIN-1/under-the-cap: listed in conform-baseline.json as a known deviation, but it passes now: remove its entry from conform-baseline.json\n",
		"--- TIMEOUT WIN-3/c [WIN-3]\n",
		"--- CRASH WIN-4/d [WIN-4]\n",
		"--- PROTOCOL_ERROR PROTO-1/e [PROTO-1]\n",
		"--- FAILED prop/window-bound [WIN-6]\n",
		"    seed: 1234567\n",
		"2 passed, 3 failed, 1 timeout, 1 crash, 1 protocol error, 1 unsupported, 1 not applicable\n",
		"baseline conform-baseline.json: 1 expected failure, 1 stale entry\n",
		"FAIL: 5 cases fail outside the baseline; 1 stale baseline entry\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "wanted 1, got 2") {
		t.Errorf("an expected failure's details are shown without -v:\n%s", out)
	}
	if strings.Contains(out, "\x1b[32m") || strings.Contains(out, "\x1b[1m") {
		t.Errorf("colour without Color")
	}

	buf.Reset()
	if err := report.Text(&buf, run, report.TextOptions{Verbose: true, Color: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\x1b[31mFAILED\x1b[0m WIN-2/a", "wanted 1, got 2", "\x1b[32mok  \x1b[0m prop/window-idempotent", "\x1b[33mn/a \x1b[0m WIN-9/g"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the verbose colour report lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestTextOfPartialRuns(t *testing.T) {
	runs := sampleRuns()
	for name, wants := range map[string][]string{
		"restart-limit": {"restart limit reached: the implementation failed more often than -max-restarts allows; the run stopped and 2 cases were not run", "--- CRASH WIN-4/d"},
		"interrupted":   {"interrupted: the report shows the 1 case that completed", "INTERRUPTED after 1 case"},
		"not-started":   {"convspec conformance: node adapter.js\n    timeout during initialize: no response within 300ms\nNOT STARTED"},
	} {
		var buf bytes.Buffer
		if err := report.Text(&buf, runs[name], report.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("%s: the report lacks %q:\n%s", name, want, buf.String())
			}
		}
		if name == "restart-limit" && strings.Contains(buf.String(), "WIN-4/x") {
			t.Errorf("cases not run are listed one by one without -v:\n%s", buf.String())
		}
	}
}

func TestJUnit(t *testing.T) {
	type problem struct {
		Type    string `xml:"type,attr"`
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Failure   *problem `xml:"failure"`
		Error     *problem `xml:"error"`
		Skipped   *problem `xml:"skipped"`
		SystemOut string   `xml:"system-out"`
	}
	type testsuite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Errors   int        `xml:"errors,attr"`
		Skipped  int        `xml:"skipped,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type testsuites struct {
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Suites   []testsuite `xml:"testsuite"`
	}
	decode := func(run *report.Run) testsuites {
		var buf bytes.Buffer
		if err := report.JUnit(&buf, run); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(buf.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
			t.Errorf("no XML header")
		}
		var doc testsuites
		if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatalf("%v\n%s", err, buf.String())
		}
		return doc
	}

	doc := decode(sampleRuns()["failures"])
	// failed ×2 + stale: failures; timeout, crash, protocol error: errors;
	// expected, unsupported, not applicable: skipped.
	if doc.Tests != 10 || doc.Failures != 3 || doc.Errors != 3 || doc.Skipped != 3 {
		t.Errorf("testsuites counts: %+v", doc)
	}
	if len(doc.Suites) != 2 || doc.Suites[0].Name != "scenario" || doc.Suites[1].Name != "property" {
		t.Fatalf("want a testsuite per kind, got %+v", doc.Suites)
	}
	byName := map[string]testcase{}
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			byName[c.Name] = c
		}
	}
	if c := byName["WIN-2/a"]; c.Failure == nil || c.Failure.Type != "failed" || !strings.Contains(c.Failure.Text, "got    trimmed = messages [1 2 3 3]") || c.Classname != "WIN-2" {
		t.Errorf("WIN-2/a: %+v", c)
	}
	if c := byName["WIN-3/c"]; c.Error == nil || c.Error.Type != "timeout" || strings.ContainsAny(c.Error.Text, "\x00\x1b") {
		t.Errorf("WIN-3/c: %+v", c)
	}
	if c := byName["WIN-2/b"]; c.Skipped == nil || !strings.Contains(c.Skipped.Message, "expected failed (baseline: known: we keep one more)") {
		t.Errorf("WIN-2/b: %+v", c)
	}
	if c := byName["WIN-1/under-the-cap"]; c.Failure == nil || c.Failure.Type != "stale" || !strings.Contains(c.Failure.Message, "remove its entry") {
		t.Errorf("WIN-1/under-the-cap: %+v", c)
	}
	if c := byName["prop/window-bound"]; !strings.Contains(c.SystemOut, "seed: 1234567") || !strings.Contains(c.SystemOut, "reproduce: conform -run") {
		t.Errorf("prop/window-bound: %+v", c)
	}
	if c := byName["prop/window-idempotent"]; c.SystemOut != "seed: 42" || c.Failure != nil || c.Error != nil || c.Skipped != nil {
		t.Errorf("prop/window-idempotent: %+v", c)
	}

	doc = decode(sampleRuns()["not-started"])
	if doc.Tests != 1 || doc.Errors != 1 || doc.Suites[0].Cases[0].Error.Type != "not_started" {
		t.Errorf("not started: %+v", doc)
	}
	doc = decode(sampleRuns()["interrupted"])
	if last := doc.Suites[len(doc.Suites)-1]; last.Name != "conform" || last.Cases[0].Error == nil || last.Cases[0].Error.Type != "interrupted" {
		t.Errorf("interrupted: %+v", doc)
	}
	doc = decode(sampleRuns()["restart-limit"])
	var notRun *testcase
	for i, c := range doc.Suites[0].Cases {
		if c.Name == "WIN-4/x" {
			notRun = &doc.Suites[0].Cases[i]
		}
	}
	if doc.Errors != 3 || notRun == nil || notRun.Error == nil || notRun.Error.Message != result.NotRunDetail {
		t.Errorf("restart limit: %+v", doc)
	}
}

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := report.Markdown(&buf, sampleRuns()["failures"]); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"## ❌ convspec conformance: FAIL: 5 cases fail outside the baseline; 1 stale baseline entry\n",
		"| outcome | cases |\n| --- | ---: |\n| passed | 2 |\n| failed | 3 |\n| timeout | 1 |\n| crash | 1 |\n| protocol error | 1 |\n| unsupported | 1 |\n| not applicable | 1 |\n| expected failure (baseline) | 1 |\n| stale baseline entry | 1 |\n| **total** | **10** |\n",
		"### Failures (5)\n",
		"<details><summary><code>WIN-2/a</code> — <b>failed</b> — WIN-2",
		"````\nwanted trimmed = messages [1 2 3]\n", // a fence longer than the detail's ```
		"Seed `1234567`.",
		"### Stale baseline entries (1)\n",
		"### Expected failures (1)\n\n- `WIN-2/b` — failed: known\\: we keep one more (<https://example.com/issues/7>)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "<details>"); n != strings.Count(out, "</details>") || n != 5 {
		t.Errorf("%d <details> blocks for 5 failures", n)
	}

	buf.Reset()
	if err := report.Markdown(&buf, sampleRuns()["passed"]); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), "## ✅ convspec conformance: PASS\n") || strings.Contains(buf.String(), "<details>") {
		t.Errorf("passed run:\n%s", buf.String())
	}
}

func TestReadBaseline(t *testing.T) {
	for _, tc := range []struct{ doc, err string }{
		{`{"version":1,"implementation":"x","entries":[]}`, ""},
		{`{"version":1,"implementation":"x","entries":[{"id":"A/b","reason":"r","issue":"https://e/1"}]}`, ""},
		{`{"version":2,"implementation":"x","entries":[]}`, "baseline version 2 is not supported"},
		{`{"version":1,"implementation":"x"}`, `no "entries"`},
		{`{"version":1,"implementation":"x","entries":[{"id":"A/b","reson":"r"}]}`, `unknown field "reson"`},
		{`{"version":1,"implementation":"x","entries":[{"id":"A/b"}]}`, "A/b has no reason"},
		{`{"version":1,"implementation":"x","entries":[{"reason":"r"}]}`, "entry 0 has no id"},
		{`{"version":1,"implementation":"x","entries":[{"id":"A/b","reason":"r"},{"id":"A/b","reason":"s"}]}`, "lists A/b twice"},
		{`[]`, "not a baseline file"},
		{`{"version":1,"implementation":"x","entries":[]} {}`, "more than one JSON value"},
		{`{"version":1,"implementation":"x","entries":[]}]`, "more than one JSON value"},
	} {
		_, err := report.ReadBaseline(strings.NewReader(tc.doc))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.doc, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.doc, err, tc.err)
		}
	}
	b := &report.Baseline{Version: 1, Entries: []report.Entry{{ID: "WIN-1/x", Reason: "r"}, {ID: "WIN-1/typo", Reason: "r"}}}
	err := b.Check([]result.Case{{ID: "WIN-1/x"}})
	if err == nil || !strings.Contains(err.Error(), "WIN-1/typo, which names no case") {
		t.Errorf("Check: %v", err)
	}
}

func TestNewBaseline(t *testing.T) {
	results := []result.Result{
		scenario("WIN-3/z", result.Timeout, "", "WIN-3"),
		scenario("WIN-1/ok", result.Passed, "", "WIN-1"),
		scenario("WIN-2/a", result.Failed, "", "WIN-2"),
		scenario("WIN-9/na", result.NotApplicable, "", "WIN-9"),
		property("prop/p", result.Crash, 3, "", "WIN-6"),
	}
	previous := &report.Baseline{Entries: []report.Entry{{ID: "WIN-3/z", Reason: "slow on CI", Issue: "https://e/2"}, {ID: "WIN-1/ok", Reason: "fixed since"}}}
	b := report.NewBaseline("my-trimmer", results, previous, false)
	var one, two bytes.Buffer
	if err := b.Write(&one); err != nil {
		t.Fatal(err)
	}
	// The same results in another order give the same bytes.
	for i, j := 0, len(results)-1; i < j; i, j = i+1, j-1 {
		results[i], results[j] = results[j], results[i]
	}
	if err := report.NewBaseline("my-trimmer", results, previous, false).Write(&two); err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": 1,
  "implementation": "my-trimmer",
  "entries": [
    {
      "id": "WIN-2/a",
      "reason": "TODO: explain",
      "outcome": "failed",
      "causes": [
        "failed"
      ]
    },
    {
      "id": "WIN-3/z",
      "reason": "slow on CI",
      "issue": "https://e/2",
      "outcome": "timeout",
      "causes": [
        "timeout"
      ]
    },
    {
      "id": "prop/p",
      "reason": "TODO: explain",
      "outcome": "crash",
      "causes": [
        "crash"
      ]
    }
  ]
}
`
	if one.String() != want || two.String() != want {
		t.Errorf("baseline:\n%s\nagain:\n%s\nwant:\n%s", one.String(), two.String(), want)
	}
	if _, err := report.ReadBaseline(&one); err != nil {
		t.Errorf("what NewBaseline writes does not read back: %v", err)
	}
	// No failure: an empty list, not null.
	var empty bytes.Buffer
	if err := report.NewBaseline("x", nil, nil, false).Write(&empty); err != nil || !regexp.MustCompile(`"entries": \[\]`).MatchString(empty.String()) {
		t.Errorf("empty baseline: %v\n%s", err, empty.String())
	}
}
