package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/convspec/convspec/conformance/report"
)

// baseline is `conform baseline`: run the whole suite and write a baseline
// that accepts its failures.
func baseline(args []string, stdout, stderr io.Writer) int {
	fs, s := runFlags("conform baseline", stderr)
	strictFlag(fs, s)
	parallelFlag(fs, s)
	fs.StringVar(&s.out, "o", "", "write the baseline to `FILE` (- for stdout); entries already in FILE keep their reason and issue")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conform baseline -o FILE [flags] [-- CMD [ARGS...]]")
		fs.PrintDefaults()
	}
	command, ok := parseArgs("conform baseline", fs, s, args, stderr)
	if !ok {
		return exitUsage
	}
	switch {
	case s.out == "":
		fmt.Fprintln(stderr, "conform baseline: -o FILE is required")
		return exitUsage
	case s.run != "" || s.skip != "":
		fmt.Fprintln(stderr, "conform baseline: a baseline needs a full run: drop -run and -skip")
		return exitUsage
	}
	opts, err := s.options()
	if err != nil {
		fmt.Fprintf(stderr, "conform baseline: %v\n", err)
		return exitUsage
	}
	var previous *report.Baseline
	if s.out != "-" {
		if _, err := os.Stat(s.out); err == nil {
			if previous, err = report.LoadBaseline(s.out); err != nil {
				fmt.Fprintf(stderr, "conform baseline: %v; move it away to write a new one\n", err)
				return exitUsage
			}
		}
	}
	text := stdout
	if s.out == "-" {
		text = stderr
	}
	rep := s.execute(opts, command, stderr)
	if rep == nil {
		return exitUsage
	}
	rep.Strict = s.strict
	rep.Cases = report.Judge(rep.results, nil, s.strict)
	for i := range rep.Cases {
		rep.Cases[i].Reproduce = s.reproduce(rep.Cases[i], command)
	}
	if err := report.Text(text, &rep.Run, report.TextOptions{Verbose: s.verbose, Color: colorful(text)}); err != nil {
		fmt.Fprintf(stderr, "conform baseline: %v\n", err)
		return exitUsage
	}
	switch {
	case rep.StartError != "":
		return exitNoImpl
	case rep.Interrupted:
		fmt.Fprintln(stderr, "conform baseline: the run was interrupted: no baseline written")
		return exitFailures
	case rep.RestartLimit:
		fmt.Fprintln(stderr, "conform baseline: the restart limit was reached, so the run is partial: no baseline written (raise -max-restarts)")
		return exitFailures
	}
	b := report.NewBaseline(rep.Implementation.Name, rep.results, previous, s.strict)
	if err := writeBaseline(s.out, b, stdout); err != nil {
		fmt.Fprintf(stderr, "conform baseline: %v\n", err)
		return exitUsage
	}
	todo := 0
	for _, e := range b.Entries {
		if e.Reason == report.TODOReason {
			todo++
		}
	}
	where := s.out
	if where == "-" {
		where = "stdout"
	}
	fmt.Fprintf(stderr, "conform baseline: wrote %d %s to %s", len(b.Entries), plural(len(b.Entries), "entry", "entries"), where)
	if todo > 0 {
		fmt.Fprintf(stderr, "; replace %q in %d of them with the reason the deviation is accepted", report.TODOReason, todo)
	}
	fmt.Fprintln(stderr)
	return exitOK
}

// writeBaseline writes b to path ("-": stdout) atomically: a reader never
// sees half a file.
func writeBaseline(path string, b *report.Baseline, stdout io.Writer) error {
	if path == "-" {
		return b.Write(stdout)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".conform-baseline-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := b.Write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
