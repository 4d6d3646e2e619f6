package main

// conform check: recorded provider requests judged against SPEC.md
// section 8e, without an adapter (D-57).

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/internal/check"
)

func checkCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := &settings{}
	var format, body, groupBy string
	var maxConvs, examples int
	fs := flag.NewFlagSet("conform check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&format, "format", "detect", "`FORMAT` of every request: openai, anthropic, or detect (per request, from its body)")
	fs.StringVar(&body, "body", "", "JSON `POINTER` to the request body within each record, for logs that wrap it (a string there is parsed as JSON); default: the record is the body")
	fs.StringVar(&groupBy, "group-by", "", "JSON `POINTER` to the conversation key within each record (e.g. /metadata/user_id); default: a request continues the conversation whose previous request shares the most messages with it")
	fs.IntVar(&maxConvs, "max-conversations", check.DefaultMaxConversations, "follow at most `N` conversations at once; the one used least recently is forgotten")
	fs.IntVar(&examples, "examples", check.DefaultExamples, "list at most `N` findings per clause")
	reportFlags(fs, s, "baseline `FILE` of accepted findings, by case (check/ACC-5), as for a run")
	fs.BoolVar(&s.verbose, "v", false, "list every case, not only those that fail")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: conform check [flags] FILE...

Reads recorded provider requests — JSON Lines (one request body a line), a
JSON array of bodies, or a HAR file — and reports each request OpenAI or
Anthropic would refuse, and each trim between two requests of one
conversation that broke an invariant (SPEC.md section 8e, ACC-1 – ACC-13),
with the message index and a one-line fix. FILE - reads stdin. No adapter
is needed. Exit status as for a run: 0 when nothing failed (or only what
the baseline accepts), 1 when a finding fails, 2 for a usage error or a
file that cannot be read.

flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	s.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { s.set[f.Name] = true })
	opts := check.Options{MaxConversations: maxConvs, Examples: examples}
	switch format {
	case "detect":
	case check.FormatOpenAI, check.FormatAnthropic:
		opts.Format = format
	default:
		fmt.Fprintf(stderr, "conform check: -format %q: want openai, anthropic or detect\n", format)
		return exitUsage
	}
	var err error
	if body != "" {
		if opts.Body, err = check.ParsePointer(body); err != nil {
			fmt.Fprintf(stderr, "conform check: -body: %v\n", err)
			return exitUsage
		}
	}
	if s.set["group-by"] {
		if opts.GroupBy, err = check.ParsePointer(groupBy); err != nil {
			fmt.Fprintf(stderr, "conform check: -group-by: %v\n", err)
			return exitUsage
		}
	}
	files := fs.Args()
	if len(files) == 0 {
		fmt.Fprintln(stderr, "conform check: no FILE: name the recorded requests to check (- for stdin)")
		return exitUsage
	}
	base, sinks, err := s.outputs(check.Cases(), stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "conform check: %v\n", err)
		return exitUsage
	}
	defer closeSinks(sinks)

	run := report.Run{Started: time.Now(), Checked: &report.Checked{Files: files}, Baseline: base}
	c := check.New(opts)
	progress := newProgress(stderr)
	for _, name := range files {
		if err := checkFile(c, name, stdin, progress); err != nil {
			progress.done()
			fmt.Fprintf(stderr, "conform check: %v\n", err)
			return exitUsage
		}
	}
	progress.done()
	run.Duration = time.Since(run.Started)
	run.Checked.Requests, run.Checked.Skipped, run.Checked.Unreadable = c.Requests, c.Skipped, c.Unreadable
	var accepted *report.Baseline
	if base != nil {
		accepted = base.Baseline
	}
	run.Cases = report.Judge(c.Results(), accepted, false)
	if !writeReports("conform check", sinks, &run, stderr) {
		return exitUsage
	}
	return run.ExitCode()
}

// checkFile streams one file (- for stdin) through the checker.
func checkFile(c *check.Checker, name string, stdin io.Reader, p *progress) error {
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	return check.Read(name, r, func(rec check.Record) {
		c.Add(rec)
		p.tick(c.Requests+c.Skipped+c.Unreadable, name)
	})
}

// progress reports how far a long check has come, on a terminal only:
// a log of a million requests takes a while, and a redirected stderr
// wants no carriage returns.
type progress struct {
	w       io.Writer
	on      bool
	last    time.Time
	written bool
}

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	on := false
	if ok {
		st, err := f.Stat()
		on = err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return &progress{w: w, on: on, last: time.Now()}
}

func (p *progress) tick(records int, file string) {
	if !p.on || records%1024 != 0 || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last = time.Now()
	fmt.Fprintf(p.w, "\rconform check: %d records read (%s)…", records, file)
	p.written = true
}

func (p *progress) done() {
	if p.written {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.written = false
	}
}
