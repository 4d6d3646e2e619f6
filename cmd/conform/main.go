// Command conform runs the convspec conformance suite.
//
//	conform [flags]                     the suite against the built-in reference
//	conform [flags] -- CMD [ARGS…]      the suite against an external implementation
//	conform baseline -o FILE [flags] [-- CMD [ARGS…]]
//	                                    write a baseline accepting the current failures
//	conform serve [-mutant NAME]        the reference (or a faulty variant) as a protocol v1 server
//	conform list [-run RE] [-skip RE]   every case ID with its kind and clauses
//	conform mutants                     the catalogue of faulty variants
//	conform replay [-dir DIR] [-- CMD [ARGS…]]
//	                                    run the golden vectors, without Gherkin
//	conform trace [-f FILE] [-gaps]     the document → clause → case map and its gaps
//
// Exit status: 0 when nothing failed (or only what the baseline expects),
// 1 when a case failed (with -strict: or was unsupported), a baseline entry
// is stale, the restart limit was reached or the run was interrupted, 2 for
// a usage error, 3 when the implementation could not be started or failed
// the handshake. The status is conform's own: never the implementation's,
// never a combination.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// Exit codes; each means one thing (report.Exit*).
const (
	exitOK       = report.ExitOK
	exitFailures = report.ExitFailures
	exitUsage    = report.ExitUsage
	exitNoImpl   = report.ExitNoImpl
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "serve":
			return serve(args[1:], stdin, stdout, stderr)
		case "list":
			return list(args[1:], stdout, stderr)
		case "mutants":
			return listMutants(stdout)
		case "trace":
			return traceCommand(args[1:], stdout, stderr)
		case "replay":
			return replay(args[1:], stdout, stderr)
		case "baseline":
			return baseline(args[1:], stdout, stderr)
		case "help", "-h", "-help", "--help":
			usage(stdout)
			return exitOK
		}
	}
	return conform(args, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  conform [flags]                  run the suite against the built-in reference
  conform [flags] -- CMD [ARGS...] run the suite against an external implementation
  conform baseline -o FILE [flags] [-- CMD [ARGS...]]
                                   run the whole suite and write a baseline accepting its failures
  conform serve [-mutant NAME]     serve the reference (or a faulty variant) on stdin/stdout
  conform list [-run RE] [-skip RE] print every case ID with its kind and clauses
  conform mutants                  print the catalogue of faulty variants
  conform replay [-dir DIR] [flags] [-- CMD [ARGS...]]
                                   replay the golden case files, comparing each response with the reference's
  conform trace [-f FILE] [-gaps]  print the map of document items to clauses to cases, and its gaps

flags:
`)
	fs, _ := conformFlags(io.Discard)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit status: 0 nothing failed (or only what the baseline expects), 1 a case failed,
a baseline entry is stale, the restart limit was reached or the run was interrupted,
2 usage error, 3 the implementation could not be started or failed the handshake
`)
}

type settings struct {
	run, skip    string
	seed         uint64
	checks       int
	timeout      time.Duration
	startTimeout time.Duration
	maxRestarts  int
	maxLine      int
	verbose      bool
	mutant       string
	strict       bool // conform and conform baseline only

	// conform only
	baseline                 string
	report                   string
	jsonOut, junitOut, mdOut string
	// baseline only
	out string

	// set: the flags given on the command line
	set map[string]bool
}

// runFlags are the flags of every command that runs the suite.
func runFlags(name string, stderr io.Writer) (*flag.FlagSet, *settings) {
	s := &settings{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&s.run, "run", "", "run only the cases whose ID matches this regular expression `RE`")
	fs.StringVar(&s.skip, "skip", "", "skip the cases whose ID matches this regular expression `RE`")
	fs.Uint64Var(&s.seed, "seed", 0, "seed for the properties' generators (0: random, printed in the report); the same seed replays the run")
	fs.IntVar(&s.checks, "checks", 100, "generated cases per property")
	fs.DurationVar(&s.timeout, "timeout", target.DefaultCallTimeout, "time limit for each request to the implementation")
	fs.DurationVar(&s.startTimeout, "start-timeout", target.DefaultStartTimeout, "time limit for starting the implementation and its handshake")
	fs.IntVar(&s.maxRestarts, "max-restarts", target.DefaultMaxRestarts, "how often a failed implementation is restarted before the run stops (0: never)")
	fs.IntVar(&s.maxLine, "max-line", target.DefaultMaxLineBytes, "longest output line accepted from the implementation, in bytes")
	fs.BoolVar(&s.verbose, "v", false, "list every case, and the details of expected failures")
	fs.StringVar(&s.mutant, "mutant", "", "run against the built-in faulty variant `NAME` instead of the reference (see conform mutants)")
	return fs, s
}

