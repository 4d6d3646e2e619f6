package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// conform is the default command: run the suite against the reference or
// an external implementation and write the reports.
func conform(args []string, stdout, stderr io.Writer) int {
	fs, s := conformFlags(stderr)
	fs.Usage = func() { usage(stderr) }
	command, ok := parseArgs("conform", fs, s, args, stderr)
	if !ok {
		return exitUsage
	}
	opts, err := s.options()
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	cases, err := runner.RunCases(runner.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	if command != nil {
		// A run against a program ends with the lifecycle's end (D-41):
		// `-run '^lifecycle/shutdown$'` selects it, a baseline may list it.
		cases = append(cases, runner.ShutdownCase)
	}
	if err := checkSelection(cases, opts, s); err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	base, sinks, err := s.outputs(cases, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return exitUsage
	}
	defer closeSinks(sinks)

	if command != nil {
		boundMemory()
		// Orphaned descendants of the implementation come to conform, not
		// to init, so that one that left the process group is found and
		// ended (D-52); where there is no subreaper, those are not found.
		_ = target.BecomeSubreaper()
	}
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
	if !writeReports("conform", sinks, &rep.Run, stderr) {
		return exitUsage
	}
	return rep.ExitCode()
}

// memoryLimit is the soft limit conform sets on its own heap while it
// supervises an implementation (unless GOMEMLIMIT says otherwise). A line
// may be up to 64 MiB, and decoding one holds it two or three times over
// for a moment; with the collector's default pacing the garbage of a few
// such answers would add up to several times the live heap. The limit
// makes the collector run before it does, so that what conform holds is
// bounded by the caps of D-52, not by what the implementation sends.
const memoryLimit = 160 << 20

func boundMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryLimit)
	}
}

// runReport is a run with its raw results, before they are judged.
type runReport struct {
	report.Run
	results []result.Result
}

// execute starts the implementation and runs the suite. It returns nil
// after a usage error it has reported; a run whose implementation could
// not be started has StartError set. Every process it started is gone when
// it returns.
func (s *settings) execute(opts runner.Options, command []string, stderr io.Writer) *runReport {
	if opts.Seed == 0 {
		opts.Seed = runner.DefaultSeed
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
		// The last lines of its stderr are quoted through the text
		// report's escaping layer, as every report quotes them (D-52).
		fmt.Fprintf(stderr, "conform: the implementation could not be started: %s\n", report.EscapeText(msg))
		rep.StartError = msg
		rep.Duration = time.Since(rep.Started)
		return rep
	}
	targets := []target.Target{tg}
	defer func() {
		for _, t := range targets {
			t.Close()
		}
	}()
	info := tg.Info()
	rep.Implementation = &info
	workers := s.workers(opts, info)
	targets = append(targets, s.moreTargets(ctx, command, workers-1, stderr)...)
	// Every worker is sent cases chosen by the first one's handshake: one
	// that declares anything else fails the handshake (D-50).
	for i, t := range targets[1:] {
		if err := target.SameHandshake(info, t.Info(), fmt.Sprintf("of worker %d of %d", i+2, workers)); err != nil {
			fmt.Fprintf(stderr, "conform: the implementation failed the handshake: %s\n", report.EscapeText(err.Error()))
			rep.StartError = err.Error()
			rep.Duration = time.Since(rep.Started)
			return rep
		}
	}

	if progressShown(s.progress, stderr) {
		pw := newProgressWriter(stderr)
		opts.Progress = pw.show
		defer pw.clear()
	}
	sum, err := runner.RunWorkers(ctx, targets, opts)
	// Before the reports, no process is left once they are out. A run
	// that went to its end checks the lifecycle's end too (D-41): each
	// process worker is shut down rather than closed.
	var shutdown *result.Result
	if err == nil && !sum.Interrupted && !sum.RestartLimit {
		shutdown = runner.Shutdown(ctx, targets)
	}
	for _, t := range targets {
		t.Close()
	}
	rep.Duration = time.Since(rep.Started)
	if err != nil {
		fmt.Fprintf(stderr, "conform: %v\n", err)
		return nil
	}
	rep.results, rep.Interrupted, rep.RestartLimit = sum.Results, sum.Interrupted, sum.RestartLimit
	// A second answer that came during the lifecycle's end is charged to
	// the case that sent the request it repeats (D-50). One that no case
	// sent — a second answer to the handshake of a worker that ran no
	// case — is the handshake's, PROTO-1's, and so the lifecycle's.
	if err := sum.ChargeStrays(rep.results); err != nil {
		if shutdown == nil {
			fmt.Fprintf(stderr, "conform: %v\n", err)
			return nil
		}
		if shutdown.Outcome == result.Passed {
			shutdown.Outcome = result.ProtocolError
		}
		shutdown.Detail = strings.TrimLeft(shutdown.Detail+"\n"+err.Error(), "\n")
	}
	if shutdown != nil {
		shutdown.Seed = sum.Seed
		rep.results = append(rep.results, *shutdown)
	}
	if sum.Interrupted {
		fmt.Fprintf(stderr, "conform: interrupted; %d cases had completed\n", len(sum.Results))
	}
	if sum.RestartLimit {
		fmt.Fprintf(stderr, "conform: restart limit reached: the implementation failed more often than -max-restarts %d allows; the remaining cases were not run\n", s.maxRestarts)
	}
	return rep
}

