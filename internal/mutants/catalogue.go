package mutants

// The catalogue: every faulty variant, listed next to what it describes —
// each file of a capability has a function returning its variants as one
// slice literal, beside their engines, a variant whose engine fits on a
// line written as one row (variant, pointVariant) — and combined here,
// sorted by name, so that `conform mutants` and a reader see the same list.

import (
	"sort"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/server"
)

// All lists the catalogue, sorted by name. It builds new engines on every
// call: a variant that keeps state starts afresh.
func All() []Mutant {
	var ms []Mutant
	for _, group := range [][]Mutant{
		protocolCatalogue(), messagesCatalogue(), windowCatalogue(), estimateCatalogue(),
		summarizeCatalogue(), historyCatalogue(), configCatalogue(), loopCatalogue(),
		budgetCatalogue(), trimmerMutants(), domainMutants(), outsiderMutants(),
	} {
		ms = append(ms, group...)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return withFaults(ms)
}

// variant is one row of a catalogue list: the variant's name, its bug,
// the engine that serves it and the clauses the bug breaks.
func variant(name, bug string, e server.Engine, clauses ...string) Mutant {
	return Mutant{Name: name, Bug: bug, Clauses: clauses, Engine: e}
}

// pointVariant is the row of a variant that is the reference with one
// fault point on (D-68): All gives it the engine that turns p on.
func pointVariant(name, bug string, p fault.Point, clauses ...string) Mutant {
	return Mutant{Name: name, Bug: bug, Clauses: clauses, Faults: fault.Of(p)}
}
