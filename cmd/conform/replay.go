package main

// conform replay: the golden vectors (spec/golden.md) against an
// implementation, without Gherkin.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/convspec/convspec"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/golden"
	"github.com/convspec/convspec/spec"
)

// embeddedCases names the golden cases built into conform where a
// directory would be named.
const embeddedCases = "the built-in golden cases"

func replay(args []string, stdout, stderr io.Writer) int {
	s := &settings{checks: 1} // -checks does not apply: no properties are replayed
	dir := ""
	fs := flag.NewFlagSet("conform replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&dir, "dir", "", "read the golden case files (spec/golden.md) from `DIR` instead of those built into conform")
	fs.StringVar(&s.run, "run", "", "replay only the cases whose ID matches this regular expression")
	fs.StringVar(&s.skip, "skip", "", "skip the cases whose ID matches this regular expression")
	supervisionFlags(fs, s)
	fs.BoolVar(&s.verbose, "v", false, "list every case, not only those that fail")
	fs.StringVar(&s.mutant, "mutant", "", "replay against a built-in faulty variant instead of the reference (see `conform mutants`)")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: conform replay [-dir DIR] [-run RE] [-skip RE] [flags] [-- CMD [ARGS...]]

Sends the requests of every golden case file to the implementation (the
built-in reference without a command) and compares each response with the
reference's, as spec/golden.md describes. Properties are not replayed.

flags:
`)
		fs.PrintDefaults()
	}
	command, ok := parseArgs("conform replay", fs, s, args, stderr)
	if !ok {
		return exitUsage
	}
	var opts golden.Options
	var err error
	for _, f := range []struct {
		name, re string
		dst      **regexp.Regexp
	}{{"run", s.run, &opts.Run}, {"skip", s.skip, &opts.Skip}} {
		if f.re == "" {
			continue
		}
		if *f.dst, err = regexp.Compile(f.re); err != nil {
			fmt.Fprintf(stderr, "conform replay: -%s: %v\n", f.name, err)
			return exitUsage
		}
	}
	if _, err := s.options(); err != nil { // checks the supervision flags and -mutant
		fmt.Fprintf(stderr, "conform replay: %v\n", err)
		return exitUsage
	}
	var files []golden.File
	if dir == "" {
		dir = embeddedCases
		files, err = golden.LoadFS(convspec.GoldenCases(), dir)
	} else {
		files, err = golden.Load(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "conform replay: %v\n", err)
		return exitUsage
	}
	n := len(selected(files, func(f golden.File) string { return f.ID }, opts.Run, opts.Skip))
	if n == 0 {
		fmt.Fprintf(stderr, "conform replay: no case in %s matches -run %q -skip %q\n", dir, s.run, s.skip)
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	tg, err := s.target(ctx, command)
	if err != nil {
		fmt.Fprintf(stderr, "conform replay: the implementation could not be started: %v\n", err)
		return exitNoImpl
	}
	info := tg.Info()
	results := golden.Replay(ctx, tg, files, opts)
	tg.Close()
	interrupted := ctx.Err() != nil

	// What the implementation declared and answered goes through the text
	// report's escaping layer (D-52).
	fmt.Fprintf(stdout, "convspec golden replay: %s\n", report.EscapeTextLine(fmt.Sprintf("%s %s (capabilities: %s)", info.Name, info.Version, strings.Join(info.Capabilities, ", "))))
	fmt.Fprintf(stdout, "cases from %s\n", dir)
	counts := map[result.Outcome]int{}
	for _, r := range results {
		counts[r.Outcome]++
		switch {
		case r.Outcome.IsFailure() || r.Outcome == result.Unsupported:
			fmt.Fprintf(stdout, "--- %s %s (%s)\n", strings.ToUpper(strings.ReplaceAll(string(r.Outcome), "_", " ")), r.ID, r.Path)
			for _, id := range r.Clauses {
				if c, ok := spec.Lookup(id); ok {
					fmt.Fprintf(stdout, "    %s — %s\n", c.ID, c.Title)
				}
			}
			fmt.Fprintf(stdout, "    %s\n", strings.ReplaceAll(report.EscapeText(r.Detail), "\n", "\n    "))
		case s.verbose && r.Outcome == result.NotApplicable:
			fmt.Fprintf(stdout, "n/a  %s (%s)\n", r.ID, report.EscapeTextLine(r.Detail))
		case s.verbose:
			note := ""
			if r.Skipped > 0 {
				note = fmt.Sprintf(" (%d %s of undeclared capabilities skipped)", r.Skipped, plural(r.Skipped, "step", "steps"))
			}
			fmt.Fprintf(stdout, "ok   %s%s\n", r.ID, note)
		}
	}
	failed := 0
	for o, k := range counts {
		if o.IsFailure() {
			failed += k
		}
	}
	fmt.Fprintf(stdout, "%d passed, %d failed, %d unsupported, %d not applicable (%d cases, %s)\n",
		counts[result.Passed], failed, counts[result.Unsupported], counts[result.NotApplicable], len(results), time.Since(started).Round(time.Millisecond))
	switch {
	case interrupted:
		fmt.Fprintf(stderr, "conform replay: interrupted; %d of %d cases had completed\n", len(results), n)
		return exitFailures
	case failed > 0:
		fmt.Fprintln(stdout, "FAIL")
		return exitFailures
	}
	fmt.Fprintln(stdout, "PASS")
	return exitOK
}