func (s *settings) options() (runner.Options, error) {
	opts := runner.Options{Checks: s.checks, ShrinkSteps: s.shrinkSteps, NoShrink: s.shrinkSteps == 0}
	var err error
	switch s.seedText {
	case "":
		opts.Seed = runner.DefaultSeed
	case "random":
		opts.Seed = runner.NewSeed()
	default:
		if opts.Seed, err = strconv.ParseUint(s.seedText, 10, 64); err != nil || opts.Seed == 0 {
			return opts, fmt.Errorf("-seed must be a positive integer or random, got %q", s.seedText)
		}
	}
	s.seed = opts.Seed
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
	case s.progress != "" && !slices.Contains(progressModes, s.progress):
		return opts, fmt.Errorf("-progress must be auto, on or off, got %q", s.progress)
	case s.shrinkSteps < 0:
		return opts, fmt.Errorf("-shrink-steps must be 0 (no shrinking) or more, got %d", s.shrinkSteps)
	case s.timeout <= 0 || s.startTimeout <= 0:
		return opts, errors.New("-timeout and -start-timeout must be positive")
	case s.maxRestarts < 0:
		return opts, fmt.Errorf("-max-restarts must be 0 or more, got %d", s.maxRestarts)
	case s.maxLine <= 0:
		return opts, fmt.Errorf("-max-line must be positive, got %d", s.maxLine)
	case s.set["parallel"] && s.parallel <= 0:
		return opts, fmt.Errorf("-parallel must be positive, got %d", s.parallel)
	}
	if s.mutant != "" {
		if _, ok := mutants.Lookup(s.mutant); !ok {
			return opts, fmt.Errorf("no mutant %q (see `conform mutants`)", s.mutant)
		}
	}
	return opts, nil
}

func caseID(c result.Case) string { return c.ID }

// checkSelection refuses a -run or -skip that leaves nothing to run: a
// silent zero-case run would pass a CI gate by accident.
func checkSelection(cases []result.Case, opts runner.Options, s *settings) error {
	if len(selected(cases, caseID, opts.Run, opts.Skip)) > 0 {
		return nil
	}
	if all, err := runner.Cases(runner.Options{}); err == nil && len(selected(all, caseID, opts.Run, opts.Skip)) > 0 {
		return fmt.Errorf("-run %q -skip %q selects only scenarios of conform check (SPEC §8e), which read recorded requests and talk to no implementation: `conform check FILE…` applies them, `go test ./internal/check` checks them", s.run, s.skip)
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

// workers is how many workers a run gets: -parallel N as given; by
// default one more than the CPUs (D-98), but no more than the cases the
// first worker's handshake leaves to run (selected and applicable), so
// that no process is started that no case would use.
func (s *settings) workers(opts runner.Options, info target.Info) int {
	if s.set["parallel"] {
		return s.parallel
	}
	cases, err := runner.RunCases(runner.Options{})
	if err != nil {
		return s.parallel // the run reports it
	}
	n := 0
	for _, c := range selected(cases, caseID, opts.Run, opts.Skip) {
		if runner.NotApplicable(info, c) == "" {
			n++
		}
	}
	return max(1, min(s.parallel, n))
}

// moreTargets starts n workers beyond the first (-parallel N, see
// workers), at once. A worker that cannot start is left out with a note:
// the first one has shown that the implementation runs, and fewer workers
// only take longer.
func (s *settings) moreTargets(ctx context.Context, command []string, n int, stderr io.Writer) []target.Target {
	if n <= 0 {
		return nil
	}
	started := make([]target.Target, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tg, err := s.target(ctx, command)
			if err != nil {
				fmt.Fprintf(stderr, "conform: note: worker %d of %d could not start (%v); the run goes on without it\n", i+2, n+1, err)
				return
			}
			started[i] = tg
		}()
	}
	wg.Wait()
	var out []target.Target
	for _, tg := range started {
		if tg != nil {
			out = append(out, tg)
		}
	}
	return out
}

// reproduce is the command line that reruns one failing case: its ID, the
// failing seed of a property, -strict for an unsupported case, and the
// flags that shape how the implementation is supervised.
func (s *settings) reproduce(k report.Case, command []string) string {
	if !k.Fails() || k.NotRun {
		return ""
	}
	parts := []string{"conform", "-run", shellQuote("^" + regexp.QuoteMeta(k.ID) + "$")}
	if k.Outcome == result.Unsupported {
		parts = append(parts, "-strict") // it fails only with it
	}
	if k.Kind == result.Property && k.Seed != 0 {
		parts = append(parts, "-seed", fmt.Sprint(k.Seed))
	}
	for _, name := range []string{"checks", "shrink-steps", "timeout", "start-timeout", "max-restarts", "max-line"} {
		if s.set[name] && !((name == "checks" || name == "shrink-steps") && k.Kind != result.Property) {
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
	case "shrink-steps":
		return fmt.Sprint(s.shrinkSteps)
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
