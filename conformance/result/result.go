// Package result names a case of the conformance suite and how it ended:
// the case's stable identity (ID, kind, clauses), its outcome, and the
// result the runner hands to the reports. It is API: reports and tools
// read results in these terms (D-34).
package result

import (
	"slices"
	"time"

	"github.com/convspec/convspec/internal/textsafe"
)

// Outcome is how one case ended.
type Outcome string

// Outcomes (spec/protocol.md, D-33): passed and not applicable are
// not failures; everything else is.
const (
	Passed        Outcome = "passed"
	Failed        Outcome = "failed"
	NotApplicable Outcome = "not_applicable"
	Unsupported   Outcome = "unsupported"
	Timeout       Outcome = "timeout"
	Crash         Outcome = "crash"
	ProtocolError Outcome = "protocol_error"
)

// IsFailure reports whether the outcome fails a run.
func (o Outcome) IsFailure() bool {
	return o != Passed && o != NotApplicable && o != Unsupported
}

// Kind says whether a case is a scenario or a property, or a clause of
// SPEC.md section 8e judged on recorded requests (`conform check`, D-57).
type Kind string

// Kinds of case.
const (
	Scenario Kind = "scenario"
	Property Kind = "property"
	Check    Kind = "check"
)

// Case is one scenario or property, identified stably.
type Case struct {
	ID         string
	Kind       Kind
	Name       string
	Clauses    []string
	Capability string
	// Level is the level of the case's first clause (D-35).
	Level string
	// Formats are the provider formats the case's messages use; none for
	// a case whose messages carry no tool member, or a property (whose
	// generators draw only the declared formats).
	Formats []string
	// Source is the feature file of a scenario.
	Source string
}

// Result is the outcome of one case.
type Result struct {
	Case
	Outcome Outcome
	// Detail explains a failure: what was sent, what came back, what was
	// wanted; for a property, the shrunk counterexample.
	Detail string
	// Deviations are what a failed case got wrong, each under its clause:
	// every failing Then of a scenario, the one failure of a property.
	// Empty for other outcomes.
	Deviations []Deviation
	// Seed reproduces a property: for a failed one, the seed of the
	// failing check (`conform -seed` with it fails on the first check);
	// otherwise the run's seed.
	Seed uint64
	// NotRun says that the case was not run because the implementation
	// had failed more often than its restart limit allows; its outcome is
	// Crash and its Detail starts with NotRunDetail.
	NotRun bool
	// Duration is how long the case took.
	Duration time.Duration
}

// Deviation is one thing a failed case got wrong.
type Deviation struct {
	// Clause is the clause it breaks.
	Clause string
	// Step is the Then step of a scenario that found it; "" for a
	// property.
	Step string
	// Detail says what differs; its first line says it in short. It is
	// the failure as people read it, and may quote the implementation.
	Detail string
	// Sent, Got and Want are what was sent, what came back (the value
	// compared with Want when the check names one, else the answer) and
	// what was wanted, each "" when the check has none to show. They are
	// set by the code that finds the deviation, never read back from
	// Detail, so that a report lays them out without parsing text an
	// implementation may have written (D-72).
	Sent, Got, Want string
}

// FailingClauses are the clauses a failed case breaks: those its
// deviations name, in order and without repeats, or the case's own clauses
// when none names one. A differential property governs many clauses but
// fails under the one that governs the member that differs.
func (r Result) FailingClauses() []string {
	var ids []string
	for _, d := range r.Deviations {
		if d.Clause != "" && !slices.Contains(ids, d.Clause) {
			ids = append(ids, d.Clause)
		}
	}
	if len(ids) == 0 {
		return r.Clauses
	}
	return ids
}

// Caps on the details a result keeps (D-52): a failure's detail quotes what
// the implementation sent, and an implementation can send up to a line's
// limit (64 MiB) per answer; the harness keeps at most this much of each
// deviation and of a case's detail, with the size it had said where it is
// clipped, so that a run's memory and reports are bounded by the caps.
// MaxDeviationBytes bounds each of a deviation's Detail, Sent, Got and
// Want (D-72).
const (
	MaxDeviationBytes = 16 << 10
	MaxDetailBytes    = 64 << 10
)

// Clipped is r with its detail and its deviations' clipped to the caps.
func (r Result) Clipped() Result {
	r.Detail = textsafe.Clip(r.Detail, MaxDetailBytes)
	if len(r.Deviations) > 0 {
		devs := make([]Deviation, len(r.Deviations))
		for i, d := range r.Deviations {
			d.Detail = textsafe.Clip(d.Detail, MaxDeviationBytes)
			d.Sent = textsafe.Clip(d.Sent, MaxDeviationBytes)
			d.Got = textsafe.Clip(d.Got, MaxDeviationBytes)
			d.Want = textsafe.Clip(d.Want, MaxDeviationBytes)
			devs[i] = d
		}
		r.Deviations = devs
	}
	return r
}

// NotRunDetail starts the Detail of a case that was not run because the
// restart limit had been reached.
const NotRunDetail = "not run: restart limit reached"

// DefaultSeed is the properties' seed when none is given: a run is
// deterministic unless asked otherwise (`conform -seed random`), so that an
// unchanged implementation never flips a CI gate.
const DefaultSeed uint64 = 1
