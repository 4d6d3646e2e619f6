package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/convspec/convspec/conformance/target"
)

type settings struct {
	run, skip    string
	seed         uint64
	seedText     string
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
	fs.StringVar(&s.seedText, "seed", "", "seed `N` for the properties' generators (default 1, printed in the report; random: a new one); the same seed replays the run")
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
