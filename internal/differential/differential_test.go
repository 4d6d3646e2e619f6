package differential

import (
	"flag"
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
)

// TestReferenceHoldsEveryProperty runs every differential property against
// the built-in reference: the reference agrees with itself, and the
// exact token vectors are the reference's. It runs each property's edge
// examples and a tenth of its random checks: the runner's
// TestReferenceInProcess runs them all (D-86). -short (make check) runs
// the edge examples only.
func TestReferenceHoldsEveryProperty(t *testing.T) {
	fewChecks(t, 10)
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

// fewChecks makes each rapid.Check of the test draw n cases instead of
// rapid's 100, unless -rapid.checks was given on the command line; the
// flag is restored after. The test must not run in parallel with others:
// the flag is the process's.
func fewChecks(t *testing.T, n int) {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "rapid.checks" })
	if given {
		return
	}
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("rapid has no flag rapid.checks")
	}
	old := f.Value.String()
	if err := flag.Set("rapid.checks", fmt.Sprint(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}
