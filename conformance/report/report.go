// Package report judges and renders the results of a conformance run: the
// baseline of accepted deviations, and the reports for people (text,
// Markdown) and for machines (JSON, JUnit XML). Every format is rendered
// from the same Run, so they cannot disagree.
package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

// Exit codes of a run (`conform` documents them; they are never combined
// and never the implementation's own status).
const (
	ExitOK       = 0 // every selected case passed, was not applicable or unsupported (not with -strict), or failed as the baseline expects
	ExitFailures = 1 // a case failed (with -strict: or was unsupported), a baseline entry is stale, the restart limit was reached, or the run was interrupted
	ExitUsage    = 2 // the command line, a baseline or a report file is wrong
	ExitNoImpl   = 3 // the implementation could not be started or failed the handshake
	ExitNothing  = 4 // nothing failed, but nothing was checked: no capability declared, or no selected case applies (D-51)
)

// Run is one conformance run as every report shows it.
type Run struct {
	// Implementation is what the implementation declared in its handshake;
	// nil when the handshake never completed.
	Implementation *target.Info
	// Command is the implementation's command line; nil when the suite ran
	// in-process against the reference or a mutant.
	Command []string
	// Mutant names the built-in faulty variant the run was against.
	Mutant string
	// Seed is the properties' seed: `conform -seed Seed` replays the run.
	Seed uint64
	// Checks is the number of generated cases per property.
	Checks int
	// RunPattern and SkipPattern are the -run and -skip selections.
	RunPattern, SkipPattern string
	// Started and Duration time the run.
	Started  time.Time
	Duration time.Duration
	// Cases are the cases that completed, in the order they ran.
	Cases []Case
	// Interrupted says that the run was stopped (Ctrl-C, SIGTERM) before
	// every selected case had completed.
	Interrupted bool
	// RestartLimit says that the implementation failed more often than
	// -max-restarts allows; the cases after that point are NotRun.
	RestartLimit bool
	// Baseline is the baseline file the results were judged against; nil
	// for none.
	Baseline *BaselineFile
	// Strict says that the cases were judged strictly (conform -strict):
	// an unsupported outcome fails the run unless the baseline lists it.
	// The cases carry it too (Case.Strict); Judge sets both from one value.
	Strict bool
	// StartError says why the implementation could not be started or
	// failed its handshake; no case ran.
	StartError string
	// Checked is set for `conform check`: recorded requests were judged
	// against SPEC.md section 8e, and no implementation ran (D-57).
	Checked *Checked
}

// Checked says what `conform check` read.
type Checked struct {
	Files []string `json:"files"`
	// Requests counts the chat requests checked, Skipped the records that
	// are not chat requests, Unreadable those that could not be read.
	Requests   int `json:"requests"`
	Skipped    int `json:"skipped"`
	Unreadable int `json:"unreadable"`
}

// BaselineFile names the baseline a run was judged against.
type BaselineFile struct {
	Path string
	*Baseline
}

// Case is one completed case, judged against the baseline.
type Case struct {
	result.Result
	// Baseline is the baseline entry that lists the case; nil for none.
	Baseline *Entry
	// Strict says that the case was judged strictly: unsupported fails
	// like failed (conform -strict; spec/decisions.md D-33).
	Strict bool
	// Reproduce is a command line that reruns just this case; empty for a
	// case that did not fail.
	Reproduce string
}

// Verdict is how a case counts for the run as a whole.
type Verdict string

// Verdicts.
const (
	// Ok: passed, not applicable or unsupported (not when strict), and
	// not in the baseline.
	Ok Verdict = "ok"
	// Failing: a failing outcome the baseline does not accept — not
	// listed, or listed for another outcome or cause (D-50); a case not
	// run because of the restart limit is always failing.
	Failing Verdict = "failing"
	// Expected: a failing outcome the baseline accepts (as a known
	// deviation, or as flaky); it does not fail the run.
	Expected Verdict = "expected_failure"
	// Stale: in the baseline, not as flaky, but it did not fail; it fails
	// the run until its entry is removed.
	Stale Verdict = "stale"
)

// Fails says whether an outcome fails a run unless the baseline accepts
// it: failed, timeout, crash and protocol error always; unsupported only
// when strict (conform -strict); passed and not applicable never.
func Fails(o result.Outcome, strict bool) bool {
	return o.IsFailure() || strict && o == result.Unsupported
}

// Fails says whether the case's outcome fails the run unless the baseline
// accepts it.
func (c Case) Fails() bool { return Fails(c.Outcome, c.Strict) }

