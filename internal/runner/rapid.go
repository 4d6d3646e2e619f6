package runner

import (
	"cmp"
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

func runProperties(p *pool, opts Options) ([]result.Result, error) {
	info := p.info
	out := make([]result.Result, len(opts.Properties))
	ran := make([]bool, len(opts.Properties))
	// rapid reads its knobs from the process-wide flag set: they are set
	// once for the whole phase, and every worker's checks read the same.
	rapidMu.Lock()
	defer rapidMu.Unlock()
	if err := prepareRapid(opts); err != nil {
		return nil, err
	}
	var (
		wg       sync.WaitGroup
		errMu    sync.Mutex
		firstErr error
	)
	for _, i := range startOrder(opts.Properties, p.all[0]) {
		property := opts.Properties[i]
		c := propertyCase(property)
		switch {
		case !opts.selected(c.ID), p.ctx.Err() != nil:
			continue
		case notApplicable(info, c) != "":
			out[i], ran[i] = result.Result{Case: c, Outcome: result.NotApplicable, Detail: notApplicable(info, c)}, true
			p.progress.finish(c.ID)
			continue
		}
		g := p.acquireFor(c.ID)
		if p.limitReached.Load() {
			p.release(g)
			out[i], ran[i] = notRun(c), true
			p.progress.finish(c.ID)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer p.release(g)
			p.progress.start(c.ID)
			g.begin()
			started := time.Now()
			r, err := runProperty(c, property, g, opts)
			switch {
			case err != nil:
				errMu.Lock()
				firstErr = cmp.Or(firstErr, err)
				errMu.Unlock()
				return
			case p.ctx.Err() != nil:
				return // interrupted: the outcome is the cancellation's
			case g.limited && g.failure == nil:
				r = notRun(c)
			case g.limited:
				r.Detail += "\n(the restart limit was reached during this property)"
			}
			r.Duration = time.Since(started)
			out[i], ran[i] = r, true
			p.progress.finish(c.ID)
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	var results []result.Result
	for i, r := range out {
		if ran[i] {
			results = append(results, r)
		}
	}
	return results, nil
}

// startOrder is the order the properties start in: the costliest first
// (prop.Property.Cost for each subject), the rest as listed, so that the
// last to start are short and the workers finish together rather than one
// waiting on a long case started last. The order is fixed by the
// properties and the handshake, never by a clock: the results do not
// depend on it, and come back in list order (D-83).
func startOrder(props []prop.Property, tg target.Target) []int {
	cost := make([]int, len(props))
	order := make([]int, len(props))
	for i, p := range props {
		order[i] = i
		cost[i] = max(p.Cost, 1)
		if p.Subjects != nil {
			cost[i] *= max(len(p.Subjects(tg)), 1)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cost[b], cost[a]) })
	return order
}

var (
	// shrinkKnob is held for reading by each property's random checks,
	// and for writing by one that turns rapid's shrinking off for itself.
	shrinkKnob sync.RWMutex
	rapidMu    sync.Mutex
	rapidOnce  sync.Once
	seedRe     = regexp.MustCompile(`-rapid\.seed=(\d+)`)
)

// rapid's shrink time: out of reach, so that the step bound decides
// (shrinkBound), or none at all.
const (
	shrinkTime   = "24h"
	noShrinkTime = "1ns"
)

// prepareRapid sets rapid's knobs. rapid reads them from the standard flag
// set — process-wide state, hence rapidMu — and its Check consults
// testing.Short, so outside `go test` the testing flags must be registered
// and parsed first. The caller holds rapidMu.
func prepareRapid(opts Options) error {
	rapidOnce.Do(func() {
		if flag.Lookup("test.short") == nil {
			testing.Init()
		}
		if !flag.Parsed() {
			_ = flag.CommandLine.Parse(nil)
		}
	})
	checks := opts.Checks
	if checks <= 0 {
		checks = 100
	}
	// Shrinking is bounded by steps (shrinkBound), not by rapid's wall
	// clock, whose bound is set out of reach (rapid caps it a little below
	// its own 24-hour test deadline).
	shrinking := shrinkTime
	if opts.NoShrink {
		shrinking = noShrinkTime
	}
	for name, value := range map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(opts.Seed, 10),
		"rapid.nofailfile": "true",
		"rapid.shrinktime": shrinking,
	} {
		if err := flag.Set(name, value); err != nil {
			return fmt.Errorf("configuring rapid: %w", err)
		}
	}
	return nil
}

// runProperty checks one property on one worker; the caller holds rapidMu
// and has prepared rapid. A property with subjects is checked on each in
// turn (D-75).
func runProperty(c result.Case, p prop.Property, g *guard, opts Options) (result.Result, error) {
	tg := g.target()
	if p.Subjects == nil {
		return checkProperty(c, p, g, tg, opts), nil
	}
	var rs []subjectResult
	for _, s := range p.Subjects(tg) {
		if g.ctx.Err() != nil || g.limited {
			break
		}
		g.begin()
		rs = append(rs, subjectResult{s.Name, checkProperty(c, p, g, s.Target, opts)})
	}
	return mergeSubjects(c, opts.Seed, rs), nil
}

// subjectResult is a property's result on one of its subjects.
type subjectResult struct {
	name string
	r    result.Result
}

// mergeSubjects is a property's result over its subjects: passed when
// each passed; otherwise failed when any failed, with the deviations of
// every failed subject, else the first other outcome; the detail is every
// failing subject's, each under its name when more than one fails, and
// the seed the first failing one's (each subject's own is in its detail).
func mergeSubjects(c result.Case, seed uint64, rs []subjectResult) result.Result {
	var failing []subjectResult
	for _, s := range rs {
		if s.r.Outcome != result.Passed {
			failing = append(failing, s)
		}
	}
	switch len(failing) {
	case 0:
		return result.Result{Case: c, Outcome: result.Passed, Seed: seed}
	case 1:
		return failing[0].r
	}
	out := result.Result{Case: c, Outcome: failing[0].r.Outcome, Seed: failing[0].r.Seed}
	var details []string
	for _, s := range failing {
		if s.r.Outcome == result.Failed {
			if out.Outcome != result.Failed {
				out.Outcome, out.Seed = result.Failed, s.r.Seed
			}
			out.Deviations = append(out.Deviations, s.r.Deviations...)
		}
		head := fmt.Sprintf("%s: %s", s.name, strings.ReplaceAll(string(s.r.Outcome), "_", " "))
		if s.r.Seed != 0 && s.r.Outcome == result.Failed {
			head += fmt.Sprintf(" (seed %d)", s.r.Seed)
		}
		details = append(details, head+"\n"+s.r.Detail)
	}
	out.Detail = strings.Join(details, "\n\n")
	return out
}

// checkProperty runs a property's examples and random checks on tg. A
// failing edge example does not end the check: every example runs, then
// the random checks, so that one failure does not hide another (D-77).
// What stops it is an implementation that no longer answers, or declines.
func checkProperty(c result.Case, p prop.Property, g *guard, tg target.Target, opts Options) result.Result {
	var examples []result.Result
	if !opts.NoExamples {
		var stop bool
		if examples, stop = runExamples(c, p, g, tg, opts.FirstFailure); stop {
			return examples[len(examples)-1]
		}
	}
	if p.Check == nil { // examples only
		return withExamples(c, examples, result.Result{Case: c, Outcome: result.Passed, Seed: opts.Seed})
	}
	tb := &propertyTB{name: c.ID}
	tb.ctx = deviation.WithNoter(gen.WithFormats(g.ctx, tg.Info().Formats), tb)
	bound := &shrinkBound{tb: tb, limit: cmp.Or(opts.ShrinkSteps, DefaultShrinkSteps)}
	if len(examples) > 0 && !opts.NoShrink {
		// The examples already say what is wrong; a counterexample of the
		// random checks is reported as found, not shrunk, so that an
		// implementation failing every property is not shrunk for every
		// one of them. rapid's shrink time is process-wide: the knob is
		// this property's alone while no other worker's check runs, and
		// set back before any runs again — else the property another
		// worker was checking at the time went unshrunk, or not, as the
		// two happened to overlap.
		shrinkKnob.Lock()
		defer shrinkKnob.Unlock()
		if err := flag.Set("rapid.shrinktime", noShrinkTime); err == nil {
			defer flag.Set("rapid.shrinktime", shrinkTime)
		}
	} else {
		shrinkKnob.RLock()
		defer shrinkKnob.RUnlock()
	}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				tb.failed = true
				fmt.Fprintf(&tb.out, "panic: %v\n", r)
			}
		}()
		rapid.Check(tb, func(t *rapid.T) { bound.play(t, func() { p.Check(t, tg) }) })
	}()
	r := result.Result{Case: c, Outcome: result.Passed, Seed: opts.Seed}
	if !tb.failed {
		return withExamples(c, examples, r)
	}
	r.Outcome = result.Failed
	r.Detail = strings.TrimSpace(tb.out.String())
	if m := seedRe.FindStringSubmatch(r.Detail); m != nil {
		r.Seed, _ = strconv.ParseUint(m[1], 10, 64)
	}
	// rapid's advice names `go test` flags; the reports say how to rerun
	// the case with conform instead.
	r.Detail = trimRapidOutput(goTestAdvice.ReplaceAllString(r.Detail, ""))
	switch {
	case len(examples) > 0:
		r.Detail += "\n(not shrunk: an edge example failed first; fix it and rerun for the smallest counterexample)"
	case bound.note() != "":
		r.Detail += "\n" + bound.note()
	}
	r.Deviations = []result.Deviation{withParts(propertyDeviation(c, r.Detail), tb.parts)}
	return withExamples(c, examples, g.settle(r))
}