// strictFlag is -strict, of the commands that judge a run.
func strictFlag(fs *flag.FlagSet, s *settings) {
	fs.BoolVar(&s.strict, "strict", false, "an unsupported case fails the run unless the baseline lists it (spec/decisions.md D-33)")
}

func conformFlags(stderr io.Writer) (*flag.FlagSet, *settings) {
	fs, s := runFlags("conform", stderr)
	strictFlag(fs, s)
	fs.StringVar(&s.baseline, "baseline", "", "baseline `FILE` of accepted deviations (see `conform baseline`)")
	fs.StringVar(&s.report, "report", "text", "`FORMAT` of the report on stdout: text, json, junit, markdown or none")
	fs.StringVar(&s.jsonOut, "json", "", "also write the JSON report to `FILE` (- for stdout)")
	fs.StringVar(&s.junitOut, "junit", "", "also write the JUnit XML report to `FILE` (- for stdout)")
	fs.StringVar(&s.mdOut, "markdown", "", "also write the Markdown report to `FILE` (- for stdout), e.g. \"$GITHUB_STEP_SUMMARY\"")
	return fs, s
}

// parse splits args at "--" and parses the flags before it.
func parse(fs *flag.FlagSet, s *settings, args []string) (command []string, err error) {
	for i, a := range args {
		if a == "--" {
			args, command = args[:i], args[i+1:]
			break
		}
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	s.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { s.set[f.Name] = true })
	switch {
	case fs.NArg() > 0:
		return nil, fmt.Errorf("unexpected argument %q (put the implementation's command after --)", fs.Arg(0))
	case command != nil && len(command) == 0:
		return nil, errors.New("no command after --")
	case command != nil && s.mutant != "":
		return nil, errors.New("-mutant and a command after -- exclude each other")
	}
	return command, nil
}

func conform(args []string, stdout, stderr io.Writer) int {
	fs, s := conformFlags(stderr)
	fs.Usage = func() { usage(stderr) }
	command, err := parse(fs, s, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) && !isFlagError(err) {
			fmt.Fprintf(stderr, "conform: %v\n", err)
		}
		return exitUsage
	}
	opts, err := s.options()
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	if err := checkSelection(cases, opts, s); err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	var base *report.BaselineFile
	if s.baseline != "" {
		b, err := report.LoadBaseline(s.baseline)
		if err == nil {
			err = b.Check(cases)
		}
		if err != nil {
			fmt.Fprintf(stderr, "conform: -baseline: %v\n", err)
			return exitUsage
		}
		base = &report.BaselineFile{Path: s.baseline, Baseline: b}
	}
	sinks, err := s.sinks(stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	defer closeSinks(sinks)

	rep := s.execute(opts, command, stderr)
	if rep == nil {
		return exitUsage
	}
	rep.Baseline, rep.Strict = base, s.strict
	if base != nil && rep.Implementation != nil && base.Implementation != "" && base.Implementation != rep.Implementation.Name {
		fmt.Fprintf(stderr, "conform: note: the baseline was written for %q, the implementation is %q\n", base.Implementation, rep.Implementation.Name)
	}
	var accepted *report.Baseline
	if base != nil {
		accepted = base.Baseline
	}
	rep.Cases = report.Judge(rep.results, accepted, s.strict)
	for i := range rep.Cases {
		rep.Cases[i].Reproduce = s.reproduce(rep.Cases[i], command)
	}
	code := rep.ExitCode()
	for _, sk := range sinks {
		if err := sk.render(&rep.Run); err != nil {
			fmt.Fprintf(stderr, "conform: writing the %s report to %s: %v\n", sk.format, sk.name, err)
			code = exitUsage
		}
	}
	if err := closeSinks(sinks); err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		code = exitUsage
	}
	return code
}

// runReport is a run with its raw results, before they are judged.
type runReport struct {
	report.Run
	results []runner.Result
}

