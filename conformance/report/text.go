package report

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/result"
)

// TextOptions tune the text report.
type TextOptions struct {
	// Verbose lists every case, and the details of expected failures.
	Verbose bool
	// Color marks outcomes with ANSI colours (for a terminal).
	Color bool
}

// ANSI colours.
const (
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	bold   = "\x1b[1m"
	reset  = "\x1b[0m"
)

// Text writes the report for people: one block per failing case with its
// clauses, what was sent, what came back and what was wanted, and how to
// rerun it; then the counts of every outcome class and the verdict.
func Text(w io.Writer, run *Run, opts TextOptions) error {
	bw := bufio.NewWriter(w)
	paint := func(color, s string) string {
		if !opts.Color || color == "" {
			return s
		}
		return color + s + reset
	}
	fmt.Fprintf(bw, "convspec conformance: %s\n", textLine(run.Title()))
	if run.Checked != nil {
		c := run.Checked
		fmt.Fprintf(bw, "checked %d %s (%d %s, %d unreadable)\n", c.Requests, plural(c.Requests, "request", "requests"),
			c.Skipped, plural(c.Skipped, "record is not a chat request", "records are not chat requests"), c.Unreadable)
	}
	if run.Command == nil && run.Mutant == "" && run.Checked == nil {
		// A first run without a command must not read as a test of one's own code.
		fmt.Fprintln(bw, "testing the built-in reference: give your implementation's command to test it (conform ./my-impl)")
	}
	if run.StartError != "" {
		fmt.Fprintln(bw, indent(EscapeText(run.StartError), "    "))
		fmt.Fprintln(bw, paint(bold+red, run.Verdict()))
		return bw.Flush()
	}
	switch {
	case run.Checked != nil: // nothing was generated: no seed
	case run.Seed == result.DefaultSeed:
		fmt.Fprintf(bw, "seed %d (the default: every run draws the same cases; -seed random explores)\n", run.Seed)
	default:
		fmt.Fprintf(bw, "seed %d\n", run.Seed)
	}
	if run.Strict {
		fmt.Fprintln(bw, "strict: an unsupported case fails the run unless the baseline lists it")
	}
	causes := run.Causes()
	if len(causes) > 0 {
		writeTextCauses(bw, causes)
	}
	notRun := 0
	for _, k := range byCause(run.Cases, causes) {
		switch v := k.Verdict(); {
		case k.NotRun:
			notRun++
			if opts.Verbose {
				fmt.Fprintf(bw, "--- %s %s (%s)\n", paint(red, "NOT RUN"), textLine(k.ID), result.NotRunDetail)
			}
		case v == Failing:
			fmt.Fprintf(bw, "--- %s %s [%s]\n", paint(red, label(k.Outcome)), textLine(k.ID), textLine(strings.Join(k.FailingClauses(), " ")))
			if k.Baseline != nil {
				fmt.Fprintf(bw, "    listed in the baseline, not for this failure: %s\n", textLine(k.Baseline.Mismatch(k.Result)))
			}
			writeDetails(bw, k)
		case v == Expected:
			fmt.Fprintf(bw, "--- %s %s [%s] (%s: %s%s)\n", paint(yellow, "EXPECTED "+label(k.Outcome)), textLine(k.ID),
				strings.Join(k.Clauses, " "), k.Baseline.Kind(), textLine(k.Baseline.Reason), textLine(prefixed("; ", nonEmpty(k.Baseline.Issue))))
			if opts.Verbose {
				writeDetails(bw, k)
			}
		case v == Stale:
			fmt.Fprintf(bw, "--- %s %s: %s\n", paint(red, "STALE"), textLine(k.ID), textLine(run.StaleAdvice(k)))
		case opts.Verbose:
			color := green
			if k.Outcome != result.Passed {
				color = yellow
			}
			fmt.Fprintf(bw, "--- %s %s\n", paint(color, label(k.Outcome)), textLine(k.ID))
		}
	}
	if run.RestartLimit {
		fmt.Fprintf(bw, "%s: the implementation failed more often than -max-restarts allows; the run stopped and %d %s not run (they count as crash)\n",
			paint(red, "restart limit reached"), notRun, plural(notRun, "case was", "cases were"))
	}
	if run.Interrupted {
		fmt.Fprintf(bw, "%s: the report shows the %d %s that completed\n", paint(red, "interrupted"), len(run.Cases), plural(len(run.Cases), "case", "cases"))
	}
	c := run.Count()
	writeTextLevels(bw, run.LevelVerdicts())
	fmt.Fprintln(bw, c.Summary())
	if s := run.BaselineSummary(); s != "" {
		fmt.Fprintln(bw, textLine(s))
	}
	verdict := run.Verdict()
	if run.Passed() {
		fmt.Fprintln(bw, paint(green, verdict))
	} else {
		fmt.Fprintln(bw, paint(bold+red, verdict))
	}
	return bw.Flush()
}

