// Package trace is the trace model: traceability.md's map from the items
// of the source documents to the clauses that encode them and the cases
// that check them, joined with the clauses each case is tagged with, and
// what is missing from it. `conform trace` prints it; the tests of spec,
// runner and the CLI check it. The cases are passed in as data, so that the
// model needs only the clauses of package spec, not the runner that lists
// the cases.
package trace

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/spec"
)

// Case is what the trace needs to know of a scenario or a property.
type Case struct {
	ID       string   // the stable case ID, e.g. "WIN-3/…" or "prop/…"
	Clauses  []string // the clauses it checks
	Property bool     // a property rather than a scenario
}

// Item is one row of traceability.md: an item of a source document,
// the clauses that encode it and the cases that check it.
type Item struct {
	Document string // the section heading, e.g. "000 — ConversationWindow"
	ID       string // e.g. "000-R1"
	Text     string
	Clauses  []string // ranges such as "WIN-1 – WIN-6" expanded
	Cases    []string
	// GoAPI says the item is met by the Go API rather than by a clause
	// ("— (Go API: …)" in the clauses column).
	GoAPI bool
	Line  int
}

// Trace is the whole map and what is missing from it.
type Trace struct {
	Items []Item
	// Introduced are the clauses the file lists as introduced by the spec
	// itself (decisions, the protocol), not by a document item.
	Introduced map[string]bool

	Clauses []spec.Clause
	// Scenarios and Properties are the cases tagged with each clause.
	Scenarios, Properties map[string][]string

	// Gaps fail the check: a clause no scenario or property checks, a
	// document item without a clause or a case, or a name that does not
	// resolve.
	Gaps []string
	// Notes do not: clauses checked only by properties, and the clauses of
	// Untraced.
	Notes []string
	// Untraced are the clauses that no document item names and that are
	// not listed as introduced by the spec itself, in the order of Clauses.
	Untraced []string
}

var (
	traceClauseID = regexp.MustCompile(`\b([A-Z]+)-([0-9]+)\b`)
	traceRange    = regexp.MustCompile(`\b([A-Z]+)-([0-9]+)\s*[–-]\s*([A-Z]+)-([0-9]+)\b`)
	traceCaseID   = regexp.MustCompile(`\b(?:[A-Z]+-[0-9]+|prop)/[a-z0-9.\-]+`)
	traceItemID   = regexp.MustCompile(`^\s*0\d\d-`)
)

// Build parses a traceability document (name is used in the gaps'
// positions) and joins it with the clauses and the cases.
//
// A document item is a table row "| 0NN-… | source text | clauses |
// checked by |" under a level-2 heading naming the document; clause ranges
// "WIN-1 – WIN-6" stand for every clause of that prefix numbered 1 to 6. A
// level-2 section whose heading says "introduced by the spec" lists the
// clauses that come from the spec itself.
func Build(name, doc string, clauses []spec.Clause, cases []Case) Trace {
	t := Trace{Introduced: map[string]bool{}, Clauses: clauses}
	var tagGaps, coverageGaps []string
	t.Scenarios, t.Properties, tagGaps, coverageGaps = joinCases(clauses, cases)
	t.Gaps = append(t.Gaps, tagGaps...)

	known := map[string]bool{}
	for _, c := range clauses {
		known[c.ID] = true
	}
	caseIDs := map[string]bool{}
	for _, c := range cases {
		caseIDs[c.ID] = true
	}
	section, introducedSection := "", false
	for i, line := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
			introducedSection = strings.Contains(strings.ToLower(section), "introduced by the spec")
			continue
		}
		if introducedSection {
			for _, id := range expandClauses(line, clauses) {
				t.Introduced[id] = true
			}
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !traceItemID.MatchString(cells[1]) {
			continue
		}
		it := Item{Document: section, ID: strings.TrimSpace(cells[1]), Text: strings.TrimSpace(cells[2]),
			GoAPI: strings.Contains(cells[3], "Go API"), Line: i + 1}
		it.Clauses = expandClauses(cells[3], clauses)
		it.Cases = traceCaseID.FindAllString(cells[4], -1)
		where := fmt.Sprintf("%s:%d: %s", name, it.Line, it.ID)
		if len(it.Clauses) == 0 && !it.GoAPI {
			t.Gaps = append(t.Gaps, where+" maps to no clause")
		}
		for _, id := range it.Clauses {
			if !known[id] {
				t.Gaps = append(t.Gaps, fmt.Sprintf("%s names clause %s, which SPEC.md does not define", where, id))
			}
		}
		if len(it.Cases) == 0 && !strings.Contains(cells[4], "Go package") {
			t.Gaps = append(t.Gaps, where+" is checked by no scenario or property")
		}
		for _, id := range it.Cases {
			if !caseIDs[id] {
				t.Gaps = append(t.Gaps, fmt.Sprintf("%s names case %s, which does not exist (see `conform list`)", where, id))
			}
		}
		t.Items = append(t.Items, it)
	}
	t.Gaps = append(t.Gaps, coverageGaps...)

	traced := map[string]bool{}
	for _, it := range t.Items {
		for _, id := range it.Clauses {
			traced[id] = true
		}
	}
	for _, c := range clauses {
		if len(t.Scenarios[c.ID]) == 0 && len(t.Properties[c.ID]) > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("clause %s (%s) is checked by properties only: %s", c.ID, c.Title, strings.Join(t.Properties[c.ID], ", ")))
		}
		if !traced[c.ID] && !t.Introduced[c.ID] {
			t.Untraced = append(t.Untraced, c.ID)
			t.Notes = append(t.Notes, fmt.Sprintf("clause %s (%s) is named by no document item and not listed as introduced by the spec itself", c.ID, c.Title))
		}
	}
	return t
}

