package trace

import (
	"slices"
	"strings"
	"testing"

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
	if len(tr.Items) != 6 {
		t.Fatalf("%d items, want 6", len(tr.Items))
	}
	if got := strings.Join(tr.Items[0].Clauses, ","); got != "WIN-1,WIN-2,WIN-3" {
		t.Errorf("the range expands to %s", got)
	}
	if tr.Items[0].Document != "000 — The window" || tr.Items[0].Line != 7 {
		t.Errorf("000-R1 is in %q on line %d", tr.Items[0].Document, tr.Items[0].Line)
	}
	if !tr.Items[4].GoAPI {
		t.Error("000-R7 is met by the Go API")
	}
	if got := tr.Properties["EST-1"]; !slices.Equal(got, []string{"prop/est"}) {
		t.Errorf("EST-1's properties: %q", got)
	}
	if got := tr.Scenarios["WIN-2"]; !slices.Equal(got, []string{"WIN-1/a"}) {
		t.Errorf("WIN-2's scenarios: %q", got)
	}
	want := []string{
		"case MSG-3/c names clause NOPE-1, which SPEC.md does not define",
		"t.md:9: 000-R3 maps to no clause",
		"t.md:10: 000-R4 names clause WIN-9, which SPEC.md does not define",
		"t.md:10: 000-R4 names case WIN-1/zzz, which does not exist (see `conform list`)",
		"t.md:12: 000-R8 is checked by no scenario or property",
		"clause SUM-1 (prompt) has no scenario or property",
	}
	if !slices.Equal(tr.Gaps, want) {
		t.Errorf("gaps:\n%s\nwant:\n%s", strings.Join(tr.Gaps, "\n"), strings.Join(want, "\n"))
	}
	notes := strings.Join(tr.Notes, "\n")
	for _, want := range []string{
		"clause EST-1 (est) is checked by properties only: prop/est",
		"clause SUM-1 (prompt) is named by no document item",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// MSG-3 and the whole range CONF-4 – CONF-6 are listed as introduced by
	// the spec itself; only SUM-1 comes from nowhere.
	if !slices.Equal(tr.Untraced, []string{"SUM-1"}) {
		t.Errorf("untraced clauses %q, want [SUM-1]:\n%s", tr.Untraced, notes)
	}
	if len(tr.Notes) != 2 {
		t.Errorf("%d notes, want 2:\n%s", len(tr.Notes), notes)
	}
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
	if got := CaseGaps(clauses, cases); !slices.Equal(got, want) {
		t.Errorf("CaseGaps = %q, want %q", got, want)
	}
	cases = append(cases, Case{ID: "WIN-2/b", Clauses: []string{"WIN-2"}})
	cases[0].Clauses = cases[0].Clauses[:1]
	if got := CaseGaps(clauses, cases); len(got) != 0 {
		t.Errorf("CaseGaps = %q, want none", got)
	}
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
		if got := strings.Join(expandClauses(cell, clauses), ","); got != want {
			t.Errorf("expandClauses(%q) = %s, want %s", cell, got, want)
		}
	}
}
