package main

// conform trace: the document → clause → scenario/property map of
// spec/traceability.md, joined with the clause tags of the scenarios and
// the clause lists of the properties, and its gaps. The map and its rules
// are package trace's (trace.Build); this file finds the inputs and
// prints it.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/trace"
	"github.com/convspec/convspec/spec"
)

// writeTrace prints the trace (trace.Build): the map, unless gapsOnly,
// then the gaps and the notes.
func writeTrace(w io.Writer, t trace.Trace, gapsOnly bool) {
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

// traceCases lists every scenario and property as the trace needs them.
func traceCases() ([]trace.Case, error) { return runner.TraceCases(runner.Options{}) }

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

func traceCommand(args []string, stdout, stderr io.Writer) int {
	fs := subcommandFlags("conform trace", `usage: conform trace [-f FILE] [-gaps]

Prints the map from the source documents' items to the clauses that encode
them (spec/traceability.md) and from every clause to the scenarios tagged
with it and the properties that check it, then the gaps: a clause without a
scenario or property, a document item without a clause or a case, a name
that does not resolve. Exit status 1 when there is a gap.

flags:
`, stderr)
	file := fs.String("f", "", "read the traceability map from `FILE` instead of the spec/traceability.md built into conform")
	gapsOnly := fs.Bool("gaps", false, "print only the gaps and notes, not the map")
	if !parseFlagsOnly("conform trace", fs, args, stderr) {
		return exitUsage
	}
	path, doc := "spec/traceability.md", []byte(spec.Traceability())
	if *file != "" {
		path = *file
		var err error
		if doc, err = os.ReadFile(path); err != nil {
			fmt.Fprintf(stderr, "conform trace: %v\n", err)
			return exitUsage
		}
	}
	cases, err := traceCases()
	if err != nil {
		fmt.Fprintf(stderr, "conform trace: %v\n", err)
		return exitFailures
	}
	t := trace.Build(filepath.Base(path), string(doc), spec.Clauses(), cases)
	if len(t.Items) == 0 {
		fmt.Fprintf(stderr, "conform trace: %s has no document items (rows \"| 0NN-… |\")\n", path)
		return exitUsage
	}
	writeTrace(stdout, t, *gapsOnly)
	if len(t.Gaps) > 0 {
		return exitFailures
	}
	return exitOK
}
