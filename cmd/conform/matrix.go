package main

// conform matrix: implementations × capabilities and clauses, from JSON
// reports.

import (
	"fmt"
	"io"
	"os"

	"github.com/convspec/convspec/conformance/report"
)

func matrix(args []string, stdout, stderr io.Writer) int {
	fs := subcommandFlags("conform matrix", `usage: conform matrix -o FILE REPORT.json [REPORT.json...]

Compares implementations: from the JSON reports of their runs (conform
-json), writes one HTML page with a table of capabilities and one of
clauses, a column per implementation, each cell linking to its first
failure; a click on a header sorts by it.

flags:
`, stderr)
	out := fs.String("o", "", "write the matrix, one self-contained HTML file, to `FILE` (- for stdout)")
	specURL := fs.String("spec-url", "", "link clauses to the spec site's spec.html at `URL` (see conform doc); default: SPEC.md on GitHub")
	// Flags may come before or after the reports.
	var files []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			return exitUsage
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	switch {
	case *out == "":
		fmt.Fprintln(stderr, "conform matrix: -o FILE is required")
		return exitUsage
	case len(files) == 0:
		fmt.Fprintln(stderr, "conform matrix: name at least one JSON report (conform -json FILE)")
		return exitUsage
	}
	var reports []report.MatrixReport
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintf(stderr, "conform matrix: %v\n", err)
			return exitUsage
		}
		reports = append(reports, report.MatrixReport{Name: f, Data: b})
	}
	w := stdout
	var file *os.File
	if *out != "-" {
		var err error
		if file, err = os.Create(*out); err != nil {
			fmt.Fprintf(stderr, "conform matrix: %v\n", err)
			return exitUsage
		}
		w = file
	}
	err := report.Matrix(w, reports, report.HTMLOptions{SpecURL: *specURL})
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "conform matrix: %v\n", err)
		if file != nil {
			os.Remove(*out)
		}
		return exitUsage
	}
	if file != nil {
		fmt.Fprintf(stdout, "wrote the matrix of %d %s to %s\n", len(reports), plural(len(reports), "report", "reports"), *out)
	}
	return exitOK
}
