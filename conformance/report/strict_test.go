package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
)

// TestStrictVerdicts: without strict an unsupported case is ok (D-33);
// with it, it fails the run unless the baseline lists it, and then it is
// expected; a listed case that passes is stale either way. Nothing else
// changes.
func TestStrictVerdicts(t *testing.T) {
	listed := &report.Baseline{Version: 1, Entries: []report.Entry{{ID: "A/x", Reason: "r"}}}
	checked := ok() // something is checked (D-51)
	for _, tc := range []struct {
		name    string
		strict  bool
		base    *report.Baseline
		results []result.Result
		verdict report.Verdict // of the first case
		code    int
		line    string
	}{
		{"unsupported, not strict", false, nil,
			[]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1"), checked},
			report.Ok, 0, "PASS"},
		{"unsupported, strict", true, nil,
			[]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1")},
			report.Failing, 1, "FAIL: 1 case fails (strict: 1 unsupported)"},
		{"unsupported, strict, listed", true, listed,
			[]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1"), checked},
			report.Expected, 0, "PASS (1 expected failure)"},
		{"unsupported, strict, another listed", true, listed,
			[]result.Result{scenario("A/y", result.Unsupported, "declined", "WIN-1"), scenario("A/x", result.Failed, "wrong", "WIN-1")},
			report.Failing, 1, "FAIL: 1 case fails outside the baseline (strict: 1 unsupported)"},
		{"unsupported and failed, strict", true, nil,
			[]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1"), scenario("A/y", result.Failed, "wrong", "WIN-1")},
			report.Failing, 1, "FAIL: 2 cases fail (strict: 1 unsupported)"},
		{"failed, strict: nothing to say about strictness", true, nil,
			[]result.Result{scenario("A/x", result.Failed, "wrong", "WIN-1")},
			report.Failing, 1, "FAIL: 1 case fails"},
		{"listed and passes, strict: stale", true, listed,
			[]result.Result{scenario("A/x", result.Passed, "", "WIN-1")},
			report.Stale, 1, "FAIL: 1 stale baseline entry"},
		{"not applicable, strict", true, nil,
			[]result.Result{scenario("A/x", result.NotApplicable, "capability history not declared", "WIN-1"), checked},
			report.Ok, 0, "PASS"},
		{"listed and unsupported, not strict: stale", false, listed,
			[]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1")},
			report.Stale, 1, "FAIL: 1 stale baseline entry"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &report.Run{Implementation: info, Seed: 1, Strict: tc.strict, Cases: report.Judge(tc.results, tc.base, tc.strict)}
			if tc.base != nil {
				run.Baseline = &report.BaselineFile{Path: "b.json", Baseline: tc.base}
			}
			if v := run.Cases[0].Verdict(); v != tc.verdict {
				t.Errorf("verdict %s, want %s", v, tc.verdict)
			}
			checkRunOutcome(t, run, tc.code, tc.line)
		})
	}
}

func TestStrictCounts(t *testing.T) {
	c := sampleRuns()["strict"].Count()
	if c.Outcomes[result.Unsupported] != 2 || c.Expected != 1 || c.Failing != 1 || c.StrictFailing != 1 || c.Stale != 0 {
		t.Errorf("counts %+v", c)
	}
	// Without strict, no case fails because of it.
	if c := sampleRuns()["failures"].Count(); c.StrictFailing != 0 {
		t.Errorf("a run that is not strict has %d strict failures", c.StrictFailing)
	}
}

// TestStaleUnsupportedNamesStrict: a listed case that is unsupported in a
// run that is not strict is stale, and the advice names -strict, since the
// baseline was most likely written with it.
func TestStaleUnsupportedNamesStrict(t *testing.T) {
	b := &report.Baseline{Version: 1, Entries: []report.Entry{{ID: "A/x", Reason: "r"}}}
	run := &report.Run{Implementation: info, Seed: 1, Baseline: &report.BaselineFile{Path: "b.json", Baseline: b}}
	run.Cases = report.Judge([]result.Result{scenario("A/x", result.Unsupported, "declined", "WIN-1")}, b, false)
	if got := run.StaleAdvice(run.Cases[0]); !strings.Contains(got, "run with -strict, or remove its entry from b.json") {
		t.Errorf("StaleAdvice() = %q", got)
	}
	run.Cases = report.Judge([]result.Result{scenario("A/x", result.Passed, "", "WIN-1")}, b, true)
	if got := run.StaleAdvice(run.Cases[0]); strings.Contains(got, "-strict") {
		t.Errorf("StaleAdvice() of a passing case = %q", got)
	}
}

func TestNewBaselineStrict(t *testing.T) {
	results := []result.Result{
		scenario("EST-1/a", result.Unsupported, "", "EST-1"),
		scenario("WIN-2/a", result.Failed, "", "WIN-2"),
		scenario("WIN-9/na", result.NotApplicable, "", "WIN-9"),
	}
	ids := func(b *report.Baseline) string {
		var out []string
		for _, e := range b.Entries {
			out = append(out, e.ID)
		}
		return strings.Join(out, " ")
	}
	if got := ids(report.NewBaseline("x", results, nil, false)); got != "WIN-2/a" {
		t.Errorf("not strict: entries %q, want WIN-2/a", got)
	}
	if got := ids(report.NewBaseline("x", results, nil, true)); got != "EST-1/a WIN-2/a" {
		t.Errorf("strict: entries %q, want EST-1/a WIN-2/a", got)
	}
}

