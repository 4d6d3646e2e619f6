package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
)

func deviating(r result.Result, ds ...result.Deviation) result.Result {
	r.Deviations = ds
	return r
}

func TestShape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"the estimate is 1 tokens, want 2\n  sent: …", "the estimate is N tokens, want N"},
		{"trimmed differs at index 3: got role user, content \"hi\", want message 5", "trimmed differs at index N"},
		{"[rapid] failed after 3 tests: WIN-6: trimmed holds 11 messages, more than max_messages 10", "trimmed holds N messages, more than max_messages N"},
		{`the warnings include "preserve_exceeds_max": got []`, `the warnings include "preserve_exceeds_max"`},
		{`config.max_messages: want a non-negative integer, got 2.5`, `config.max_messages`},
	} {
		if got := report.Shape(tc.in); got != tc.want {
			t.Errorf("Shape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCauses: deviations seen together in one case, or under one clause,
// are one cause; a property joins the cause that holds its clause; an
// unrelated deviation is a cause of its own; passing and expected cases
// are no cause.
func TestCauses(t *testing.T) {
	est := func(id string, got, want string) result.Result {
		d := "the estimate is " + got + " tokens, want " + want
		return deviating(scenario(id, result.Failed, d, "EST-2"), result.Deviation{Clause: "EST-2", Detail: d})
	}
	win := deviating(scenario("WIN-4/a", result.Failed, "2 deviations", "WIN-4"),
		result.Deviation{Clause: "WIN-4", Step: "the trimmed conversation is messages 1-3", Detail: "trimmed differs at index 1: got role user"},
		result.Deviation{Clause: "WIN-4", Step: "the evicted messages are message 4", Detail: "evicted differs at index 0: got role user"})
	win2 := deviating(scenario("WIN-4/b", result.Failed, "evicted differs at index 2: got role tool", "WIN-4"),
		result.Deviation{Clause: "WIN-4", Detail: "evicted differs at index 2: got role tool"})
	prop := deviating(property("prop/window-matches-plan", result.Failed, 7, "[rapid] failed after 2 tests: WIN-4: the kept part is wrong", "WIN-4"),
		result.Deviation{Clause: "WIN-4", Detail: "the kept part is wrong"})
	lone := deviating(property("prop/prune-matches-rules", result.Failed, 7, "PRUNE-1: input[2] was removed", "PRUNE-1"),
		result.Deviation{Clause: "PRUNE-1", Detail: "input[2] was removed"})
	crash := scenario("MSG-1/c", result.Crash, "crash during window.trim: it exited with status 2", "MSG-1")
	results := []result.Result{
		est("EST-2/a", "1", "2"), est("EST-2/b", "3", "4"), win, win2, prop, lone, crash,
		scenario("WIN-1/ok", result.Passed, "", "WIN-1"),
	}
	run := &report.Run{Implementation: info, Seed: 1, Cases: report.Judge(results, nil, false)}
	causes := run.Causes()
	if got := report.CausesLine(causes); got != "4 causes across 7 failing cases" {
		for _, c := range causes {
			t.Logf("%v %q %v", c.Clauses, c.Shape, c.Cases)
		}
		t.Fatalf("CausesLine = %q", got)
	}
	first := causes[0]
	if first.Shape != "trimmed differs at index N" || len(first.Cases) != 3 || len(first.Shapes) != 3 {
		t.Errorf("first cause = %+v; want the window's three cases and three shapes, clearest example first", first)
	}
	if causes[1].Shape != "the estimate is N tokens, want N" || len(causes[1].Cases) != 2 {
		t.Errorf("second cause = %+v", causes[1])
	}

	var text bytes.Buffer
	if err := report.Text(&text, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := text.String()
	for _, want := range []string{"4 causes across 7 failing cases:\n", "  1. [WIN-4] trimmed differs at index N — 3 cases\n", "e.g. WIN-4/a (Then the trimmed conversation is messages 1-3): trimmed differs at index 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "--- FAILED WIN-4/") > strings.Index(out, "--- FAILED EST-2/") {
		t.Errorf("the failures are not listed cause by cause:\n%s", out)
	}
	var md bytes.Buffer
	if err := report.Markdown(&md, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "### 4 causes across 7 failing cases") {
		t.Errorf("the Markdown report lacks the causes:\n%s", md.String())
	}
	var junit bytes.Buffer
	if err := report.JUnit(&junit, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), `[cause 1]"`) || !strings.Contains(junit.String(), `name="causes" value="4 causes across 7 failing cases"`) {
		t.Errorf("the JUnit report lacks the causes:\n%s", junit.String())
	}
}
