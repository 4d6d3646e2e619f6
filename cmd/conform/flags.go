package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/runner"
)

type settings struct {
	run, skip    string
	seed         uint64
	seedText     string
	checks       int
	shrinkSteps  int
	timeout      time.Duration
	startTimeout time.Duration
	maxRestarts  int
	maxLine      int
	verbose      bool
	progress     string
	mutant       string
	strict       bool // conform and conform baseline only
	parallel     int

	// conform only
	baseline                 string
	report                   string
	jsonOut, junitOut, mdOut string
	htmlOut, specURL         string
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
	fs.StringVar(&s.seedText, "seed", "", "seed `N` for the properties' generators (default 1, printed in the report; random: a new one); the same seed replays the run")
	fs.IntVar(&s.checks, "checks", 100, "generated cases per property")
	fs.IntVar(&s.shrinkSteps, "shrink-steps", runner.DefaultShrinkSteps, "bound on the executions spent shrinking a failing property's counterexample (a count, not a time: the same seed gives the same counterexample on any machine)")
	supervisionFlags(fs, s)
	fs.BoolVar(&s.verbose, "v", false, "list every case, and the details of expected failures")
	fs.StringVar(&s.progress, "progress", "auto", "show progress on stderr: `auto` (on a terminal, not under CI), on or off")
	fs.StringVar(&s.mutant, "mutant", "", "run against the built-in faulty variant `NAME` instead of the reference (see conform mutants)")
	return fs, s
}

// supervisionFlags are the flags of every command that talks to an
// implementation: how long it may take and how often it may fail.
func supervisionFlags(fs *flag.FlagSet, s *settings) {
	fs.DurationVar(&s.timeout, "timeout", target.DefaultCallTimeout, "time limit for each request to the implementation")
	fs.DurationVar(&s.startTimeout, "start-timeout", target.DefaultStartTimeout, "time limit for starting the implementation and its handshake")
	fs.IntVar(&s.maxRestarts, "max-restarts", target.DefaultMaxRestarts, "how often a failed implementation is restarted before the run stops (0: never)")
	fs.IntVar(&s.maxLine, "max-line", target.DefaultMaxLineBytes, "longest output line accepted from the implementation, in bytes")
}

// parseArgs parses the command line of the command name (see parse) and
// says what is wrong with it; false means a usage error.
func parseArgs(name string, fs *flag.FlagSet, s *settings, args []string, stderr io.Writer) ([]string, bool) {
	command, err := parse(fs, s, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) && !isFlagError(err) {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
		}
		return nil, false
	}
	warnFlagsAfterCommand(name, fs, command, stderr)
	return command, true
}

// warnFlagsAfterCommand says so when an argument after the implementation's
// command looks like one of conform's flags (`conform node adapter.js -run
// WIN-`): every argument from the command on is the implementation's, so
// the flag does not reach conform and, for -run, the whole suite runs. It
// is a note, not an error: the implementation may take a flag of that name.
func warnFlagsAfterCommand(name string, fs *flag.FlagSet, command []string, stderr io.Writer) {
	var moved, rest []string
	rest = append(rest, command[:min(1, len(command))]...)
	for i := 1; i < len(command); i++ {
		a := command[i]
		flagName, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(flagName)
		if !strings.HasPrefix(a, "-") || flagName == "" || f == nil {
			rest = append(rest, a)
			continue
		}
		moved = append(moved, shellQuote(a))
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && b.IsBoolFlag()) && i+1 < len(command) {
			i++
			moved = append(moved, shellQuote(command[i]))
		}
	}
	if len(moved) == 0 {
		return
	}
	for i := range rest {
		rest[i] = shellQuote(rest[i])
	}
	fmt.Fprintf(stderr, "%s: note: %s after the command is passed to the implementation, not to conform; conform's flags go before the command: %s %s %s\n",
		name, strings.Join(moved, " "), name, strings.Join(moved, " "), strings.Join(rest, " "))
}

// parseFlagsOnly parses args into fs for a command that takes flags and
// no argument, and says whether they are usable; what is wrong is said on
// stderr.
func parseFlagsOnly(name string, fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	if err := fs.Parse(args); err != nil {
		return false // the flag package has said why
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", name, fs.Arg(0))
		return false
	}
	return true
}