// runExamples runs a property's fixed examples, in order, before its
// random checks, and returns the result of each that failed (no seed: an
// example is the same in every run). stop says that the last of them did
// not fail as such — the implementation no longer answers, or declined —
// so nothing more is checked, or that it failed and first says to stop at
// the first failure.
func runExamples(c result.Case, p prop.Property, g *guard, tg target.Target, first bool) (failed []result.Result, stop bool) {
	for _, ex := range p.Examples {
		tb := &propertyTB{name: c.ID + "/" + ex.Name}
		func() {
			defer func() {
				if r := recover(); r != nil && r != errFailNow {
					tb.failed = true
					fmt.Fprintf(&tb.out, "panic: %v\n", r)
				}
			}()
			ex.Run(tb, tg)
		}()
		if tb.failed {
			out := strings.TrimSpace(tb.out.String())
			r := result.Result{Case: c, Outcome: result.Failed, Detail: fmt.Sprintf("edge example %q:\n%s", ex.Name, out)}
			// Its deviation is the failure's own, under the clause it names,
			// so that it groups with the cause of that clause.
			r.Deviations = []result.Deviation{withParts(propertyDeviation(c, out), tb.parts)}
			r = g.settle(r)
			failed = append(failed, r)
			if r.Outcome != result.Failed || first {
				return failed, true
			}
		}
	}
	return failed, false
}

