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
	if !parseFlagsOnly("conform list", fs, args, stderr) {
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
	cases = selected(cases, caseID, opts.Run, opts.Skip)
	if len(cases) == 0 {
		fmt.Fprintf(stderr, "conform list: no case matches -run %q -skip %q\n", s.run, s.skip)
		return exitUsage
	}
	for _, c := range cases {
		formats := strings.Join(c.Formats, ",")
		if formats == "" {
			formats = "any"
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Kind, strings.Join(c.Clauses, ","), c.Level, formats)
	}
	return exitOK
}
