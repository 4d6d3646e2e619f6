package spec_test

import (
	"os"
	"testing"

	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/trace"
	"github.com/convspec/convspec/spec"
)

// TestTraceability checks spec/traceability.md with the rules of
// trace.Build: every document item names clauses that exist and cases
// that exist, every clause is checked by a scenario or property, and every
// clause is named by a document item or listed as introduced by the spec
// itself.
func TestTraceability(t *testing.T) {
	doc, err := os.ReadFile("traceability.md")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := runner.TraceCases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tr := trace.Build("traceability.md", string(doc), spec.Clauses(), cases)
	for _, g := range tr.Gaps {
		t.Error(g)
	}
	for _, id := range tr.Untraced {
		t.Errorf("clause %s is named by no document item and not listed in \"Clauses introduced by the spec itself\"", id)
	}
	if len(tr.Items) < 30 {
		t.Errorf("found only %d document items; is the table format broken?", len(tr.Items))
	}
	if len(tr.Introduced) == 0 {
		t.Error("found no \"Clauses introduced by the spec itself\" section")
	}
}
