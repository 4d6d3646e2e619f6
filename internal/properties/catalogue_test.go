package properties

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/differential"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/testflags"
	"github.com/convspec/convspec/spec"
)

func reference(t *testing.T) target.Target {
	t.Helper()
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	return tg
}

// TestReferenceHoldsEveryProperty runs every per-capability property
// against the built-in reference (package differential runs its own): its
// edge examples and a tenth of its random checks, since the runner's
// TestReferenceInProcess runs them all (D-86).
func TestReferenceHoldsEveryProperty(t *testing.T) {
	testflags.FewChecks(t, 10)
	tg := reference(t)
	for _, p := range All() {
		t.Run(p.ID, func(t *testing.T) {
			for _, ex := range p.Examples {
				ex.Run(t, tg)
			}
			if p.Check != nil {
				rapid.Check(t, func(rt *rapid.T) { p.Check(rt, tg) })
			}
		})
	}
}

var kebabID = regexp.MustCompile(`^prop/[a-z0-9]+(-[a-z0-9]+)*$`)

func TestCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range every() {
		if !kebabID.MatchString(p.ID) {
			t.Errorf("%q: an ID is prop/ followed by a kebab-case name", p.ID)
		}
		if seen[p.ID] {
			t.Errorf("%s: ID used twice", p.ID)
		}
		seen[p.ID] = true
		if len(p.Clauses) == 0 {
			t.Errorf("%s: names no clause", p.ID)
		}
		for _, id := range p.Clauses {
			c, ok := spec.Lookup(id)
			switch {
			case !ok:
				t.Errorf("%s: clause %s is not in SPEC.md", p.ID, id)
			case c.Capability != strings.Split(p.Capability, "/")[0] && !messageModel(id) && !(p.Capability == protocol.CapTokens && id == "TOK-1"):
				// trimmer/<guarantee> is capability trimmer; tokens.encode
				// (capability tokens.cl100k) checks TOK-1, a clause of the
				// budget section.
				t.Errorf("%s: clause %s belongs to capability %q, the property to %q", p.ID, id, c.Capability, p.Capability)
			}
		}
		if p.Doc == "" || p.Check == nil && len(p.Examples) == 0 {
			t.Errorf("%s: needs a Doc and a Check or examples", p.ID)
		}
	}
}

// messageModel reports whether a clause is one of the message model's
// (MSG, CLS, UNIT), which every capability uses (SPEC.md §1–2), so that a
// property of any capability may check it.
func messageModel(id string) bool {
	for _, prefix := range []string{"MSG-", "CLS-", "UNIT-"} {
		if strings.HasPrefix(id, prefix) {
			return true
		}
	}
	return false
}

// TestEveryPropertyHasEdgeExamples: every property runs fixed edge
// examples before its random checks, so that a bug at a boundary is found
// at every seed.
func TestEveryPropertyHasEdgeExamples(t *testing.T) {
	for _, p := range every() {
		assert.NotEmpty(t, p.Examples, "%s has no edge examples", p.ID)
	}
}

// every is the whole catalogue as the runner lists it: the tests that
// check a rule of every property (an ID, edge examples, a faulty variant
// that fails it) check the differential ones too. It is built once:
// building it asks the reference for the differential properties' edge
// examples, and the kill tests look a property up a few hundred times
// (D-86). Callers get a copy of the slice; a Property is a value.
func every() []prop.Property { return slices.Clone(catalogue()) }

var catalogue = sync.OnceValue(func() []prop.Property { return slices.Concat(All(), differential.All()) })