// TestStrictReports: every report says that the run was strict, and shows
// an unsupported case that fails it as a failure.
func TestStrictReports(t *testing.T) {
	run := sampleRuns()["strict"]

	var buf bytes.Buffer
	if err := report.Text(&buf, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"seed 42\nstrict: an unsupported case fails the run unless the baseline lists it\n",
		"--- UNSUPPORTED EST-1/a [EST-1]\n",
		"    unsupported: window.estimate is not supported\n",
		"--- EXPECTED UNSUPPORTED EST-1/b [EST-1] (baseline: no estimates until v2)\n",
		"baseline conform-baseline.json: 1 expected failure, 0 stale entries\n",
		"FAIL: 1 case fails outside the baseline (strict: 1 unsupported)\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := report.Text(&buf, sampleRuns()["passed"], report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "strict") {
		t.Errorf("a run that is not strict says strict:\n%s", buf.String())
	}

	buf.Reset()
	if err := report.JSON(&buf, run); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Strict bool `json:"strict"`
		Counts struct {
			Unsupported, Failing int
			Expected             int `json:"expected_failure"`
		} `json:"counts"`
		Cases []struct{ ID, Outcome, Verdict string } `json:"cases"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Strict || doc.Counts.Unsupported != 2 || doc.Counts.Failing != 1 || doc.Counts.Expected != 1 {
		t.Errorf("JSON: strict %v, counts %+v", doc.Strict, doc.Counts)
	}
	verdicts := map[string]string{}
	for _, c := range doc.Cases {
		verdicts[c.ID] = c.Outcome + " " + c.Verdict
	}
	if verdicts["EST-1/a"] != "unsupported failing" || verdicts["EST-1/b"] != "unsupported expected_failure" {
		t.Errorf("JSON verdicts: %v", verdicts)
	}
	buf.Reset()
	if err := report.JSON(&buf, sampleRuns()["passed"]); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"strict": false,`) {
		t.Errorf("JSON of a run that is not strict lacks \"strict\": false:\n%s", buf.String())
	}

	buf.Reset()
	if err := report.Markdown(&buf, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## ❌ convspec conformance: FAIL: 1 case fails outside the baseline (strict: 1 unsupported)\n",
		"· seed `42` · strict: an unsupported case fails the run unless the baseline lists it\n",
		"### Failures (1)\n",
		"<details><summary><code>EST-1/a</code> — <b>unsupported</b>",
		"### Expected failures (1)\n\n- `EST-1/b` — unsupported: no estimates until v2\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the Markdown report lacks %q:\n%s", want, buf.String())
		}
	}

	buf.Reset()
	if err := report.JUnit(&buf, run); err != nil {
		t.Fatal(err)
	}
	var suites struct {
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	// EST-1/a: a failure; EST-1/b (expected) and WIN-9/g: skipped.
	if suites.Failures != 1 || suites.Errors != 0 || suites.Skipped != 2 {
		t.Errorf("JUnit counts: %d failures, %d errors, %d skipped\n%s", suites.Failures, suites.Errors, suites.Skipped, buf.String())
	}
	strictProp, failureType := false, ""
	for _, s := range suites.Suites {
		for _, p := range s.Properties {
			strictProp = strictProp || p.Name == "strict" && p.Value == "true"
		}
		for _, c := range s.Cases {
			if c.Name == "EST-1/a" && c.Failure != nil {
				failureType = c.Failure.Type
			}
		}
	}
	if !strictProp || failureType != "unsupported" {
		t.Errorf("JUnit: strict property %v, EST-1/a failure type %q\n%s", strictProp, failureType, buf.String())
	}
}

// TestNothingCheckedIsNotAPass: a run that checked nothing — no capability
// declared, or every selected case not applicable or unsupported, the
// lifecycle's end aside — is not a PASS, and exits 4 (D-51).
func TestNothingCheckedIsNotAPass(t *testing.T) {
	none := *info
	none.Capabilities = nil
	shutdown := scenario("lifecycle/shutdown", result.Passed, "", "PROTO-1")
	for _, tc := range []struct {
		name    string
		info    *target.Info
		results []result.Result
		code    int
		line    string
	}{
		{"no capabilities", &none, []result.Result{scenario("PROTO-2/x", result.Passed, "", "PROTO-2"), shutdown},
			4, "NOTHING CHECKED: the implementation declares no capabilities"},
		{"nothing applies", info, []result.Result{scenario("A/x", result.NotApplicable, "capability history not declared", "WIN-1"),
			scenario("A/y", result.Unsupported, "declined", "WIN-1"), shutdown},
			4, "NOTHING CHECKED: no selected case applies to what the implementation declares (every one is not applicable or unsupported)"},
		{"nothing applies and a failure", info, []result.Result{scenario("A/x", result.NotApplicable, "", "WIN-1"),
			scenario("lifecycle/shutdown", result.Crash, "exit status 1", "PROTO-1")},
			1, "FAIL: 1 case fails"},
		{"one case applies", info, []result.Result{scenario("A/x", result.NotApplicable, "", "WIN-1"), ok(), shutdown},
			0, "PASS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &report.Run{Implementation: tc.info, Seed: 1, Cases: report.Judge(tc.results, nil, false)}
			checkRunOutcome(t, run, tc.code, tc.line)
			if tc.code == 4 && run.Status() != "nothing_checked" {
				t.Errorf("Status() = %q", run.Status())
			}
		})
	}
}

func ok() result.Result { return scenario("B/ok", result.Passed, "", "WIN-1") }

// checkRunOutcome checks a run's exit code, that it passes exactly when the
// code is 0, and its verdict line.
func checkRunOutcome(t *testing.T, run *report.Run, code int, line string) {
	t.Helper()
	if c := run.ExitCode(); c != code {
		t.Errorf("exit code %d, want %d", c, code)
	}
	if passed := run.Passed(); passed != (code == 0) {
		t.Errorf("Passed() = %v with exit code %d", passed, code)
	}
	if got := run.Verdict(); got != line {
		t.Errorf("Verdict() = %q, want %q", got, line)
	}
}
