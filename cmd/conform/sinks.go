package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/report"
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
