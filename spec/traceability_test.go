package spec_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/spec"
)

var (
	clauseID = regexp.MustCompile(`\b[A-Z]+-[0-9]+\b`)
	caseID   = regexp.MustCompile(`\b(?:[A-Z]+-[0-9]+|prop)/[a-z0-9.\-]+`)
)

// TestTraceability checks spec/traceability.md: every document item names
// clauses that exist and cases that exist.
func TestTraceability(t *testing.T) {
	doc, err := os.ReadFile("traceability.md")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range cases {
		known[c.ID] = true
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !regexp.MustCompile(`^\s*0\d\d-`).MatchString(cells[1]) {
			continue
		}
		rows++
		item, clauses, checks := strings.TrimSpace(cells[1]), cells[3], cells[4]
		ids := clauseID.FindAllString(clauses, -1)
		if len(ids) == 0 && !strings.Contains(clauses, "Go API") {
			t.Errorf("%s maps to no clause", item)
		}
		for _, id := range ids {
			if _, ok := spec.Lookup(id); !ok {
				t.Errorf("%s names clause %s, which SPEC.md does not define", item, id)
			}
		}
		found := caseID.FindAllString(checks, -1)
		if len(found) == 0 && !strings.Contains(checks, "Go package") {
			t.Errorf("%s is checked by no scenario or property", item)
		}
		for _, id := range found {
			if !known[id] {
				t.Errorf("%s names case %s, which does not exist (see `conform list`)", item, id)
			}
		}
	}
	if rows < 30 {
		t.Errorf("found only %d document items; is the table format broken?", rows)
	}
}
