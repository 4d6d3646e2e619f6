package properties

// The catalogue: every per-capability property, one entry each, in the
// order of the reports. Each capability lists its properties in its own
// file (windowProperties in window.go, …), next to their checks; All joins
// the lists. The differential properties follow them in the reports
// (package differential; runner.Properties joins the two).

import (
	"slices"

	"github.com/convspec/convspec/internal/prop"
)

// All lists every per-capability property, in a stable order.
func All() []prop.Property {
	m := newEdgeMemo() // this run's edge histories
	return slices.Concat(windowProperties(), historyProperties(m), summarizeProperties(), budgetProperties(), loopProperties(), trimmerProperties(m))
}
