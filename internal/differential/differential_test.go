package differential

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/testflags"
)

// TestReferenceHoldsEveryProperty runs every differential property against
// the built-in reference: the reference agrees with itself, and the
// exact token vectors are the reference's. It runs each property's edge
// examples and a tenth of its random checks: the runner's
// TestReferenceInProcess runs them all (D-86). -short (make check) runs
// the edge examples only.
func TestReferenceHoldsEveryProperty(t *testing.T) {
	testflags.FewChecks(t, 10)
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) {
			if !p.Differential {
				t.Errorf("%s is not marked Differential", p.ID)
			}
			for _, ex := range p.Examples {
				ex.Run(t, tg)
			}
			if p.Check != nil && !testing.Short() {
				rapid.Check(t, func(rt *rapid.T) { p.Check(rt, tg) })
			}
		})
	}
}