// withExamples is a property's result from its failed edge examples and
// its random checks' result: failed when any failed, with the deviations
// of each failed example that breaks a clause no earlier one broke, and
// those of the random checks that break a clause no example broke — what
// the rest of the property finds beyond the first failure, not the same
// failure found again. The seed is the random checks' when they add a
// failure — the examples fail at every seed — and otherwise none.
func withExamples(c result.Case, examples []result.Result, random result.Result) result.Result {
	if len(examples) == 0 {
		return random
	}
	out := result.Result{Case: c, Outcome: result.Failed}
	var details []string
	seen := map[string]bool{}
	for _, e := range examples {
		fresh := false
		for _, d := range e.Deviations {
			fresh = fresh || !seen[d.Clause]
			seen[d.Clause] = true
		}
		if fresh || len(e.Deviations) == 0 {
			details = append(details, e.Detail)
			out.Deviations = append(out.Deviations, e.Deviations...)
		}
	}
	if random.Outcome != result.Passed {
		var fresh []result.Deviation
		for _, d := range random.Deviations {
			if !seen[d.Clause] {
				fresh = append(fresh, d)
			}
		}
		if len(fresh) > 0 || random.Outcome != result.Failed {
			out.Deviations = append(out.Deviations, fresh...)
			details = append(details, fmt.Sprintf("random checks (seed %d):\n%s", random.Seed, random.Detail))
			out.Seed = random.Seed
			if random.Outcome != result.Failed {
				out.Outcome, out.Deviations = random.Outcome, nil
			}
		}
	}
	out.Detail = strings.Join(details, "\n\n")
	return out
}

// trimRapidOutput drops the "Failed test output:" section rapid appends to a
// failure when it says nothing the failure message above it has not said:
// the property's own lines repeated (numbers aside: the replay creates
// windows of its own, w10 where the message said w9), and rapid's "draw"
// lines, which show in Go syntax the values the requests above show as
// sent.
func trimRapidOutput(detail string) string {
	head, tail, ok := strings.Cut(detail, "\nFailed test output:")
	if !ok || strings.TrimSpace(head) == "" {
		return detail
	}
	said := digits.ReplaceAllString(head, "#")
	for _, l := range strings.Split(tail, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "[rapid] draw ") && !strings.Contains(said, digits.ReplaceAllString(l, "#")) {
			return detail
		}
	}
	return strings.TrimRight(head, "\n")
}

var digits = regexp.MustCompile(`[0-9]+`)

// failureClause finds the clause a property's failure names first
// ("WIN-6: trimmed holds 11 messages…").
var failureClause = regexp.MustCompile(`\b([A-Z]+-[0-9]+): (.*)`)

// propertyDeviation is a property's failure as a deviation: the clause
// its message names (the property's first clause when it names none), and
// the message from there on.
func propertyDeviation(c result.Case, detail string) result.Deviation {
	if m := failureClause.FindStringSubmatchIndex(detail); m != nil {
		return result.Deviation{Clause: detail[m[2]:m[3]], Detail: detail[m[4]:]}
	}
	d := result.Deviation{Detail: detail}
	if len(c.Clauses) > 0 {
		d.Clause = c.Clauses[0]
	}
	return d
}

// goTestAdvice is rapid's line on how to rerun a failure under `go test`.
var goTestAdvice = regexp.MustCompile(`(?m)^To (?:try to )?reproduce, specify -run=.*\n?`)
