package mutants

// The engine of the variants that are the reference with named fault
// points on (D-68): no copy of reference code, so a variant follows every
// change of the reference except at its own points.

import (
	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/server"
)

// faulty is the reference with fault points on (server.Reference's
// Faults), under a variant's name in the handshake.
type faulty struct{ server.Reference }

func (faulty) Name() string { return "convspec-mutant" }

// withFaults gives each variant that names fault points the engine that
// turns them on.
func withFaults(ms []Mutant) []Mutant {
	for i, m := range ms {
		if !m.Faults.Empty() {
			ms[i].Engine = faulty{server.Reference{Faults: m.Faults}}
		}
	}
	return ms
}

// Traced is m recording into t which of its fault points the reference
// reaches; m itself when it names none.
func (m Mutant) Traced(t *fault.Trace) Mutant {
	if !m.Faults.Empty() {
		m.Engine = faulty{server.Reference{Faults: m.Faults.Traced(t)}}
	}
	return m
}
