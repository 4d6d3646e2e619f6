package trace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec"
)

func TestBuildTrace(t *testing.T) {
	clauses := []spec.Clause{
		{ID: "WIN-1", Title: "one"}, {ID: "WIN-2", Title: "two"}, {ID: "WIN-3", Title: "three"},
		{ID: "EST-1", Title: "est"}, {ID: "MSG-3", Title: "pure"}, {ID: "SUM-1", Title: "prompt"},
		{ID: "CONF-4", Title: "c4"}, {ID: "CONF-5", Title: "c5"}, {ID: "CONF-6", Title: "c6"},
	}
	cases := []Case{
		{ID: "WIN-1/a", Clauses: []string{"WIN-1", "WIN-2"}},
		{ID: "WIN-3/b", Clauses: []string{"WIN-3"}},
		{ID: "prop/est", Property: true, Clauses: []string{"EST-1"}},
		{ID: "MSG-3/c", Clauses: []string{"MSG-3", "NOPE-1"}},
		{ID: "CONF-4/d", Clauses: []string{"CONF-4", "CONF-5", "CONF-6"}},
	}
	doc := `# Traceability

## 000 — The window

| item | source text | clauses | checked by |
| --- | --- | --- | --- |
| 000-R1 | the window | WIN-1 – WIN-3 | WIN-1/a, WIN-3/b |
| 000-R2 | the estimate | EST-1 | prop/est |
| 000-R3 | no clause here | — | WIN-1/a |
| 000-R4 | a typo | WIN-9 | WIN-1/zzz |
| 000-R7 | export the class | — (Go API: ` + "`reference/window`" + `) | the Go package ` + "`reference/window`" + ` |
| 000-R8 | no case here | WIN-2 | none |

## Clauses introduced by the spec itself

MSG-3 (D-8), CONF-4 – CONF-6 (D-27).
`
	tr := Build("t.md", doc, clauses, cases)
	require.Len(t, tr.Items, 6)
	assert.Equal(t, []string{"WIN-1", "WIN-2", "WIN-3"}, tr.Items[0].Clauses, "the range expands")
	assert.Equal(t, "000 — The window", tr.Items[0].Document)
	assert.Equal(t, 7, tr.Items[0].Line)
	assert.True(t, tr.Items[4].GoAPI, "000-R7 is met by the Go API")
	assert.Equal(t, []string{"prop/est"}, tr.Properties["EST-1"])
	assert.Equal(t, []string{"WIN-1/a"}, tr.Scenarios["WIN-2"])
	want := []string{
		"case MSG-3/c names clause NOPE-1, which SPEC.md does not define",
		"t.md:9: 000-R3 maps to no clause",
		"t.md:10: 000-R4 names clause WIN-9, which SPEC.md does not define",
		"t.md:10: 000-R4 names case WIN-1/zzz, which does not exist (see `conform list`)",
		"t.md:12: 000-R8 is checked by no scenario or property",
		"clause SUM-1 (prompt) has no scenario or property",
	}
	assert.Equal(t, want, tr.Gaps)
	assert.ElementsMatch(t, []string{
		"clause EST-1 (est) is checked by properties only: prop/est",
		"clause SUM-1 (prompt) is named by no document item and not listed as introduced by the spec itself",
	}, tr.Notes)
	// MSG-3 and the whole range CONF-4 – CONF-6 are listed as introduced by
	// the spec itself; only SUM-1 comes from nowhere.
	assert.Equal(t, []string{"SUM-1"}, tr.Untraced)
}

func TestCaseGaps(t *testing.T) {
	clauses := []spec.Clause{{ID: "WIN-1", Title: "one"}, {ID: "WIN-2", Title: "two"}, {ID: "EST-1", Title: "est"}}
	cases := []Case{
		{ID: "WIN-1/a", Clauses: []string{"WIN-1", "WIN-7"}},
		{ID: "prop/est", Property: true, Clauses: []string{"EST-1"}},
	}
	want := []string{
		"case WIN-1/a names clause WIN-7, which SPEC.md does not define",
		"clause WIN-2 (two) has no scenario or property",
	}
	assert.Equal(t, want, CaseGaps(clauses, cases))
	cases = append(cases, Case{ID: "WIN-2/b", Clauses: []string{"WIN-2"}})
	cases[0].Clauses = cases[0].Clauses[:1]
	assert.Empty(t, CaseGaps(clauses, cases))
}

func TestExpandClauses(t *testing.T) {
	clauses := []spec.Clause{{ID: "WIN-1"}, {ID: "WIN-2"}, {ID: "WIN-3"}, {ID: "EST-1"}, {ID: "EST-2"}, {ID: "PROTO-1"}}
	for cell, want := range map[string]string{
		"WIN-1 – WIN-3":                "WIN-1,WIN-2,WIN-3",
		"WIN-2-WIN-3, EST-1":           "WIN-2,WIN-3,EST-1",
		"EST-2, WIN-1 – WIN-2":         "WIN-1,WIN-2,EST-2",
		"WIN-1 – EST-2 (two prefixes)": "WIN-1,EST-2",
		"WIN-3 – WIN-1 (backwards)":    "WIN-3,WIN-1",
		"— (Go API: `reference/x`)":    "",
		"WIN-1, WIN-1":                 "WIN-1",
	} {
		assert.Equal(t, want, strings.Join(expandClauses(cell, clauses), ","), "expandClauses(%q)", cell)
	}
}
