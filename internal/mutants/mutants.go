// Package mutants is the catalogue of faulty variants of the reference:
// each one a realistic bug, seen in or easy to make in real trimming code.
// The suite must reject every one, naming one of the clauses the bug breaks;
// `conform serve -mutant NAME` serves one over the wire.
package mutants

import (
	"slices"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/server"
)

// Mutant is one faulty variant.
type Mutant struct {
	Name string
	// Bug says, for people, what the variant gets wrong.
	Bug string
	// Clauses are the spec clauses the bug breaks; the suite must report a
	// failure tagged with at least one of them.
	Clauses []string
	// Faults are the points of the reference the variant turns on, for a
	// variant that is the reference with those points on (D-68); All
	// gives it the engine that serves them.
	Faults fault.Set
	// Engine serves the variant.
	Engine server.Engine
	// RefusedAtHandshake says that the harness refuses the variant's
	// handshake as a protocol error, before any case runs (ANY-10: a
	// declaration that breaks the rules is a protocol error): that refusal
	// is the kill.
	RefusedAtHandshake bool
}

// Lookup finds a mutant by name.
func Lookup(name string) (Mutant, bool) {
	all := All()
	if i := slices.IndexFunc(all, func(m Mutant) bool { return m.Name == name }); i >= 0 {
		return all[i], true
	}
	return Mutant{}, false
}