// execute starts the implementation and runs the suite. It returns nil
// after a usage error it has reported; a run whose implementation could
// not be started has StartError set. Every process it started is gone when
// it returns.
func (s *settings) execute(opts runner.Options, command []string, stderr io.Writer) *runReport {
	if opts.Seed == 0 {
		opts.Seed = runner.NewSeed()
	}
	rep := &runReport{Run: report.Run{
		Command: command, Mutant: s.mutant, Seed: opts.Seed, Checks: s.checks,
		RunPattern: s.run, SkipPattern: s.skip, Started: time.Now(),
	}}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tg, err := s.target(ctx, command)
	switch {
	case err != nil && ctx.Err() != nil:
		fmt.Fprintln(stderr, "conform: interrupted while starting the implementation")
		rep.Interrupted = true
		rep.Duration = time.Since(rep.Started)
		return rep
	case err != nil:
		msg := err.Error()
		if f := (*target.Failure)(nil); errors.As(err, &f) {
			msg = f.Report() // with the last lines of stderr
		}
		fmt.Fprintf(stderr, "conform: the implementation could not be started: %s\n", msg)
		rep.StartError = msg
		rep.Duration = time.Since(rep.Started)
		return rep
	}
	defer tg.Close()
	info := tg.Info()
	rep.Implementation = &info

	sum, err := runner.RunAll(ctx, tg, opts)
	tg.Close() // before the reports: no process is left once they are out
	rep.Duration = time.Since(rep.Started)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return nil
	}
	rep.results, rep.Interrupted, rep.RestartLimit = sum.Results, sum.Interrupted, sum.RestartLimit
	if sum.Interrupted {
		fmt.Fprintf(stderr, "conform: interrupted; %d cases had completed\n", len(sum.Results))
	}
	if sum.RestartLimit {
		fmt.Fprintf(stderr, "conform: restart limit reached: the implementation failed more often than -max-restarts %d allows; the remaining cases were not run\n", s.maxRestarts)
	}
	return rep
}

func (s *settings) options() (runner.Options, error) {
	opts := runner.Options{Seed: s.seed, Checks: s.checks}
	var err error
	if s.run != "" {
		if opts.Run, err = regexp.Compile(s.run); err != nil {
			return opts, fmt.Errorf("-run: %w", err)
		}
	}
	if s.skip != "" {
		if opts.Skip, err = regexp.Compile(s.skip); err != nil {
			return opts, fmt.Errorf("-skip: %w", err)
		}
	}
	switch {
	case s.checks <= 0:
		return opts, fmt.Errorf("-checks must be positive, got %d", s.checks)
	case s.timeout <= 0 || s.startTimeout <= 0:
		return opts, errors.New("-timeout and -start-timeout must be positive")
	case s.maxRestarts < 0:
		return opts, fmt.Errorf("-max-restarts must be 0 or more, got %d", s.maxRestarts)
	case s.maxLine <= 0:
		return opts, fmt.Errorf("-max-line must be positive, got %d", s.maxLine)
	}
	if s.mutant != "" {
		if _, ok := mutants.Lookup(s.mutant); !ok {
			return opts, fmt.Errorf("no mutant %q (see `conform mutants`)", s.mutant)
		}
	}
	return opts, nil
}

// checkSelection refuses a -run or -skip that leaves nothing to run: a
// silent zero-case run would pass a CI gate by accident.
func checkSelection(cases []runner.Case, opts runner.Options, s *settings) error {
	for _, c := range cases {
		if (opts.Run == nil || opts.Run.MatchString(c.ID)) && (opts.Skip == nil || !opts.Skip.MatchString(c.ID)) {
			return nil
		}
	}
	return fmt.Errorf("no case matches -run %q -skip %q (see `conform list`)", s.run, s.skip)
}

func (s *settings) target(ctx context.Context, command []string) (target.Target, error) {
	if command == nil {
		engine := server.Engine(server.Reference{})
		if s.mutant != "" {
			m, _ := mutants.Lookup(s.mutant) // checked by options
			engine = m.Engine
		}
		return inprocess.New(engine)
	}
	maxRestarts := s.maxRestarts
	if maxRestarts == 0 {
		maxRestarts = -1 // never: ProcessConfig reads 0 as the default
	}
	return target.StartProcess(ctx, target.ProcessConfig{
		Command:      command,
		StartTimeout: s.startTimeout,
		CallTimeout:  s.timeout,
		MaxRestarts:  maxRestarts,
		MaxLineBytes: s.maxLine,
	})
}

