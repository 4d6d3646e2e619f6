package main

// conform trace: the document → clause → scenario/property map of
// spec/traceability.md, joined with the clause tags of the scenarios and
// the clause lists of the properties, and its gaps.

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/spec"
)

// traceItem is one row of spec/traceability.md: an item of a source
// document, the clauses that encode it and the cases that check it.
type traceItem struct {
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

// traceMap is the whole map and what is missing from it.
type traceMap struct {
	Items []traceItem
	// Introduced are the clauses the file lists as introduced by the spec
	// itself (decisions, the protocol), not by a document item.
	Introduced map[string]bool

	Clauses []spec.Clause
	// Scenarios and Properties are the cases tagged with each clause.
	Scenarios, Properties map[string][]string

	// Gaps fail the check: a clause no scenario or property checks, a
	// document item without a clause, or a name that does not resolve.
	Gaps []string
	// Notes do not: clauses checked only by properties, clauses that no
	// document item names and that are not listed as introduced by the
	// spec itself.
	Notes []string
}

var (
	traceClauseID = regexp.MustCompile(`\b([A-Z]+)-([0-9]+)\b`)
	traceRange    = regexp.MustCompile(`\b([A-Z]+)-([0-9]+)\s*[–-]\s*([A-Z]+)-([0-9]+)\b`)
	traceCaseID   = regexp.MustCompile(`\b(?:[A-Z]+-[0-9]+|prop)/[a-z0-9.\-]+`)
	traceItemID   = regexp.MustCompile(`^\s*0\d\d-`)
)

// buildTrace parses a traceability document and joins it with the clauses
// and the cases.
func buildTrace(name, doc string, clauses []spec.Clause, cases []runner.Case) traceMap {
	t := traceMap{Introduced: map[string]bool{}, Clauses: clauses,
		Scenarios: map[string][]string{}, Properties: map[string][]string{}}
	known := map[string]bool{}
	for _, c := range clauses {
		known[c.ID] = true
	}
	caseIDs := map[string]bool{}
	for _, c := range cases {
		caseIDs[c.ID] = true
		for _, id := range c.Clauses {
			if c.Kind == runner.Property {
				t.Properties[id] = append(t.Properties[id], c.ID)
			} else {
				t.Scenarios[id] = append(t.Scenarios[id], c.ID)
			}
			if !known[id] {
				t.Gaps = append(t.Gaps, fmt.Sprintf("case %s names clause %s, which SPEC.md does not define", c.ID, id))
			}
		}
	}

	section, introducedSection := "", false
	for i, line := range strings.Split(doc, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			section = strings.TrimSpace(h)
			introducedSection = strings.Contains(strings.ToLower(section), "introduced by the spec")
			continue
		}
		if introducedSection {
			for _, m := range traceClauseID.FindAllString(line, -1) {
				t.Introduced[m] = true
			}
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) != 6 || !traceItemID.MatchString(cells[1]) {
			continue
		}
		it := traceItem{Document: section, ID: strings.TrimSpace(cells[1]), Text: strings.TrimSpace(cells[2]),
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

	traced := map[string]bool{}
	for _, it := range t.Items {
		for _, id := range it.Clauses {
			traced[id] = true
		}
	}
	for _, c := range clauses {
		switch {
		case len(t.Scenarios[c.ID]) == 0 && len(t.Properties[c.ID]) == 0:
			t.Gaps = append(t.Gaps, fmt.Sprintf("clause %s (%s) has no scenario or property", c.ID, c.Title))
		case len(t.Scenarios[c.ID]) == 0:
			t.Notes = append(t.Notes, fmt.Sprintf("clause %s (%s) is checked by properties only: %s", c.ID, c.Title, strings.Join(t.Properties[c.ID], ", ")))
		}
		if !traced[c.ID] && !t.Introduced[c.ID] {
			t.Notes = append(t.Notes, fmt.Sprintf("clause %s (%s) is named by no document item and not listed as introduced by the spec itself", c.ID, c.Title))
		}
	}
	return t
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

func (t traceMap) write(w io.Writer, gapsOnly bool) {
	if !gapsOnly {
		fmt.Fprintln(w, "# Documents → clauses → scenarios and properties")
		doc := ""
		for _, it := range t.Items {
			if it.Document != doc {
				doc = it.Document
				fmt.Fprintf(w, "\n## %s\n", doc)
			}
			fmt.Fprintf(w, "%s  %s\n", it.ID, it.Text)
			if it.GoAPI {
				fmt.Fprintln(w, "    (the Go API)")
			}
			for _, id := range it.Clauses {
				title := "(not in SPEC.md)"
				if c, ok := spec.Lookup(id); ok {
					title = c.Title
				}
				fmt.Fprintf(w, "    %-8s %s  [%d scenarios, %d properties]\n", id, title, len(t.Scenarios[id]), len(t.Properties[id]))
			}
			for _, id := range it.Cases {
				fmt.Fprintf(w, "      checked by %s\n", id)
			}
		}

		fmt.Fprintln(w, "\n# Clauses → documents, scenarios and properties")
		items := map[string][]string{}
		for _, it := range t.Items {
			for _, id := range it.Clauses {
				items[id] = append(items[id], it.ID)
			}
		}
		for _, c := range t.Clauses {
			from := strings.Join(items[c.ID], ", ")
			switch {
			case from == "" && t.Introduced[c.ID]:
				from = "introduced by the spec itself"
			case from == "":
				from = "no document item"
			}
			fmt.Fprintf(w, "\n%s — %s\n    documents:  %s\n", c.ID, c.Title, from)
			fmt.Fprintf(w, "    scenarios:  %s\n", listOrNone(t.Scenarios[c.ID]))
			fmt.Fprintf(w, "    properties: %s\n", listOrNone(t.Properties[c.ID]))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d document items, %d clauses; %d %s", len(t.Items), len(t.Clauses), len(t.Gaps), plural(len(t.Gaps), "gap", "gaps"))
	if len(t.Gaps) > 0 {
		fmt.Fprint(w, ":")
	}
	fmt.Fprintln(w)
	for _, g := range t.Gaps {
		fmt.Fprintf(w, "  GAP  %s\n", g)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(w, "  note %s\n", n)
	}
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// findUp looks for rel (a slash-separated path) in the working directory
// and its parents, so that `conform trace` and `conform replay` work
// anywhere in the repository.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("%s not found in this directory or its parents", rel)
		}
		dir = parent
	}
}

func trace(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform trace", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("f", "", "the traceability `FILE` (default: spec/traceability.md of the repository around the working directory)")
	gapsOnly := fs.Bool("gaps", false, "print only the gaps and notes, not the map")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: conform trace [-f FILE] [-gaps]

Prints the map from the source documents' items to the clauses that encode
them (spec/traceability.md) and from every clause to the scenarios tagged
with it and the properties that check it, then the gaps: a clause without a
scenario or property, a document item without a clause or a case, a name
that does not resolve. Exit status 1 when there is a gap.

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform trace: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	path := *file
	if path == "" {
		p, err := findUp("spec/traceability.md")
		if err != nil {
			fmt.Fprintf(stderr, "conform trace: %v: give the file with -f\n", err)
			return exitUsage
		}
		path = p
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "conform trace: %v\n", err)
		return exitUsage
	}
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "conform trace: %v\n", err)
		return exitFailures
	}
	t := buildTrace(filepath.Base(path), string(doc), spec.Clauses(), cases)
	if len(t.Items) == 0 {
		fmt.Fprintf(stderr, "conform trace: %s has no document items (rows \"| 0NN-… |\")\n", path)
		return exitUsage
	}
	t.write(stdout, *gapsOnly)
	if len(t.Gaps) > 0 {
		return exitFailures
	}
	return exitOK
}
