package mutants

// The catalogue: every faulty variant, listed next to what it describes —
// each file of a capability has a function returning its variants as one
// slice literal, beside their engines — and combined here, sorted by name,
// so that `conform mutants` and a reader see the same list.

import "sort"

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
