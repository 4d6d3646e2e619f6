package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/webui"
)

// HTMLOptions configure the HTML report.
type HTMLOptions struct {
	// SpecURL is the spec site's spec.html (`conform doc`), to which each
	// clause links at its ID; empty links to SPEC.md on GitHub.
	SpecURL string
}

// htmlMaxDetail bounds each failure's detail in the HTML report.
const htmlMaxDetail = 20000

// HTML writes the report of a run as one self-contained HTML file: no
// external style sheet, script, font or image. It shows the verdict, the
// outcome counts, the verdict by capability (and level, where levels
// exist), the causes of the failures, then every failure, expandable, with
// what was sent, what came back and what was wanted, the differing tokens
// highlighted, its clauses linked to the spec, and the command that
// reproduces it with a copy button.
func HTML(w io.Writer, run *Run, opts HTMLOptions) error {
	var b strings.Builder
	c := run.Count()
	title := "convspec conformance: " + run.Verdict()
	htmlHead(&b, title)
	b.WriteString(`<div class="wrap">`)
	cls := "fail"
	if run.Passed() {
		cls = "pass"
	}
	fmt.Fprintf(&b, `<section class="verdict %s" id="verdict"><h1>%s</h1><div class="meta">%s<br>target <code>%s</code> · seed <code>%d</code> · %d checks per property · %s`,
		cls, webui.Esc(run.Verdict()), webui.Esc(run.Title()), webui.Esc(run.Target()), run.Seed, run.Checks, run.Duration.Round(time.Millisecond))
	if !run.Started.IsZero() {
		fmt.Fprintf(&b, ` · started %s`, run.Started.UTC().Format(time.RFC3339))
	}
	if run.Strict {
		b.WriteString(` · strict: an unsupported case fails the run unless the baseline lists it`)
	}
	if s := run.BaselineSummary(); s != "" {
		fmt.Fprintf(&b, `<br>%s`, webui.Esc(s))
	}
	if run.RunPattern != "" {
		fmt.Fprintf(&b, `<br>selection: -run <code>%s</code>`, webui.Esc(run.RunPattern))
	}
	if run.SkipPattern != "" {
		fmt.Fprintf(&b, ` -skip <code>%s</code>`, webui.Esc(run.SkipPattern))
	}
	b.WriteString(`</div></section>`)
	if run.StartError != "" {
		fmt.Fprintf(&b, `<h2>The implementation could not be started</h2><pre><code>%s</code></pre>`, webui.Esc(run.StartError))
		htmlFoot(&b)
		_, err := io.WriteString(w, b.String())
		return err
	}

	b.WriteString(`<div class="counts">`)
	for _, o := range Outcomes {
		kind := ""
		switch {
		case o == result.Passed && c.Outcomes[o] > 0:
			kind = " good"
		case Fails(o, run.Strict) && c.Outcomes[o] > 0:
			kind = " bad"
		}
		fmt.Fprintf(&b, `<div class="count%s"><b>%d</b>%s</div>`, kind, c.Outcomes[o], OutcomeLabel(o))
	}
	if run.Baseline != nil {
		fmt.Fprintf(&b, `<div class="count"><b>%d</b>expected failures</div><div class="count%s"><b>%d</b>stale entries</div>`, c.Expected, map[bool]string{true: " bad"}[c.Stale > 0], c.Stale)
	}
	b.WriteString(`</div>`)
	if run.RestartLimit {
		fmt.Fprintf(&b, `<p><b>Restart limit reached:</b> the implementation failed more often than <code>-max-restarts</code> allows; %d cases were not run.</p>`, c.NotRun)
	}
	if run.Interrupted {
		fmt.Fprintf(&b, `<p><b>Interrupted:</b> only the %d cases that completed are shown.</p>`, c.Total)
	}

	writeCapabilityTable(&b, run)

	failing, stale, expected := byVerdict(run.Cases)
	if len(failing) > 0 {
		writeCauses(&b, failing, opts)
		fmt.Fprintf(&b, `<h2 id="failures">Failures (%d)</h2>`, len(failing))
		for _, k := range failing {
			writeFailureHTML(&b, k, "case-", opts.SpecURL)
		}
	} else {
		b.WriteString(`<h2 id="failures">Failures</h2><p>No case fails the run.</p>`)
	}
	if len(stale) > 0 {
		fmt.Fprintf(&b, `<h2 id="stale">Stale baseline entries (%d)</h2><ul>`, len(stale))
		for _, k := range stale {
			fmt.Fprintf(&b, `<li><code>%s</code>: %s</li>`, webui.Esc(k.ID), webui.Esc(run.StaleAdvice(k)))
		}
		b.WriteString(`</ul>`)
	}
	if len(expected) > 0 {
		fmt.Fprintf(&b, `<h2 id="expected">Expected failures (%d)</h2>`, len(expected))
		for _, k := range expected {
			writeFailureHTML(&b, k, "case-", opts.SpecURL)
		}
	}
	htmlFoot(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func htmlHead(b *strings.Builder, title string) {
	fmt.Fprintf(b, `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>%s</style>
<script>%s</script>
</head><body>
`, webui.Esc(title), webui.CSS, webui.JS)
}

func htmlFoot(b *strings.Builder) {
	fmt.Fprintf(b, `<footer>convspec protocol v%d · written by conform; this file needs no network.</footer></div></body></html>
`, protocol.Version)
}

// caseLevel is a case's level (D-42): the capability table splits each
// capability by level.
func caseLevel(k Case) string { return k.Level }

// caseCause is the hook for failures grouped by cause: the cases carry no
// cause yet, so the causes section groups the failures by their first
// clause instead. Once a case carries its cause, return it here.
func caseCause(Case) string { return "" }

// writeCapabilityTable writes the verdict by capability (and level).
func writeCapabilityTable(b *strings.Builder, run *Run) {
	type key struct{ capability, level string }
	var keys []key
	t := map[key]*cellTally{}
	levels := false
	for _, k := range run.Cases {
		kk := key{k.Capability, caseLevel(k)}
		levels = levels || kk.level != ""
		if t[kk] == nil {
			t[kk] = &cellTally{}
			keys = append(keys, kk)
		}
		t[kk].add(k)
	}
	order := protocol.Capabilities()
	slices.SortStableFunc(keys, func(a, b key) int {
		ia, ib := slices.Index(order, a.capability), slices.Index(order, b.capability)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a.level, b.level)
	})
	b.WriteString(`<h2 id="capabilities">Verdict by capability</h2><div class="scroll"><table class="matrix sortable-table"><thead><tr><th class="sortable">capability</th>`)
	if levels {
		b.WriteString(`<th class="sortable">level</th>`)
	}
	b.WriteString(`<th class="sortable">verdict</th><th class="sortable">passed</th><th class="sortable">failing</th><th class="sortable">expected</th><th class="sortable">unsupported</th><th class="sortable">not applicable</th><th class="sortable">cases</th></tr></thead><tbody>`)
	for _, k := range keys {
		x := t[k]
		verdict := `<span class="badge pass">pass</span>`
		sortKey := 1
		switch {
		case x.failing > 0:
			verdict, sortKey = `<span class="badge fail">fail</span>`, 0
		case x.na == x.total:
			verdict, sortKey = `<span class="badge">not applicable</span>`, 2
		}
		fmt.Fprintf(b, `<tr><td><code>%s</code></td>`, webui.Esc(orEvery(k.capability)))
		if levels {
			fmt.Fprintf(b, `<td>%s</td>`, webui.Esc(k.level))
		}
		fmt.Fprintf(b, `<td data-sort="%d">%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>`,
			sortKey, verdict, x.passed, x.failing, x.expected, x.unsupported, x.na, x.total)
	}
	b.WriteString(`</tbody></table></div>`)
}

func orEvery(capability string) string {
	if capability == "" {
		return "(every implementation)"
	}
	return capability
}

// writeCauses lists what the failures have in common, most failures
// first: their causes where the cases carry one, otherwise their first
// clause, each linking to its first failure.
func writeCauses(b *strings.Builder, failing []Case, opts HTMLOptions) {
	type group struct {
		name, first string
		clause      string
		n           int
	}
	var groups []*group
	byName := map[string]*group{}
	byCause := false
	for _, k := range failing {
		name, clause := caseCause(k), ""
		if name != "" {
			byCause = true
		} else if len(k.Clauses) > 0 {
			clause = k.Clauses[0]
			name = ClauseTitle(clause)
		} else {
			name = "(no clause)"
		}
		g := byName[name]
		if g == nil {
			g = &group{name: name, first: k.ID, clause: clause}
			byName[name] = g
			groups = append(groups, g)
		}
		g.n++
	}
	slices.SortStableFunc(groups, func(a, b *group) int { return b.n - a.n })
	heading := "Causes: the failing clauses"
	if byCause {
		heading = "Causes"
	}
	fmt.Fprintf(b, `<h2 id="causes">%s</h2><div class="scroll"><table class="causes"><thead><tr><th>failures</th><th>cause</th><th></th></tr></thead><tbody>`, heading)
	for _, g := range groups {
		fmt.Fprintf(b, `<tr><td>%d</td><td>`, g.n)
		if g.clause != "" {
			fmt.Fprintf(b, `<a href="%s">%s</a>`, webui.Esc(clauseHref(opts.SpecURL, g.clause)), webui.Esc(g.name))
		} else {
			b.WriteString(webui.Esc(g.name))
		}
		fmt.Fprintf(b, `</td><td><a href="#case-%s" title="%s">first failure</a></td></tr>`, webui.Esc(g.first), webui.Esc(g.first))
	}
	b.WriteString(`</tbody></table></div>`)
}

// writeFailureHTML writes one failing case as an expandable block whose
// element ID is prefix + the case ID.
func writeFailureHTML(b *strings.Builder, k Case, prefix, specURL string) {
	fmt.Fprintf(b, `<details class="failure" id="%s%s"><summary><span class="badge %s">%s</span> <code>%s</code></summary>`,
		webui.Esc(prefix), webui.Esc(k.ID), badgeClass(k), webui.Esc(verdictLabel(k)), webui.Esc(k.ID))
	b.WriteString(`<div class="small">`)
	for _, id := range k.FailingClauses() {
		fmt.Fprintf(b, `<div><a href="%s">%s</a></div>`, webui.Esc(clauseHref(specURL, id)), webui.Esc(ClauseTitle(id)))
	}
	switch {
	case k.Kind == result.Scenario && k.Source != "":
		fmt.Fprintf(b, `<div class="muted">Scenario “%s” (features/%s)</div>`, webui.Esc(k.Name), webui.Esc(k.Source))
	case k.Name != "":
		fmt.Fprintf(b, `<div class="muted">Property: %s</div>`, webui.Esc(k.Name))
	}
	if k.Baseline != nil {
		fmt.Fprintf(b, `<div class="muted">%s: %s %s</div>`, webui.Esc(k.Baseline.Kind()), webui.Esc(k.Baseline.Reason), webui.Esc(k.Baseline.Issue))
	}
	b.WriteString(`</div>`)
	writeFailureDetailHTML(b, k)
	if k.Kind == result.Property && k.Seed != 0 {
		fmt.Fprintf(b, `<div class="small muted">seed %d</div>`, k.Seed)
	}
	if k.Reproduce != "" {
		id := "repro-" + prefix + k.ID
		fmt.Fprintf(b, `<div class="lbl">reproduce</div><div class="repro"><pre><code id="%s">%s</code></pre><button class="copy" type="button" data-copy="%s">Copy</button></div>`,
			webui.Esc(id), webui.Esc(k.Reproduce), webui.Esc(id))
	}
	b.WriteString(`</details>`)
}

func badgeClass(k Case) string {
	switch k.Verdict() {
	case Expected:
		return "warn"
	case Failing, Stale:
		return "fail"
	}
	return "pass"
}

func verdictLabel(k Case) string {
	if k.Verdict() == Expected {
		return "expected " + OutcomeLabel(k.Outcome)
	}
	return OutcomeLabel(k.Outcome)
}
