package main

// conform doc: the spec site, generated from what conform embeds.

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/convspec/convspec/internal/site"
)

func doc(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform doc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the site into `DIR` (created if needed)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: conform doc -o DIR

Writes the spec site: static HTML pages that need no server and no network.
Every clause is at an anchor named by its ID (DIR/spec.html#WIN-3), followed
by its scenarios, properties, golden cases, decisions and source items;
DIR/index.html lists the clauses by capability, and every page searches by
ID and words.

flags:
`)
		fs.PrintDefaults()
	}
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
	fmt.Fprintf(stdout, "wrote %d files to %s; open %s\n", len(files), *out, filepath.Join(*out, "index.html"))
	return exitOK
}
