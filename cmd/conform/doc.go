package main

// conform doc: the spec site, generated from what conform embeds.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/convspec/convspec/internal/site"
)

func doc(args []string, stdout, stderr io.Writer) int {
	fs := subcommandFlags("conform doc", `usage: conform doc -o DIR

Writes the spec site: static HTML pages that need no server and no network.
Every clause is at an anchor named by its ID (DIR/spec.html#WIN-3), followed
by its scenarios, properties, golden cases, decisions and source items;
DIR/index.html lists the clauses by capability, and every page searches by
ID and words. With -compat, DIR/compat.html is the trimmer compatibility
page of the reports under the -compat directory (compat/*/report.json).

flags:
`, stderr)
	out := fs.String("o", "", "write the site into `DIR` (created if needed)")
	compat := fs.String("compat", "", "also write compat.html, the trimmer compatibility page, from `DIR`/*/report.json")
	if !parseFlagsOnly("conform doc", fs, args, stderr) {
		return exitUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "conform doc: -o DIR is required")
		return exitUsage
	}
	in, err := site.Embedded(moduleVersion())
	if err != nil {
		fmt.Fprintf(stderr, "conform doc: %v\n", err)
		return exitFailures
	}
	files, err := site.Write(*out, in)
	if err != nil {
		fmt.Fprintf(stderr, "conform doc: %v\n", err)
		return exitUsage
	}
	if *compat != "" {
		page, err := compatPage(*compat)
		if err != nil {
			fmt.Fprintf(stderr, "conform doc: -compat: %v\n", err)
			return exitUsage
		}
		if err := os.WriteFile(filepath.Join(*out, "compat.html"), page, 0o644); err != nil {
			fmt.Fprintf(stderr, "conform doc: %v\n", err)
			return exitFailures
		}
		files["compat.html"] = page
	}
	fmt.Fprintf(stdout, "wrote %d files to %s; open %s\n", len(files), *out, filepath.Join(*out, "index.html"))
	return exitOK
}
