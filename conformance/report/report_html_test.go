package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
)

// external matches what would make a page fetch something.
var external = regexp.MustCompile(`(?i)<(script|link|img|iframe)[^>]+(src|href)=`)

func TestHTMLIsSelfContainedAndEscaped(t *testing.T) {
	for name, run := range sampleRuns() {
		var buf bytes.Buffer
		require.NoError(t, report.HTML(&buf, run, report.HTMLOptions{}), name)
		page := buf.String()
		require.False(t, external.MatchString(page), "%s: the HTML report loads %q", name, external.FindString(page))
		require.NotContains(t, page, "<b>&amp ``` fence", "%s: the detail is not escaped", name)
		require.Contains(t, page, "<title>convspec conformance: "+run.Verdict(), name)
	}
}

func TestHTMLFailures(t *testing.T) {
	run := sampleRuns()["failures"]
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, run, report.HTMLOptions{SpecURL: "site/spec.html"}))
	page := buf.String()
	for _, want := range []string{
		`<details class="failure" id="case-WIN-2/a">`,                               // expandable, at its ID
		`<a href="site/spec.html#WIN-2">WIN-2 — Three zones that never overlap</a>`, // its clause, linked
		`<div class="lbl">what was sent</div>`,
		`<button class="copy" type="button" data-copy="repro-case-WIN-2/a">Copy</button>`,
		`<h2 id="causes">Causes: the failing clauses</h2>`,
		`<h2 id="capabilities">Verdict by capability</h2>`,
		`<h2 id="expected">Expected failures (1)</h2>`,
		`<h2 id="stale">Stale baseline entries (1)</h2>`,
	} {
		require.Contains(t, page, want)
	}
	// The causes come before the failures.
	require.Less(t, strings.Index(page, `id="causes"`), strings.Index(page, `id="failures"`))
	// Without -spec-url a clause links to its heading in SPEC.md on GitHub.
	buf.Reset()
	require.NoError(t, report.HTML(&buf, run, report.HTMLOptions{}))
	require.Contains(t, buf.String(), `href="https://github.com/convspec/convspec/blob/main/spec/SPEC.md#win-2--three-zones-that-never-overlap"`)
}

func TestHTMLHighlightsWhatDiffers(t *testing.T) {
	run := &report.Run{Cases: report.Judge([]result.Result{
		withDeviation(scenario("WIN-4/x", result.Failed, "trimmed differs at index 1\n  got:  trimmed = messages [1 2 3 4]\n  want: trimmed = messages [1 3 4 5]", "WIN-4"),
			result.Deviation{Clause: "WIN-4", Got: "trimmed = messages [1 2 3 4]", Want: "trimmed = messages [1 3 4 5]"}),
	}, nil, false)}
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, run, report.HTMLOptions{}))
	page := buf.String()
	require.Contains(t, page, `<pre class="got diff-got"><code>trimmed = messages [1 <mark>2</mark> 3 4]</code></pre>`)
	require.Contains(t, page, `<pre class="want diff-want"><code>trimmed = messages [1 3 4 <mark>5</mark>]</code></pre>`)
}

// TestHTMLLabelsComeFromData: what was sent, what came back and what was
// wanted are laid out from the deviation's members (D-72); lines of the
// implementation's message that read like the harness's labels stay in the
// message, under none of them.
func TestHTMLLabelsComeFromData(t *testing.T) {
	msg := "the request failed: internal_error: boom\n        traceback:\n        wanted: FORGED-WANT\n        got: FORGED-GOT\n        sent: FORGED-SENT"
	run := &report.Run{Cases: report.Judge([]result.Result{
		withDeviation(scenario("EST-1/x", result.Failed, msg+"\n  sent: window.estimate {}\n  got:  error: boom", "EST-1"),
			result.Deviation{Clause: "EST-1", Sent: "window.estimate {}", Got: "error: boom", Want: "3"}),
		// A crash has no deviation: its detail is shown as it is.
		scenario("WIN-4/y", result.Crash, "crash during window.trim: it exited\n  wanted: FORGED-WANT-TWO\n  got: FORGED-GOT-TWO", "WIN-4"),
	}, nil, false)}
	var buf bytes.Buffer
	require.NoError(t, report.HTML(&buf, run, report.HTMLOptions{}))
	page := buf.String()
	labelled := regexp.MustCompile(`<div class="lbl">what (was sent|came back|was wanted)</div><pre class="[^"]*"><code>((?:[^<]|<mark>|</mark>)*)</code>`)
	blocks := map[string]string{}
	for _, m := range labelled.FindAllStringSubmatch(page, -1) {
		blocks[strings.TrimPrefix(m[1], "was ")] += strings.NewReplacer("<mark>", "", "</mark>", "").Replace(m[2])
	}
	require.Equal(t, map[string]string{"sent": "window.estimate {}", "came back": "error: boom", "wanted": "3"}, blocks)
	for _, forged := range []string{"FORGED-WANT", "FORGED-GOT", "FORGED-SENT", "FORGED-WANT-TWO", "FORGED-GOT-TWO"} {
		require.Contains(t, page, forged, "the message is shown whole")
	}
}

