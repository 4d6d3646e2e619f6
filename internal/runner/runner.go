// Package runner runs convspec's scenarios and properties against a
// target.Target and classifies every case's outcome. It is what both
// `conform` and `go test` execute, so the two cannot disagree.
package runner

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"slices"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/differential"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/properties"
)

// Summary is a whole run.
type Summary struct {
	// Results holds every selected case that completed, in order: the
	// scenarios, then the properties.
	Results []result.Result
	// Seed is the seed the properties ran with (Options.Seed, or the one
	// picked at random).
	Seed uint64
	// Interrupted says that the context was cancelled before every
	// selected case had completed; Results holds those that had.
	Interrupted bool
	// RestartLimit says that the implementation failed more often than its
	// restart limit allows; the cases after that point are in Results as
	// NotRun.
	RestartLimit bool
	// pool charges stray lines seen after the run (ChargeStrays).
	pool *pool
}

// Options select and tune a run.
type Options struct {
	// Run and Skip select cases by ID (regular expressions, unanchored).
	Run, Skip *regexp.Regexp
	// Checks is the number of generated cases per property; 0 means 100.
	Checks int
	// Seed makes properties deterministic; 0 means DefaultSeed, so that an
	// unchanged implementation gets the same report on every run (NewSeed
	// draws a random one to explore). It is reported in Summary.Seed and in
	// every property's Result.
	Seed uint64
	// Features defaults to the embedded features.
	Features fs.FS
	// Properties defaults to Properties().
	Properties []prop.Property
	// NoShrink reports a failing property's first counterexample as found,
	// without rapid's shrinking: for callers that need the verdict, not the
	// smallest reproducing input — the faulty variants' kill test and
	// report.
	NoShrink bool
	// ShrinkSteps bounds the shrinking of a failing property by executions
	// of it (D-44); 0 means DefaultShrinkSteps.
	ShrinkSteps int
	// FirstFailure ends a property at its first failing check, an edge
	// example or a random one, where D-77 runs every check to report what
	// each finds: for callers that need only whether a case fails, such as
	// the faulty variants' kill test and report, which it spares the random
	// checks of every property an edge example already failed.
	FirstFailure bool
	// NoExamples runs no property's fixed examples, only its random
	// checks: for a rerun under another seed of properties whose examples
	// have run (an example is the same under every seed), as the faulty
	// variants' report does for seeds 2 and 3.
	NoExamples bool
	// Progress, when set, is told each time a case starts and each time
	// one has its outcome, from the workers' goroutines one at a time
	// (`conform` shows it on a terminal). Nothing it does changes a result.
	Progress func(Progress)
}

func (o Options) selected(id string) bool {
	if o.Run != nil && !o.Run.MatchString(id) {
		return false
	}
	if o.Skip != nil && o.Skip.MatchString(id) {
		return false
	}
	return true
}

// Run executes every selected case against tg, scenarios first, and
// returns the results of those that completed (see RunAll).
func Run(ctx context.Context, tg target.Target, opts Options) ([]result.Result, error) {
	sum, err := RunAll(ctx, tg, opts)
	return sum.Results, err
}

// RunAll executes every selected case against tg, scenarios first. It
// stops early in two ways: when ctx is cancelled (Summary.Interrupted; the
// case under way is dropped, since its outcome is the cancellation's, not
// the implementation's) and when the implementation has failed more often
// than its restart limit allows (Summary.RestartLimit; every case not yet
// run is reported NotRun).
func RunAll(ctx context.Context, tg target.Target, opts Options) (Summary, error) {
	return RunWorkers(ctx, []target.Target{tg}, opts)
}

// RunWorkers is RunAll on several targets of one implementation at once
// (`conform -parallel N`: one process each, with restarts of its own).
// Each case runs whole on one worker; the results come back in the order
// of a sequential run, so that the report is the same whatever the number
// of workers.
func RunWorkers(ctx context.Context, targets []target.Target, opts Options) (Summary, error) {
	if opts.Features == nil {
		opts.Features = features.FS
	}
	if opts.Properties == nil {
		opts.Properties = Properties()
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	// The cases are chosen by the first worker's handshake; a worker that
	// declares anything else would be sent cases it never claimed (D-50).
	for i, tg := range targets[1:] {
		if err := target.SameHandshake(targets[0].Info(), tg.Info(), fmt.Sprintf("of worker %d", i+2)); err != nil {
			return Summary{Seed: opts.Seed}, err
		}
	}
	prog, err := newProgress(opts)
	if err != nil {
		return Summary{Seed: opts.Seed}, err
	}
	p := newPool(ctx, targets)
	p.progress = prog
	sum := Summary{Seed: opts.Seed}
	results, err := runScenarios(p, opts)
	if err != nil {
		return sum, err
	}
	props, err := runProperties(p, opts)
	if err != nil {
		return sum, err
	}
	for i := range props {
		props[i] = props[i].Clipped() // D-52
	}
	results = append(results, props...)
	if err := inCaseOrder(results, opts); err != nil {
		return sum, err
	}
	sum.pool = p
	if err := p.chargeStrays(results); err != nil {
		return sum, err
	}
	sum.Results = results
	sum.Interrupted = ctx.Err() != nil
	sum.RestartLimit = p.limitReached.Load()
	return sum, nil
}

// inCaseOrder sorts results as Cases lists them: scenarios in feature
// order, then properties.
func inCaseOrder(results []result.Result, opts Options) error {
	cases, err := listCases(opts)
	if err != nil {
		return err
	}
	index := make(map[string]int, len(cases))
	for i, c := range cases {
		if _, dup := index[c.ID]; !dup {
			index[c.ID] = i
		}
	}
	slices.SortStableFunc(results, func(a, b result.Result) int { return index[a.ID] - index[b.ID] })
	return nil
}

// DefaultSeed is the properties' seed when none is given (see
// result.DefaultSeed).
const DefaultSeed = result.DefaultSeed

// NewSeed picks a random seed below 2^53, so that it survives a trip
// through a JSON number in any language.
func NewSeed() uint64 {
	return 1 + rand.Uint64N(1<<53-1)
}

// Properties lists every property in the order of the reports: the
// per-capability ones, then the differential ones, the only properties
// that consult the reference.
func Properties() []prop.Property {
	return slices.Concat(properties.All(), differential.All())
}
