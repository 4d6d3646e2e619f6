// Package runner runs convspec's scenarios and properties against a
// target.Target and classifies every case's outcome. It is what both
// `conform` and `go test` execute, so the two cannot disagree.
package runner

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"regexp"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/properties"
)

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
	// Properties defaults to properties.All().
	Properties []properties.Property
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
func Run(ctx context.Context, tg target.Target, opts Options) ([]Result, error) {
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
	if opts.Features == nil {
		opts.Features = features.FS
	}
	if opts.Properties == nil {
		opts.Properties = properties.All()
	}
	if opts.Seed == 0 {
		opts.Seed = DefaultSeed
	}
	g := newGuard(ctx, tg)
	sum := Summary{Seed: opts.Seed}
	results, err := runScenarios(g, opts)
	if err != nil {
		return sum, err
	}
	props, err := runProperties(g, opts)
	if err != nil {
		return sum, err
	}
	sum.Results = append(results, props...)
	sum.Interrupted = ctx.Err() != nil
	sum.RestartLimit = g.limitReached
	return sum, nil
}

// DefaultSeed is the properties' seed when none is given: a run is
// deterministic unless asked otherwise (`conform -seed random`), so that an
// unchanged implementation never flips a CI gate.
const DefaultSeed uint64 = 1

// NewSeed picks a random seed below 2^53, so that it survives a trip
// through a JSON number in any language.
func NewSeed() uint64 {
	return 1 + rand.Uint64N(1<<53-1)
}