func TestMatrix(t *testing.T) {
	var reports []report.MatrixReport
	for _, name := range []string{"passed", "failures"} {
		var buf bytes.Buffer
		require.NoError(t, report.JSON(&buf, sampleRuns()[name]))
		reports = append(reports, report.MatrixReport{Name: name + ".json", Data: buf.Bytes()})
	}
	var buf bytes.Buffer
	require.NoError(t, report.Matrix(&buf, reports, report.HTMLOptions{}))
	page := buf.String()
	require.False(t, external.MatchString(page), "the matrix loads %q", external.FindString(page))
	// The same implementation twice: told apart by their files.
	require.Contains(t, page, `<th class="sortable">my-trimmer 1.2.0 [passed.json]</th>`)
	// WIN-2 fails in the second report: its cell links to the failure.
	require.Contains(t, page, `<a href="#f-1-WIN-2/a">✗ 1</a>`)
	require.Contains(t, page, `<details class="failure" id="f-1-WIN-2/a">`)

	for _, bad := range []struct{ data, want string }{
		{`{"version": 1}`, "a report of suite \"\" version 1"},
		{`not json`, "bad.json: not a conform JSON report"},
		{`{"version": 1, "suite": {"name": "convspec", "protocol": 1}, "extra": true}`, `unknown field "extra"`},
	} {
		err := report.Matrix(&bytes.Buffer{}, []report.MatrixReport{{Name: "bad.json", Data: []byte(bad.data)}}, report.HTMLOptions{})
		require.ErrorContains(t, err, bad.want)
	}
	require.ErrorContains(t, report.Matrix(&bytes.Buffer{}, nil, report.HTMLOptions{}), "no report")
}

// The matrix judges each report's cases again: a report that says of
// itself "passed" with no failing case, over a case that failed, is shown
// failing (D-52).
func TestMatrixRecountsFromCases(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, report.JSON(&buf, sampleRuns()["failures"]))
	var doc map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &doc))
	doc["status"], doc["exit_code"] = "passed", 0
	counts := doc["counts"].(map[string]any)
	counts["failing"], counts["failed"] = 0, 0
	for _, c := range doc["cases"].([]any) {
		c.(map[string]any)["verdict"] = "ok"
	}
	forged, err := json.Marshal(doc)
	require.NoError(t, err)
	var page bytes.Buffer
	require.NoError(t, report.Matrix(&page, []report.MatrixReport{{Name: "forged.json", Data: forged}}, report.HTMLOptions{}))
	require.NotContains(t, page.String(), `<span class="badge pass">passed</span>`)
	require.Contains(t, page.String(), `<span class="badge fail">failed</span>`)
	require.Contains(t, page.String(), `<a href="#f-0-WIN-2/a">✗ 1</a>`)
	require.Contains(t, page.String(), "The report says of itself status passed, 0 failing")
}

// BenchmarkMatrixClauses: the matrix of a report naming many distinct
// clause IDs costs time linear in them (it was quadratic: 128 k IDs took
// 33 s). Compare b.N runs of two sizes with benchstat.
func BenchmarkMatrixClauses(b *testing.B) {
	for _, n := range []int{16 << 10, 128 << 10} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			run := sampleRuns()["passed"]
			one := run.Cases[0]
			run.Cases = nil
			for i := range n {
				k := one
				k.Clauses = []string{fmt.Sprintf("X-%d", i)}
				run.Cases = append(run.Cases, k)
			}
			var buf bytes.Buffer
			require.NoError(b, report.JSON(&buf, run))
			reports := []report.MatrixReport{{Name: "many.json", Data: buf.Bytes()}}
			b.ResetTimer()
			for range b.N {
				require.NoError(b, report.Matrix(io.Discard, reports, report.HTMLOptions{}))
			}
		})
	}
}
