package spec

import _ "embed"

// The spec's other documents, embedded so that conform can print the
// traceability map and build the spec site without a checkout.
var (
	//go:embed traceability.md
	traceability string
	//go:embed decisions.md
	decisions string
	//go:embed protocol.md
	protocolDoc string
	//go:embed golden.md
	goldenDoc string
)

// Traceability is traceability.md: the map from the source documents'
// items to the clauses that encode them and the cases that check them.
func Traceability() string { return traceability }

// Decisions is decisions.md: the choices D-n the spec made where the
// source documents disagree or are silent.
func Decisions() string { return decisions }

// Protocol is protocol.md, the wire protocol.
func Protocol() string { return protocolDoc }

// Golden is golden.md, the format of the golden case files.
func Golden() string { return goldenDoc }
