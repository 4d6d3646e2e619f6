// Package prop says what a property of convspec is: an invariant with its
// clauses, capability and level, a Check run on generated cases and fixed
// Examples run before them, reporting to a Failer. The per-capability
// properties (package properties) and the differential ones (package
// differential) are both of this type, so that the runner and the site
// treat them alike; the level helpers say what a target declares.
package prop

import (
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/target"
)

// Failer is what a check reports to: a *rapid.T for a generated case, the
// runner's recorder for a fixed example.
type Failer interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Example is a fixed case a property runs before its random checks, so
// that a bug at a boundary never depends on the seed.
type Example struct {
	Name string
	Run  func(f Failer, tg target.Target)
}

// Property is an invariant checked over generated inputs against a Target.
type Property struct {
	// ID is stable across releases: "prop/" followed by a kebab-case name.
	ID string
	// Clauses are the spec clauses the property checks, e.g. "WIN-6".
	Clauses []string
	// Capability must be declared by the target for the property to apply.
	Capability string
	// Level is the property's level (D-42); "" for that of its first
	// clause.
	Level string
	// Doc says in one line what must hold.
	Doc string
	// Check runs one generated case. It fails through t.Fatalf with a
	// message that names the clause and shows what was sent, what came back
	// and what was wanted.
	Check func(t *rapid.T, tg target.Target)
	// Differential says that the property compares the target with the
	// reference (or with exact token vectors) rather than checking an
	// invariant.
	Differential bool
	// Examples are fixed cases run before the random checks (in a stable
	// order), so that a bug at a boundary never depends on the seed.
	Examples []Example
	// Subjects, when set, are what the property is checked on one at a
	// time: the examples and the random checks run on each subject's
	// target in turn, each with its own seed and shrinking, and the case
	// reports every subject that fails, so that one subject's failure
	// hides no other's (D-75). A trimmer guarantee's subjects are the
	// declared trimmers it is checked on.
	Subjects func(tg target.Target) []Subject
	// Cost is roughly how long one subject of the property takes against
	// the reference, in units of a typical property's time (0 counts as
	// 1): the runner starts the costliest cases first, so that its
	// workers finish together. It orders the work only; no result depends
	// on it (D-83).
	Cost int
}

// Subject is one thing a property is checked on: its name, as a report
// shows it, and the target as the check sees it.
type Subject struct {
	Name   string
	Target target.Target
}
