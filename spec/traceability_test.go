package spec_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	require.NoError(t, err)
	cases, err := runner.TraceCases(runner.Options{})
	require.NoError(t, err)
	tr := trace.Build("traceability.md", string(doc), spec.Clauses(), cases)
	for _, g := range tr.Gaps {
		t.Error(g)
	}
	assert.Empty(t, tr.Untraced, "clauses named by no document item and not listed in \"Clauses introduced by the spec itself\"")
	assert.GreaterOrEqual(t, len(tr.Items), 30, "document items; is the table format broken?")
	assert.NotEmpty(t, tr.Introduced, "found no \"Clauses introduced by the spec itself\" section")
}
