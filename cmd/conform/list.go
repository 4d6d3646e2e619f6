package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/convspec/convspec/internal/runner"
)

// list is `conform list`: every selected case ID with its kind, clauses,
// level and provider formats (D-42), tab-separated; "any" for a case whose
// messages use no provider format (it runs for every implementation).
func list(args []string, stdout, stderr io.Writer) int {
	fs, s := runFlags("conform list", stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform list: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	opts, err := s.options()
	if err != nil {
		fmt.Fprintf(stderr, "conform list: %v\n", err)
		return exitUsage
	}
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "conform list: %v\n", err)
		return exitFailures
	}
	n := 0
	for _, c := range cases {
		if selected(opts.Run, opts.Skip, c.ID) {
			formats := strings.Join(c.Formats, ",")
			if formats == "" {
				formats = "any"
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Kind, strings.Join(c.Clauses, ","), c.Level, formats)
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(stderr, "conform list: no case matches -run %q -skip %q\n", s.run, s.skip)
		return exitUsage
	}
	return exitOK
}