// reproduce is the command line that reruns one failing case: its ID, the
// failing seed of a property, -strict for an unsupported case, and the
// flags that shape how the implementation is supervised.
func (s *settings) reproduce(k report.Case, command []string) string {
	if !k.Fails() || k.NotRun {
		return ""
	}
	parts := []string{"conform", "-run", shellQuote("^" + regexp.QuoteMeta(k.ID) + "$")}
	if k.Outcome == runner.Unsupported {
		parts = append(parts, "-strict") // it fails only with it
	}
	if k.Kind == runner.Property && k.Seed != 0 {
		parts = append(parts, "-seed", fmt.Sprint(k.Seed))
	}
	for _, name := range []string{"checks", "timeout", "start-timeout", "max-restarts", "max-line"} {
		if s.set[name] && !(name == "checks" && k.Kind != runner.Property) {
			parts = append(parts, "-"+name, shellQuote(flagValue(s, name)))
		}
	}
	if s.mutant != "" {
		parts = append(parts, "-mutant", shellQuote(s.mutant))
	}
	if command != nil {
		parts = append(parts, "--")
		for _, c := range command {
			parts = append(parts, shellQuote(c))
		}
	}
	return strings.Join(parts, " ")
}

func flagValue(s *settings, name string) string {
	switch name {
	case "checks":
		return fmt.Sprint(s.checks)
	case "timeout":
		return s.timeout.String()
	case "start-timeout":
		return s.startTimeout.String()
	case "max-restarts":
		return fmt.Sprint(s.maxRestarts)
	case "max-line":
		return fmt.Sprint(s.maxLine)
	}
	return ""
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isFlagError says whether the flag package has already reported err.
func isFlagError(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "flag provided but not defined") || strings.HasPrefix(msg, "invalid value") ||
		strings.HasPrefix(msg, "flag needs an argument") || strings.HasPrefix(msg, "bad flag syntax") ||
		strings.HasPrefix(msg, "invalid boolean")
}

// ---------------------------------------------------------------------------
// Reports

// sink is one report: a format and where it goes.
type sink struct {
	format string // text, json, junit, markdown
	name   string // the file, or "stdout" / "stderr"
	w      io.Writer
	file   *os.File // nil for stdout and stderr
	text   report.TextOptions
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
	}
	return fmt.Errorf("unknown report format %q", sk.format)
}

var formats = []string{"text", "json", "junit", "markdown", "none"}

// sinks plans the reports: -report FORMAT on stdout, and each of -json,
// -junit and -markdown to its file ("-": stdout). At most one report goes
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
	for _, f := range []struct{ format, path string }{{"json", s.jsonOut}, {"junit", s.junitOut}, {"markdown", s.mdOut}} {
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
		if sk.format == "text" {
			sk.text = report.TextOptions{Verbose: s.verbose, Color: colorful(sk.w)}
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

// ---------------------------------------------------------------------------
// conform baseline

func baseline(args []string, stdout, stderr io.Writer) int {
	fs, s := runFlags("conform baseline", stderr)
	strictFlag(fs, s)
	fs.StringVar(&s.out, "o", "", "write the baseline to `FILE` (- for stdout); entries already in FILE keep their reason and issue")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conform baseline -o FILE [flags] [-- CMD [ARGS...]]")
		fs.PrintDefaults()
	}
	command, err := parse(fs, s, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) && !isFlagError(err) {
			fmt.Fprintf(stderr, "conform baseline: %v\n", err)
		}
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

// ---------------------------------------------------------------------------
// serve, list, mutants

func serve(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	mutant := fs.String("mutant", "", "serve a faulty variant instead of the reference (see `conform mutants`)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	engine := server.Engine(server.Reference{})
	if *mutant != "" {
		m, ok := mutants.Lookup(*mutant)
		if !ok {
			fmt.Fprintf(stderr, "conform serve: no mutant %q (see `conform mutants`)\n", *mutant)
			return exitUsage
		}
		engine = m.Engine
	}
	if err := server.Serve(context.Background(), server.NewHandler(engine), stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "conform serve: %v\n", err)
		return exitFailures
	}
	return exitOK
}

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
		if (opts.Run == nil || opts.Run.MatchString(c.ID)) && (opts.Skip == nil || !opts.Skip.MatchString(c.ID)) {
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", c.ID, c.Kind, strings.Join(c.Clauses, ","))
			n++
		}
	}
	if n == 0 {
		fmt.Fprintf(stderr, "conform list: no case matches -run %q -skip %q\n", s.run, s.skip)
		return exitUsage
	}
	return exitOK
}

func listMutants(stdout io.Writer) int {
	for _, m := range mutants.All() {
		fmt.Fprintf(stdout, "%-24s %-12s %s\n", m.Name, strings.Join(m.Clauses, ","), m.Bug)
	}
	return exitOK
}