// writeTextCauses opens the report with the causes, each with its clauses,
// its number of cases and its clearest example.
func writeTextCauses(w io.Writer, causes []Cause) {
	fmt.Fprintf(w, "%s:\n", CausesLine(causes))
	for i, c := range causes {
		fmt.Fprintf(w, "  %d. [%s] %s — %d %s\n", i+1, textLine(strings.Join(c.Clauses, " ")), textLine(c.Shape), len(c.Cases), plural(len(c.Cases), "case", "cases"))
		step := ""
		if c.Example.Step != "" {
			step = " (Then " + c.Example.Step + ")"
		}
		fmt.Fprintf(w, "     e.g. %s%s: %s\n", textLine(c.Example.Case), textLine(step), textLine(FirstLine(c.Example.Detail, 160)))
	}
}

// writeTextLevels writes the verdict per capability and level.
func writeTextLevels(w io.Writer, vs []LevelVerdict) {
	if len(vs) == 0 {
		return
	}
	capabilities, by := levelsOf(vs)
	fmt.Fprintln(w, "verdict by capability and level:")
	for _, capability := range capabilities {
		var parts []string
		for _, v := range by[capability] {
			parts = append(parts, fmt.Sprintf("%s %s", v.Level, levelText(v)))
		}
		fmt.Fprintf(w, "  %-17s %s\n", capability, strings.Join(parts, ", "))
	}
}

// levelText is a level's verdict with its counts: "pass (12)",
// "FAIL (3 of 15)", "not applicable".
func levelText(v LevelVerdict) string {
	switch v.Verdict {
	case LevelFail:
		return fmt.Sprintf("FAIL (%d of %d)", v.Failing, v.Failing+v.Passed+v.Other)
	case LevelPass:
		return fmt.Sprintf("pass (%d)", v.Passed+v.Other)
	}
	return "not applicable"
}

// byCause orders the cases so that the failing ones come cause by cause
// (a case under the first cause that holds it), each cause's cases by
// clause; every other case keeps its place after them.
func byCause(cases []Case, causes []Cause) []Case {
	if len(causes) == 0 {
		return cases
	}
	rank := map[string]int{}
	for i, c := range causes {
		for _, id := range c.Cases {
			if _, ok := rank[id]; !ok {
				rank[id] = i
			}
		}
	}
	out := slices.Clone(cases)
	slices.SortStableFunc(out, func(a, b Case) int {
		ra, oka := rank[a.ID]
		rb, okb := rank[b.ID]
		switch {
		case oka && okb && ra != rb:
			return ra - rb
		case oka && okb:
			return strings.Compare(firstOf(a.Clauses), firstOf(b.Clauses))
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	return out
}

func writeDetails(w io.Writer, k Case) {
	for _, id := range k.FailingClauses() {
		fmt.Fprintf(w, "    %s\n", ClauseTitle(id))
	}
	if k.Kind == result.Scenario {
		fmt.Fprintf(w, "    scenario: %q (features/%s)\n", k.Name, k.Source)
	}
	if k.Detail != "" {
		fmt.Fprintln(w, indent(EscapeText(k.Detail), "    "))
	}
	if k.Kind == result.Property && k.Seed != 0 {
		fmt.Fprintf(w, "    seed: %d\n", k.Seed)
	}
	if k.Reproduce != "" {
		fmt.Fprintf(w, "    reproduce: %s\n", textLine(k.Reproduce))
	}
}

func label(o result.Outcome) string {
	switch o {
	case result.Passed:
		return "ok  "
	case result.NotApplicable:
		return "n/a "
	}
	return strings.ToUpper(string(o))
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
