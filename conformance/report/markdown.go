package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/result"
)

// markdownMaxCases bounds how many failures the Markdown report details,
// and markdownMaxDetail the length of each detail, so that the report fits
// a CI step summary (GitHub allows 1 MiB).
const (
	markdownMaxCases  = 50
	markdownMaxDetail = 6000
)

// Markdown writes the report for a CI step summary ($GITHUB_STEP_SUMMARY):
// the verdict, a table of counts of every outcome class, then each failing
// case in a <details> block with its clauses, what was sent, what came back
// and what was wanted, and how to rerun it.
func Markdown(w io.Writer, run *Run) error {
	bw := bufio.NewWriter(w)
	icon := "❌"
	if run.Passed() {
		icon = "✅"
	}
	// The verdict is the harness's own words and counts.
	fmt.Fprintf(bw, "## %s convspec conformance: %s\n\n", icon, run.Verdict())
	if run.StartError != "" {
		fmt.Fprintf(bw, "Target: `%s`\n\n", mdCode(run.Target()))
		writeFenced(bw, run.StartError)
		return bw.Flush()
	}
	if c := run.Checked; c != nil {
		fmt.Fprintf(bw, "**%s** · %d requests checked, %d records not chat requests, %d unreadable", mdEscape(strings.TrimSpace(run.Target())), c.Requests, c.Skipped, c.Unreadable)
	} else {
		// Trimmed: ** before or after white space is not emphasis, and a name
		// of white space would leave the rest of the line to it.
		fmt.Fprintf(bw, "**%s** · target `%s` · seed `%d`", mdEscape(strings.TrimSpace(run.Title())), mdCode(run.Target()), run.Seed)
	}
	if run.Strict {
		fmt.Fprint(bw, " · strict: an unsupported case fails the run unless the baseline lists it")
	}
	fmt.Fprint(bw, "\n\n")

	c := run.Count()
	fmt.Fprintln(bw, "| outcome | cases |")
	fmt.Fprintln(bw, "| --- | ---: |")
	for _, o := range Outcomes {
		n := fmt.Sprint(c.Outcomes[o])
		if o == result.Crash && c.NotRun > 0 {
			n += fmt.Sprintf(" (%d not run)", c.NotRun)
		}
		fmt.Fprintf(bw, "| %s | %s |\n", OutcomeLabel(o), n)
	}
	if run.Baseline != nil {
		fmt.Fprintf(bw, "| expected failure (baseline) | %d |\n", c.Expected)
		fmt.Fprintf(bw, "| stale baseline entry | %d |\n", c.Stale)
	}
	fmt.Fprintf(bw, "| **total** | **%d** |\n\n", c.Total)
	if run.RestartLimit {
		fmt.Fprintf(bw, "**Restart limit reached:** the implementation failed more often than `-max-restarts` allows; %d cases were not run.\n\n", c.NotRun)
	}
	if run.Interrupted {
		fmt.Fprintf(bw, "**Interrupted:** only the %d cases that completed are shown.\n\n", c.Total)
	}

	causes := run.Causes()
	if len(causes) > 0 {
		fmt.Fprintf(bw, "### %s\n\n", CausesLine(causes))
		fmt.Fprintln(bw, "| # | clauses | deviation | cases | clearest example |")
		fmt.Fprintln(bw, "| ---: | --- | --- | ---: | --- |")
		for i, c := range causes {
			fmt.Fprintf(bw, "| %d | %s | %s | %d | `%s`: %s |\n", i+1, mdEscape(strings.Join(c.Clauses, " ")), mdEscape(c.Shape), len(c.Cases),
				mdCode(c.Example.Case), mdEscape(FirstLine(c.Example.Detail, 160)))
		}
		fmt.Fprintln(bw)
	}
	if vs := run.LevelVerdicts(); len(vs) > 0 {
		capabilities, by := levelsOf(vs)
		fmt.Fprintln(bw, "| capability | core | validation | diagnostics |")
		fmt.Fprintln(bw, "| --- | --- | --- | --- |")
		for _, capability := range capabilities {
			cells := map[string]string{}
			for _, v := range by[capability] {
				cells[v.Level] = levelText(v)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", capability, orDash(cells["core"]), orDash(cells["validation"]), orDash(cells["diagnostics"]))
		}
		fmt.Fprintln(bw)
	}

	failing, stale, expected := byVerdict(byCause(run.Cases, causes))
	// Cases not run are counted above (the restart limit), not listed.
	failing = slices.DeleteFunc(failing, func(k Case) bool { return k.NotRun })
	if len(failing) > 0 {
		fmt.Fprintf(bw, "### Failures (%d)\n\n", len(failing))
		for i, k := range failing {
			if i == markdownMaxCases {
				fmt.Fprintf(bw, "…and %d more: see the text, JSON or JUnit report.\n\n", len(failing)-i)
				break
			}
			writeMarkdownCase(bw, k)
		}
	}
	if len(stale) > 0 {
		fmt.Fprintf(bw, "### Stale baseline entries (%d)\n\n", len(stale))
		for _, k := range stale {
			fmt.Fprintf(bw, "- `%s`: %s\n", mdCode(k.ID), mdEscape(run.StaleAdvice(k)))
		}
		fmt.Fprintln(bw)
	}
	if len(expected) > 0 {
		fmt.Fprintf(bw, "### Expected failures (%d)\n\n", len(expected))
		for _, k := range expected {
			issue := ""
			if k.Baseline.Issue != "" {
				issue = " (" + mdIssue(k.Baseline.Issue) + ")"
			}
			flaky := ""
			if k.Baseline.Flaky {
				flaky = " (flaky)"
			}
			fmt.Fprintf(bw, "- `%s` — %s%s: %s%s\n", mdCode(k.ID), OutcomeLabel(k.Outcome), flaky, mdEscape(k.Baseline.Reason), issue)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func writeMarkdownCase(w io.Writer, k Case) {
	clauses := k.FailingClauses()
	titles := make([]string, len(clauses))
	for i, id := range clauses {
		titles[i] = mdHTML(ClauseTitle(id))
	}
	fmt.Fprintf(w, "<details><summary><code>%s</code> — <b>%s</b> — %s</summary>\n\n",
		mdHTML(k.ID), OutcomeLabel(k.Outcome), strings.Join(titles, "; "))
	if k.Kind == result.Scenario && k.Source != "" {
		fmt.Fprintf(w, "Scenario “%s” (`features/%s`)\n\n", mdEscape(k.Name), mdCode(k.Source))
	} else if k.Name != "" {
		fmt.Fprintf(w, "Property: %s\n\n", mdEscape(k.Name))
	}
	detail := k.Detail
	if len(detail) > markdownMaxDetail {
		detail = detail[:markdownMaxDetail] + "\n… (clipped; see the text or JSON report)"
	}
	writeFenced(w, detail)
	if k.Kind == result.Property && k.Seed != 0 {
		fmt.Fprintf(w, "Seed `%d`. ", k.Seed)
	}
	if k.Reproduce != "" {
		fmt.Fprintln(w, "Reproduce:")
		fmt.Fprintln(w)
		writeFenced(w, k.Reproduce)
	}
	fmt.Fprint(w, "</details>\n\n")
}

// writeFenced writes s as a fenced code block whose fence is longer than
// any run of backticks in s, with its control characters visible (a CR
// is a line ending to CommonMark, and could end the block's line early).
func writeFenced(w io.Writer, s string) {
	s = EscapeText(s)
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	fmt.Fprintf(w, "%s\n%s\n%s\n\n", fence, strings.TrimRight(s, "\n"), fence)
}

// The Markdown report's escaping layer (D-52). CommonMark ends a line at
// LF, CR or CR LF, and GFM turns a bare URL, www. name or e-mail address
// into a link: a value is first put on one line with every control
// character a visible escape (textLine), then every character that could
// start structure or a link is escaped.
var mdReplacer = strings.NewReplacer(
	"\\", "\\\\", "|", "\\|", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", ">", "&gt;", "[", "\\[", "]", "\\]",
	"~", "\\~", "!", "\\!", "&", "&amp;", "#", "\\#", ":", "\\:", "@", "\\@", ".", "\\.", "=", "\\=", "+", "\\+", "-", "\\-",
	"$", "\\$", "^", "\\^",
)

// mdEscape makes s safe as Markdown text in a table cell or a paragraph.
func mdEscape(s string) string { return mdReplacer.Replace(textLine(s)) }

// mdCode makes s safe inside a single-backtick code span, in a table cell
// too (GFM splits a cell at an unescaped | even in a code span).
func mdCode(s string) string {
	return strings.NewReplacer("`", "'", "|", "\\|").Replace(textLine(s))
}

// mdIssue is a baseline entry's issue: an autolink when it is a plain
// http(s) URL, escaped text otherwise.
func mdIssue(s string) string {
	if u, err := url.Parse(s); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" &&
		strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#@!$&'*+,;=%") == "" {
		return "<" + s + ">"
	}
	return mdEscape(s)
}

// mdHTML makes s safe as the text of the HTML a step summary holds
// (<summary>): on one line, controls visible, markup escaped.
func mdHTML(s string) string { return html.EscapeString(textLine(s)) }