// selected is the elements of xs whose case ID (id) -run and -skip
// select, in order.
func selected[T any](xs []T, id func(T) string, run, skip *regexp.Regexp) []T {
	var out []T
	for _, x := range xs {
		if i := id(x); (run == nil || run.MatchString(i)) && (skip == nil || !skip.MatchString(i)) {
			out = append(out, x)
		}
	}
	return out
}

// parallelFlag is -parallel, of the commands that run the whole suite.
func parallelFlag(fs *flag.FlagSet, s *settings) {
	fs.IntVar(&s.parallel, "parallel", defaultParallel(), "run cases on `N` workers at once, each with its own implementation process (and restarts); 1 for an implementation that cannot run twice")
}

// defaultParallel is -parallel's default: one worker more than the CPUs,
// so that a core whose worker waits for its implementation's answer to
// cross the pipes has another worker's case to run (D-98).
func defaultParallel() int { return runtime.NumCPU() + 1 }

// strictFlag is -strict, of the commands that judge a run.
func strictFlag(fs *flag.FlagSet, s *settings) {
	fs.BoolVar(&s.strict, "strict", false, "an unsupported case fails the run unless the baseline lists it (spec/decisions.md D-33)")
}

func conformFlags(stderr io.Writer) (*flag.FlagSet, *settings) {
	fs, s := runFlags("conform", stderr)
	strictFlag(fs, s)
	parallelFlag(fs, s)
	reportFlags(fs, s, "baseline `FILE` of accepted deviations (see `conform baseline`)")
	return fs, s
}

// reportFlags are the flags of what a run writes — its baseline and its
// reports — shared by conform and conform check, whose reports are the
// same formats (sinks.go).
func reportFlags(fs *flag.FlagSet, s *settings, baselineUsage string) {
	fs.StringVar(&s.baseline, "baseline", "", baselineUsage)
	fs.StringVar(&s.report, "report", "text", "`FORMAT` of the report on stdout: text, json, junit, markdown or none")
	fs.StringVar(&s.jsonOut, "json", "", "also write the JSON report to `FILE` (- for stdout)")
	fs.StringVar(&s.junitOut, "junit", "", "also write the JUnit XML report to `FILE` (- for stdout)")
	fs.StringVar(&s.mdOut, "markdown", "", "also write the Markdown report to `FILE` (- for stdout), e.g. \"$GITHUB_STEP_SUMMARY\"")
	fs.StringVar(&s.htmlOut, "html", "", "also write the HTML report, one self-contained file, to `FILE` (- for stdout)")
	fs.StringVar(&s.specURL, "spec-url", "", "link the HTML report's clauses to the spec site's spec.html at `URL` (see conform doc); default: SPEC.md on GitHub")
}

// parse parses the flags and returns the implementation's command: what
// follows "--", or else the first argument that is not a flag and all that
// follows it (`conform ./my-impl`, `conform -v node adapter.js -x`: the
// implementation's own flags stay its own). A bare first word must name a
// program, so that a mistyped subcommand is a usage error, not a start-up
// failure.
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
	if fs.NArg() > 0 {
		if command != nil {
			return nil, fmt.Errorf("unexpected argument %q before -- (the implementation's command goes after --)", fs.Arg(0))
		}
		if _, err := exec.LookPath(fs.Arg(0)); err != nil {
			return nil, fmt.Errorf("%q is neither a subcommand of conform nor a program it can run (%v); see `conform help`", fs.Arg(0), unwrapExec(err))
		}
		command = fs.Args()
	}
	switch {
	case command != nil && len(command) == 0:
		return nil, errors.New("no command after --")
	case command != nil && s.mutant != "":
		return nil, errors.New("-mutant and an implementation's command exclude each other")
	}
	return command, nil
}

// unwrapExec is the reason of an exec.LookPath error without the
// repetition of the name it already carries.
func unwrapExec(err error) error {
	if e := (*exec.Error)(nil); errors.As(err, &e) {
		return e.Err
	}
	return err
}

// subcommandFlags is the flag set of a subcommand other than those that run
// the suite: errors and usage go to stderr, the usage being the text given
// (its first line "usage: …") followed by the flags' defaults.
func subcommandFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}
