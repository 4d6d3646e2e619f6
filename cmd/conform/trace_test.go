package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/spec"
)

// TestTraceOfTheRepository: `conform trace` finds no gap in
// spec/traceability.md. (spec's TestTraceability and runner's
// TestEveryClauseIsChecked hold the same rules; this checks the command.)
func TestTraceOfTheRepository(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := trace([]string{"-f", "../../spec/traceability.md", "-gaps"}, &out, &errOut); code != exitOK {
		t.Errorf("conform trace exited %d:\n%s%s", code, out.String(), errOut.String())
	}
}

func TestBuildTrace(t *testing.T) {
	clauses := []spec.Clause{
		{ID: "WIN-1", Title: "one"}, {ID: "WIN-2", Title: "two"}, {ID: "WIN-3", Title: "three"},
		{ID: "EST-1", Title: "est"}, {ID: "MSG-3", Title: "pure"}, {ID: "SUM-1", Title: "prompt"},
	}
	cases := []runner.Case{
		{ID: "WIN-1/a", Kind: runner.Scenario, Clauses: []string{"WIN-1", "WIN-2"}},
		{ID: "WIN-3/b", Kind: runner.Scenario, Clauses: []string{"WIN-3"}},
		{ID: "prop/est", Kind: runner.Property, Clauses: []string{"EST-1"}},
		{ID: "MSG-3/c", Kind: runner.Scenario, Clauses: []string{"MSG-3", "NOPE-1"}},
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

## Clauses introduced by the spec itself

MSG-3 (D-8).
`
	tr := buildTrace("t.md", doc, clauses, cases)
	if len(tr.Items) != 5 {
		t.Fatalf("%d items, want 5", len(tr.Items))
	}
	if got := strings.Join(tr.Items[0].Clauses, ","); got != "WIN-1,WIN-2,WIN-3" {
		t.Errorf("the range expands to %s", got)
	}
	if !tr.Items[4].GoAPI {
		t.Error("000-R7 is met by the Go API")
	}
	gaps := strings.Join(tr.Gaps, "\n")
	for _, want := range []string{
		"t.md:9: 000-R3 maps to no clause",
		"t.md:10: 000-R4 names clause WIN-9, which SPEC.md does not define",
		"t.md:10: 000-R4 names case WIN-1/zzz, which does not exist",
		"case MSG-3/c names clause NOPE-1",
		"clause SUM-1 (prompt) has no scenario or property",
	} {
		if !strings.Contains(gaps, want) {
			t.Errorf("gaps lack %q:\n%s", want, gaps)
		}
	}
	if len(tr.Gaps) != 5 {
		t.Errorf("%d gaps, want 5:\n%s", len(tr.Gaps), gaps)
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
	if strings.Contains(notes, "MSG-3") {
		t.Errorf("MSG-3 is listed as introduced by the spec itself:\n%s", notes)
	}
}