// CaseGaps is the part of the trace that needs no traceability document:
// a case tagged with a clause SPEC.md does not define is a typo, and a
// clause no scenario or property checks is a promise nobody checks.
func CaseGaps(clauses []spec.Clause, cases []Case) []string {
	_, _, tagGaps, coverageGaps := joinCases(clauses, cases)
	return append(tagGaps, coverageGaps...)
}

// joinCases files each case under the clauses it is tagged with.
func joinCases(clauses []spec.Clause, cases []Case) (scenarios, properties map[string][]string, tagGaps, coverageGaps []string) {
	scenarios, properties = map[string][]string{}, map[string][]string{}
	known := map[string]bool{}
	for _, c := range clauses {
		known[c.ID] = true
	}
	for _, c := range cases {
		for _, id := range c.Clauses {
			if c.Property {
				properties[id] = append(properties[id], c.ID)
			} else {
				scenarios[id] = append(scenarios[id], c.ID)
			}
			if !known[id] {
				tagGaps = append(tagGaps, fmt.Sprintf("case %s names clause %s, which SPEC.md does not define", c.ID, id))
			}
		}
	}
	for _, c := range clauses {
		if len(scenarios[c.ID]) == 0 && len(properties[c.ID]) == 0 {
			coverageGaps = append(coverageGaps, fmt.Sprintf("clause %s (%s) has no scenario or property", c.ID, c.Title))
		}
	}
	return scenarios, properties, tagGaps, coverageGaps
}

// expandClauses finds the clause IDs of a cell, a range "WIN-1 – WIN-6"
// standing for every clause of that prefix numbered from 1 to 6, in the
// order of SPEC.md.
func expandClauses(cell string, clauses []spec.Clause) []string {
	var out []string
	add := func(id string) {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	for _, r := range traceRange.FindAllStringSubmatch(cell, -1) {
		lo, _ := strconv.Atoi(r[2])
		hi, _ := strconv.Atoi(r[4])
		if r[1] != r[3] || lo > hi {
			continue // not a range of one prefix: the IDs stand alone
		}
		for _, c := range clauses {
			prefix, num, _ := strings.Cut(c.ID, "-")
			n, _ := strconv.Atoi(num)
			if prefix == r[1] && n >= lo && n <= hi {
				add(c.ID)
			}
		}
	}
	for _, id := range traceClauseID.FindAllString(cell, -1) {
		add(id)
	}
	return out
}
