package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
)

// sink is one report: a format and where it goes.
type sink struct {
	format string // text, json, junit, markdown
	name   string // the file, or "stdout" / "stderr"
	w      io.Writer
	file   *os.File // nil for stdout and stderr
	text   report.TextOptions
	html   report.HTMLOptions
}

func (sk *sink) render(run *report.Run) error {
	switch sk.format {
	case "text":
		return report.Text(sk.w, run, sk.text)
	case "json":
		return report.JSON(sk.w, run)
	case "junit":
		return report.JUnit(sk.w, run)
	case "markdown":
		return report.Markdown(sk.w, run)
	case "html":
		return report.HTML(sk.w, run, sk.html)
	}
	return fmt.Errorf("unknown report format %q", sk.format)
}

var formats = []string{"text", "json", "junit", "markdown", "none"}

// sinks plans the reports: -report FORMAT on stdout, and each of -json,
// -junit, -markdown and -html to its file ("-": stdout). At most one report goes
// to stdout; when a file flag takes it and -report was not given, the text
// report goes to stderr instead. Files are created now, so that a report
// that cannot be written fails the run before it starts.
func (s *settings) sinks(stdout, stderr io.Writer) ([]*sink, error) {
	if !slices.Contains(formats, s.report) {
		return nil, fmt.Errorf("-report %q: want one of %s", s.report, strings.Join(formats, ", "))
	}
	if err := s.distinctPaths(); err != nil {
		return nil, err
	}
	var out []*sink
	onStdout := "" // the flag whose report goes to stdout
	if s.report != "none" {
		onStdout = "-report " + s.report
		out = append(out, &sink{format: s.report, name: "stdout", w: stdout})
	}
	for _, f := range []struct{ format, path string }{{"json", s.jsonOut}, {"junit", s.junitOut}, {"markdown", s.mdOut}, {"html", s.htmlOut}} {
		switch f.path {
		case "":
			continue
		case "-":
			flagName := "-" + f.format + " -"
			switch {
			case onStdout == "-report text" && !s.set["report"]:
				out[0].w, out[0].name = stderr, "stderr" // the default text report steps aside
			case onStdout != "":
				closeSinks(out)
				return nil, fmt.Errorf("%s and %s both write to stdout: send one of them to a file", onStdout, flagName)
			}
			onStdout = flagName
			out = append(out, &sink{format: f.format, name: "stdout", w: stdout})
		default:
			file, err := os.Create(f.path)
			if err != nil {
				closeSinks(out)
				return nil, fmt.Errorf("-%s: %w", f.format, err)
			}
			out = append(out, &sink{format: f.format, name: f.path, w: file, file: file})
		}
	}
	for _, sk := range out {
		switch sk.format {
		case "text":
			sk.text = report.TextOptions{Verbose: s.verbose, Color: colorful(sk.w)}
		case "html":
			sk.html = report.HTMLOptions{SpecURL: s.specURL}
		}
	}
	return out, nil
}

// distinctPaths refuses two reports to one file, and a report to the
// baseline it is judged against: each would overwrite the other, and the
// run would exit 0 with one of them lost (D-52). Paths are compared once
// cleaned and made absolute, and as files when they exist already (a link,
// another spelling).
func (s *settings) distinctPaths() error {
	type output struct{ flag, path string }
	var seen []output
	for _, o := range []output{{"-baseline", s.baseline}, {"-json", s.jsonOut}, {"-junit", s.junitOut}, {"-markdown", s.mdOut}, {"-html", s.htmlOut}} {
		if o.path == "" || o.path == "-" {
			continue
		}
		for _, prev := range seen {
			if samePath(prev.path, o.path) {
				return fmt.Errorf("%s and %s both name %s: give each report its own file", prev.flag, o.flag, o.path)
			}
		}
		seen = append(seen, o)
	}
	return nil
}

func samePath(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	if errA == nil && errB == nil && absA == absB {
		return true
	}
	stA, errA := os.Stat(a)
	stB, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(stA, stB)
}

func closeSinks(sinks []*sink) error {
	var errs []error
	for _, sk := range sinks {
		if sk.file != nil {
			if err := sk.file.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// colorful says whether w is a terminal that wants colour: not when
// NO_COLOR is set to anything but the empty string (https://no-color.org)
// or TERM is dumb.
func colorful(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// writeReports renders run to every sink and closes them; it reports
// whether every report was written, and says on stderr why one was not
// (command names the command in the message).
func writeReports(command string, sinks []*sink, run *report.Run, stderr io.Writer) bool {
	ok := true
	for _, sk := range sinks {
		if err := sk.render(run); err != nil {
			fmt.Fprintf(stderr, "%s: writing the %s report to %s: %v\n", command, sk.format, sk.name, err)
			ok = false
		}
	}
	if err := closeSinks(sinks); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", command, err)
		ok = false
	}
	return ok
}

// outputs are what a run judges by and writes to: the -baseline file, read
// and checked against cases, and the report sinks. Nothing is opened when
// either is wrong; the caller closes the sinks.
func (s *settings) outputs(cases []result.Case, stdout, stderr io.Writer) (*report.BaselineFile, []*sink, error) {
	base, err := s.loadBaseline(cases)
	if err != nil {
		return nil, nil, err
	}
	sinks, err := s.sinks(stdout, stderr)
	if err != nil {
		return nil, nil, err
	}
	return base, sinks, nil
}

// loadBaseline reads the -baseline file, if one is named, and checks that
// every entry names one of cases: an entry for a case that does not exist
// would accept nothing and hide a typo.
func (s *settings) loadBaseline(cases []result.Case) (*report.BaselineFile, error) {
	if s.baseline == "" {
		return nil, nil
	}
	b, err := report.LoadBaseline(s.baseline)
	if err == nil {
		err = b.Check(cases)
	}
	if err != nil {
		return nil, fmt.Errorf("-baseline: %w", err)
	}
	return &report.BaselineFile{Path: s.baseline, Baseline: b}, nil
}