// Verdict judges the case.
func (c Case) Verdict() Verdict {
	switch {
	case c.NotRun:
		return Failing
	case c.Fails() && c.Baseline != nil && c.Baseline.Accepts(c.Result):
		return Expected
	case c.Fails():
		return Failing
	case c.Baseline != nil && c.Baseline.Flaky:
		return Ok // a known-flaky case that passed this time
	case c.Baseline != nil:
		return Stale
	}
	return Ok
}

// byVerdict splits cases into those failing, those stale and those
// expected to fail, each in the order of cases: the three lists the
// document reports show, each under its heading.
func byVerdict(cases []Case) (failing, stale, expected []Case) {
	for _, k := range cases {
		switch k.Verdict() {
		case Failing:
			failing = append(failing, k)
		case Stale:
			stale = append(stale, k)
		case Expected:
			expected = append(expected, k)
		}
	}
	return failing, stale, expected
}

// Outcomes lists every outcome class in the order reports show them.
var Outcomes = []result.Outcome{
	result.Passed, result.Failed, result.Timeout, result.Crash, result.ProtocolError,
	result.Unsupported, result.NotApplicable,
}

// OutcomeLabel is an outcome for people: "protocol error", "not applicable".
func OutcomeLabel(o result.Outcome) string { return strings.ReplaceAll(string(o), "_", " ") }

// Counts tallies a run.
type Counts struct {
	// Total is the number of cases that completed.
	Total int
	// Outcomes counts every outcome class, zeros included; expected
	// failures and cases not run count under their outcome too.
	Outcomes map[result.Outcome]int
	// Expected counts the failing cases the baseline accepts.
	Expected int
	// Stale counts the baseline entries whose case did not fail.
	Stale int
	// NotRun counts the cases the restart limit kept from running (their
	// outcome is crash).
	NotRun int
	// Failing counts the cases that fail the run: failing outcomes the
	// baseline does not accept, and stale entries.
	Failing int
	// StrictFailing counts the failing cases that fail only because the
	// run is strict: unsupported outcomes the baseline does not accept
	// (they are in Failing too).
	StrictFailing int
}

// Count tallies the run's cases.
func (r *Run) Count() Counts {
	c := Counts{Outcomes: map[result.Outcome]int{}}
	for _, o := range Outcomes {
		c.Outcomes[o] = 0
	}
	for _, k := range r.Cases {
		c.Total++
		c.Outcomes[k.Outcome]++
		if k.NotRun {
			c.NotRun++
		}
		switch k.Verdict() {
		case Expected:
			c.Expected++
		case Stale:
			c.Stale++
			c.Failing++
		case Failing:
			c.Failing++
			if k.Outcome == result.Unsupported {
				c.StrictFailing++
			}
		}
	}
	return c
}

// Passed says whether the run passes as a whole: nothing failed, and
// something was checked.
func (r *Run) Passed() bool {
	return r.cleared() && r.NothingChecked() == ""
}

// cleared says that nothing failed: the run started, went to its end, and
// no case fails it.
func (r *Run) cleared() bool {
	return r.StartError == "" && !r.Interrupted && !r.RestartLimit && r.Count().Failing == 0
}

// NothingChecked says why the run checked nothing — the implementation
// declared no capability, or no selected case applied to what it declared
// (every case not applicable or unsupported, the lifecycle's end aside) —
// or "" when it checked something. Such a run is not a PASS (D-51): a CI
// gate over an adapter that lost its capabilities, or over a selection
// that applies to none of them, would otherwise stay green.
func (r *Run) NothingChecked() string {
	if r.StartError != "" {
		return ""
	}
	if r.Implementation != nil && len(r.Implementation.Capabilities) == 0 {
		return "the implementation declares no capabilities"
	}
	for _, k := range r.Cases {
		if k.ID != lifecycleCase && k.Outcome != result.NotApplicable && k.Outcome != result.Unsupported {
			return ""
		}
	}
	if len(r.Cases) == 0 {
		return "no case completed"
	}
	return "no selected case applies to what the implementation declares (every one is not applicable or unsupported)"
}

// lifecycleCase is the ID of the lifecycle's end (runner.ShutdownCase),
// which applies to every program and so checks none of its capabilities.
const lifecycleCase = "lifecycle/shutdown"

// Status is the run's state in one word: "passed", "failed",
// "interrupted" or "not_started".
func (r *Run) Status() string {
	switch {
	case r.StartError != "":
		return "not_started"
	case r.Interrupted:
		return "interrupted"
	case r.Passed():
		return "passed"
	case r.cleared():
		return "nothing_checked"
	}
	return "failed"
}

// ExitCode is conform's exit status for the run.
func (r *Run) ExitCode() int {
	switch {
	case r.StartError != "":
		return ExitNoImpl
	case r.Passed():
		return ExitOK
	case r.cleared():
		return ExitNothing
	}
	return ExitFailures
}

