// Command conform runs the convspec conformance suite.
//
//	conform [flags]                  the suite against the built-in reference
//	conform [flags] -- CMD [ARGS…]   the suite against an external implementation
//	conform serve [-mutant NAME]     the reference (or a faulty variant) as a protocol v1 server
//	conform list                     every case ID with its clauses
//	conform mutants                  the catalogue of faulty variants
//
// Exit status: 0 when nothing failed, 1 when a case failed, 2 for a usage
// error, 3 when the implementation could not be started or failed the
// handshake.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/convspec/convspec/conformance/mutants"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/conformance/server"
	"github.com/convspec/convspec/conformance/target"
)

// Exit codes; each means one thing.
const (
	exitOK       = 0
	exitFailures = 1
	exitUsage    = 2
	exitNoImpl   = 3
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
  conform serve [-mutant NAME]     serve the reference (or a faulty variant) on stdin/stdout
  conform list [-run RE] [-skip RE] print every case ID with its clauses
  conform mutants                  print the catalogue of faulty variants

flags:
`)
	fs, _ := conformFlags(io.Discard)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fmt.Fprint(w, `
exit status: 0 nothing failed, 1 a case failed, 2 usage error,
3 the implementation could not be started or failed the handshake
`)
}

type settings struct {
	run, skip    string
	seed         uint64
	checks       int
	timeout      time.Duration
	startTimeout time.Duration
	verbose      bool
	mutant       string
}

func conformFlags(stderr io.Writer) (*flag.FlagSet, *settings) {
	s := &settings{}
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&s.run, "run", "", "run only the cases whose ID matches this regular expression")
	fs.StringVar(&s.skip, "skip", "", "skip the cases whose ID matches this regular expression")
	fs.Uint64Var(&s.seed, "seed", 0, "seed for the properties' generators (0: random); makes a run reproducible")
	fs.IntVar(&s.checks, "checks", 100, "generated cases per property")
	fs.DurationVar(&s.timeout, "timeout", target.DefaultCallTimeout, "time limit for each request to the implementation")
	fs.DurationVar(&s.startTimeout, "start-timeout", target.DefaultStartTimeout, "time limit for starting the implementation and its handshake")
	fs.BoolVar(&s.verbose, "v", false, "list passing and not-applicable cases too")
	fs.StringVar(&s.mutant, "mutant", "", "run against a built-in faulty variant instead of the reference (see `conform mutants`)")
	return fs, s
}

func conform(args []string, stdout, stderr io.Writer) int {
	fs, s := conformFlags(stderr)
	fs.Usage = func() { usage(stderr) }
	var command []string
	for i, a := range args {
		if a == "--" {
			args, command = args[:i], args[i+1:]
			break
		}
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform: unexpected argument %q (put the implementation's command after --)\n", fs.Arg(0))
		return exitUsage
	}
	if command != nil && len(command) == 0 {
		fmt.Fprintln(stderr, "conform: no command after --")
		return exitUsage
	}
	if command != nil && s.mutant != "" {
		fmt.Fprintln(stderr, "conform: -mutant and a command after -- exclude each other")
		return exitUsage
	}
	opts, err := s.options()
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	if err := checkSelection(opts, s); err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tg, err := s.target(ctx, command, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "conform: the implementation could not be started: %v\n", err)
		return exitNoImpl
	}
	defer tg.Close()

	results, err := runner.Run(ctx, tg, opts)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "conform: interrupted")
		return exitFailures
	}
	report.Text(stdout, tg.Info(), results, report.TextOptions{
		Verbose:   s.verbose,
		Reproduce: func(r runner.Result) string { return reproduce(r, s, command) },
	})
	if report.Count(results).Failures() > 0 {
		return exitFailures
	}
	return exitOK
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
	if s.checks <= 0 {
		return opts, fmt.Errorf("-checks must be positive, got %d", s.checks)
	}
	if s.timeout <= 0 || s.startTimeout <= 0 {
		return opts, errors.New("-timeout and -start-timeout must be positive")
	}
	return opts, nil
}

// checkSelection refuses a -run or -skip that leaves nothing to run: a
// silent zero-case run would pass a CI gate by accident.
func checkSelection(opts runner.Options, s *settings) error {
	cases, err := runner.Cases(runner.Options{})
	if err != nil {
		return err
	}
	for _, c := range cases {
		if (opts.Run == nil || opts.Run.MatchString(c.ID)) && (opts.Skip == nil || !opts.Skip.MatchString(c.ID)) {
			return nil
		}
	}
	return fmt.Errorf("no case matches -run %q -skip %q (see `conform list`)", s.run, s.skip)
}

func (s *settings) target(ctx context.Context, command []string, stderr io.Writer) (target.Target, error) {
	if command == nil {
		engine := server.Engine(server.Reference{})
		if s.mutant != "" {
			m, ok := mutants.Lookup(s.mutant)
			if !ok {
				return nil, fmt.Errorf("no mutant %q (see `conform mutants`)", s.mutant)
			}
			engine = m.Engine
		}
		return target.NewInProcess(engine)
	}
	return target.StartProcess(ctx, target.ProcessConfig{
		Command:      command,
		StartTimeout: s.startTimeout,
		CallTimeout:  s.timeout,
	})
}

// reproduce is the command line that reruns one case.
func reproduce(r runner.Result, s *settings, command []string) string {
	parts := []string{"conform", "-run", shellQuote("^" + regexp.QuoteMeta(r.ID) + "$")}
	if r.Kind == runner.Property && r.Seed != 0 {
		parts = append(parts, "-seed", fmt.Sprint(r.Seed))
	}
	if s.mutant != "" {
		parts = append(parts, "-mutant", s.mutant)
	}
	if command != nil {
		parts = append(parts, "--")
		for _, c := range command {
			parts = append(parts, shellQuote(c))
		}
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

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
	fs, s := conformFlags(stderr)
	if err := fs.Parse(args); err != nil {
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
