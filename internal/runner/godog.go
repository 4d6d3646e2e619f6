package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/steps"
)

// scenarioPaths are the godog paths that hold every selected scenario:
// "." for all, or "file:line" for each selected scenario (an outline's
// line stands for all its examples), so that godog does not prepare the
// steps of hundreds of scenarios only to skip them. Nil means none is
// selected.
func scenarioPaths(opts Options) ([]string, error) {
	if opts.Run == nil && opts.Skip == nil {
		return []string{"."}, nil
	}
	var paths []string
	seen := map[string]bool{}
	err := eachScenario(opts.Features, func(p *messages.Pickle, sc *messages.Scenario, c result.Case) error {
		if !opts.selected(c.ID) || sc == nil || AboutTheChecker(c) {
			return nil
		}
		path := fmt.Sprintf("%s:%d", p.Uri, sc.Location.Line)
		if !seen[path] {
			seen[path] = true
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return paths, nil
}

// lineSuffix is the ":line" godog appends to the URI of a scenario
// selected by line.
var lineSuffix = regexp.MustCompile(`:[0-9]+$`)

func runScenarios(p *pool, opts Options) ([]result.Result, error) {
	info := p.info
	var (
		mu       sync.Mutex // guards results and setupErr: scenarios run on every worker at once
		results  []result.Result
		setupErr error
	)
	// A result is clipped as it is kept (D-52), so that a run holds at
	// most the caps of each case, whatever the implementation sent.
	add := func(r result.Result) {
		r = r.Clipped()
		mu.Lock()
		results = append(results, r)
		mu.Unlock()
		p.progress.finish(r.ID)
	}
	paths, err := scenarioPaths(opts)
	if err != nil || paths == nil {
		return nil, err
	}
	suite := godog.TestSuite{
		Name: "convspec",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			worker, tg := p.stepTarget()
			steps.Register(sc, tg)
			var (
				g           *guard // the worker this scenario borrowed; nil when it does not run
				current     result.Case
				stepSkipped bool
				started     time.Time
			)
			sc.Before(func(ctx context.Context, sn *godog.Scenario) (context.Context, error) {
				c, err := PickleCase(sn, lineSuffix.ReplaceAllString(sn.Uri, ""))
				why := ""
				if err == nil {
					why = notApplicable(info, c)
				}
				switch {
				case err != nil:
					mu.Lock()
					setupErr = err
					mu.Unlock()
					return ctx, godog.ErrSkip
				case !opts.selected(c.ID), AboutTheChecker(c):
					return ctx, godog.ErrSkip
				case p.ctx.Err() != nil:
					return ctx, godog.ErrSkip
				case why != "":
					add(result.Result{Case: c, Outcome: result.NotApplicable, Detail: why})
					return ctx, godog.ErrSkip
				case p.limitReached.Load():
					add(notRun(c))
					return ctx, godog.ErrSkip
				}
				g = p.acquireFor(c.ID)
				worker.set(g)
				current, stepSkipped, started = c, false, time.Now()
				p.progress.start(c.ID)
				g.begin()
				return ctx, nil
			})
			sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
				if errors.Is(err, godog.ErrSkip) {
					stepSkipped = true
				}
				return ctx, nil // the hook's own error: none
			})
			sc.After(func(ctx context.Context, sn *godog.Scenario, err error) (context.Context, error) {
				if g == nil {
					return ctx, nil // not selected, not applicable or not run: already accounted for
				}
				var r result.Result
				switch {
				case p.ctx.Err() != nil:
					// interrupted: the outcome is the cancellation's, not the implementation's
				case g.limited && (g.failure == nil || errors.Is(err, target.ErrRestartLimit)):
					r = notRun(current)
				case stepSkipped && err == nil:
					r = result.Result{Case: current, Outcome: result.NotApplicable, Detail: "the target cannot run a step of this scenario (raw protocol lines)"}
				default:
					r = g.settle(classify(current, err))
				}
				p.release(g)
				g, current = nil, result.Case{}
				if r.ID != "" {
					r.Duration = time.Since(started)
					add(r)
				}
				return ctx, nil
			})
		},
		Options: &godog.Options{
			Format:         "progress",
			Output:         io.Discard,
			FS:             opts.Features,
			Paths:          paths,
			Strict:         true,
			Concurrency:    p.size(), // a scenario runs on the worker it borrowed
			NoColors:       true,
			DefaultContext: p.ctx,
		},
	}
	suite.Run()
	if setupErr != nil {
		return nil, setupErr
	}
	return results, nil
}

// classify turns a scenario's error into an outcome.
func classify(c result.Case, err error) result.Result {
	r := result.Result{Case: c, Outcome: result.Passed}
	if err == nil {
		return r
	}
	r.Detail = err.Error()
	var f *target.Failure
	var pe *protocol.Error
	switch {
	case errors.As(err, &f):
		r.Outcome = result.Outcome(f.Outcome)
	case errors.As(err, &pe) && pe.Kind() == protocol.KindUnsupported:
		r.Outcome = result.Unsupported
	case errors.Is(err, godog.ErrSkip):
		r.Outcome = result.NotApplicable
	default:
		r.Outcome = result.Failed
		r.Deviations = scenarioDeviations(c, err)
	}
	return r
}

// scenarioDeviations lists what a failed scenario got wrong: every failing
// Then (steps.Deviations), or the failure of the step that ended it, under
// the scenario's first clause.
func scenarioDeviations(c result.Case, err error) []result.Deviation {
	var ds steps.Deviations
	if !errors.As(err, &ds) {
		return []result.Deviation{withParts(result.Deviation{Clause: c.Clauses[0], Detail: err.Error()}, deviation.Of(err))}
	}
	out := make([]result.Deviation, len(ds))
	for i, d := range ds {
		out[i] = withParts(result.Deviation{Clause: d.Clause, Step: d.Step, Detail: d.Err.Error()}, deviation.Of(d.Err))
	}
	if ds.Error() != err.Error() {
		// A Given or When failed after some Thens had: godog joined the two.
		out = append(out, result.Deviation{Clause: c.Clauses[0], Detail: strings.TrimPrefix(err.Error(), ds.Error()+", step error: ")})
	}
	return out
}

// withParts is d with what was sent, what came back and what was wanted as
// the code that found it said them (D-72).
func withParts(d result.Deviation, p deviation.Parts) result.Deviation {
	d.Sent, d.Got, d.Want = p.Sent, p.Got, p.Want
	return d
}
