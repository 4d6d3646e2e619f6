// Package result names a case of the conformance suite and how it ended:
// the case's stable identity (ID, kind, clauses), its outcome, and the
// result the runner hands to the reports. It is API: reports and tools
// read results in these terms (D-34).
package result

import (
	"time"
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

// Kind says whether a case is a scenario or a property.
type Kind string

// Kinds of case.
const (
	Scenario Kind = "scenario"
	Property Kind = "property"
)

// Case is one scenario or property, identified stably.
type Case struct {
	ID         string
	Kind       Kind
	Name       string
	Clauses    []string
	Capability string
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

// NotRunDetail starts the Detail of a case that was not run because the
// restart limit had been reached.
const NotRunDetail = "not run: restart limit reached"

// DefaultSeed is the properties' seed when none is given: a run is
// deterministic unless asked otherwise (`conform -seed random`), so that an
// unchanged implementation never flips a CI gate.
const DefaultSeed uint64 = 1