// Summary is the outcome line: every outcome class with its count, e.g.
// "140 passed, 2 failed, 1 timeout, 0 crash, 0 protocol error,
// 0 unsupported, 3 not applicable".
func (c Counts) Summary() string {
	parts := make([]string, 0, len(Outcomes))
	for _, o := range Outcomes {
		s := fmt.Sprintf("%d %s", c.Outcomes[o], OutcomeLabel(o))
		if o == result.Crash && c.NotRun > 0 {
			s += fmt.Sprintf(" (%d not run)", c.NotRun)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// Verdict is the closing line: PASS or FAIL (or INTERRUPTED, NOT STARTED)
// and why.
func (r *Run) Verdict() string {
	c := r.Count()
	var why []string
	if r.StartError != "" {
		return "NOT STARTED: the implementation could not be started or failed the handshake"
	}
	if r.RestartLimit {
		why = append(why, fmt.Sprintf("restart limit reached, %d %s not run", c.NotRun, plural(c.NotRun, "case", "cases")))
	}
	if n := c.Failing - c.NotRun - c.Stale; n > 0 {
		s := plural(n, "case fails", "cases fail")
		if r.Baseline != nil {
			s += " outside the baseline"
		}
		if c.StrictFailing > 0 {
			s += fmt.Sprintf(" (strict: %d unsupported)", c.StrictFailing)
		}
		why = append(why, fmt.Sprintf("%d %s", n, s))
	}
	if c.Stale > 0 {
		why = append(why, fmt.Sprintf("%d stale baseline %s", c.Stale, plural(c.Stale, "entry", "entries")))
	}
	if r.Interrupted {
		return fmt.Sprintf("INTERRUPTED after %d %s", c.Total, plural(c.Total, "case", "cases")) + prefixed(": ", why)
	}
	if len(why) > 0 {
		return "FAIL: " + strings.Join(why, "; ")
	}
	if why := r.NothingChecked(); why != "" {
		return "NOTHING CHECKED: " + why
	}
	if c.Expected > 0 {
		return fmt.Sprintf("PASS (%d expected %s)", c.Expected, plural(c.Expected, "failure", "failures"))
	}
	return "PASS"
}

// BaselineSummary is the baseline's line, e.g. "baseline
// conform-baseline.json: 2 expected failures, 1 stale entry"; empty
// without a baseline.
func (r *Run) BaselineSummary() string {
	if r.Baseline == nil {
		return ""
	}
	c := r.Count()
	return fmt.Sprintf("baseline %s: %d expected %s, %d stale %s", r.Baseline.Path,
		c.Expected, plural(c.Expected, "failure", "failures"), c.Stale, plural(c.Stale, "entry", "entries"))
}

// StaleAdvice tells the user what to do about a stale entry.
func (r *Run) StaleAdvice(k Case) string {
	path := "the baseline"
	if r.Baseline != nil {
		path = r.Baseline.Path
	}
	if k.Outcome == result.Unsupported && !k.Strict {
		// Most likely a baseline written with -strict, used without it.
		return fmt.Sprintf("listed in %s as a known deviation, but it is unsupported, which fails a run only with -strict: run with -strict, or remove its entry from %s", path, path)
	}
	return fmt.Sprintf("listed in %s as a known deviation, but it %s now: remove its entry from %s", path, verbOf(k.Outcome), path)
}

func verbOf(o result.Outcome) string {
	switch o {
	case result.Passed:
		return "passes"
	case result.NotApplicable:
		return "is not applicable"
	}
	return "is " + OutcomeLabel(o)
}

// Title names the implementation and its capabilities, or the target
// when there was no handshake.
func (r *Run) Title() string {
	if r.Implementation == nil {
		return r.Target()
	}
	info := r.Implementation
	return fmt.Sprintf("%s %s (capabilities: %s)", info.Name, info.Version, strings.Join(info.Capabilities, ", "))
}

// Target says, for people, what the run tested.
func (r *Run) Target() string {
	switch {
	case r.Checked != nil:
		return "recorded requests in " + strings.Join(r.Checked.Files, ", ")
	case r.Command != nil:
		return strings.Join(r.Command, " ")
	case r.Mutant != "":
		return "built-in mutant " + r.Mutant
	}
	return "built-in reference"
}

// ClauseTitle is "WIN-3 — Title" for a clause of the embedded spec, or the
// bare ID for an unknown one.
func ClauseTitle(id string) string {
	if c, ok := spec.Lookup(id); ok {
		return c.ID + " — " + c.Title
	}
	return id
}

// FirstLine is the first non-empty line of s, clipped to n runes.
func FirstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return clip(l, n)
		}
	}
	return ""
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func prefixed(prefix string, parts []string) string {
	if len(parts) == 0 {
		return ""
	}
	return prefix + strings.Join(parts, "; ")
}
