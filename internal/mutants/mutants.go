// Package mutants is the catalogue of faulty variants of the reference:
// each one a realistic bug, seen in or easy to make in real trimming code.
// The suite must reject every one, naming one of the clauses the bug breaks;
// `conform serve -mutant NAME` serves one over the wire.
package mutants

import (
	"sort"

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
	// Engine serves the variant.
	Engine server.Engine
}

// All lists the catalogue, sorted by name.
func All() []Mutant {
	var ms []Mutant
	for _, group := range [][]Mutant{windowMutants(), estimateMutants(), messageMutants(), summarizeMutants(), historyMutants(), budgetMutants(), configMutants(), loopMutants(), protocolMutants(), outsiderMutants()} {
		ms = append(ms, group...)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// Lookup finds a mutant by name.
func Lookup(name string) (Mutant, bool) {
	for _, m := range append(All(), outsiderSurvivors()...) {
		if m.Name == name {
			return m, true
		}
	}
	return Mutant{}, false
}
