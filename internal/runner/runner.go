// Package runner runs convspec's scenarios and properties against a
// target.Target and classifies every case's outcome. It is what both
// `conform` and `go test` execute, so the two cannot disagree.
package runner

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/properties"
	"github.com/convspec/convspec/internal/steps"
	"github.com/convspec/convspec/internal/trace"
)

// Outcome is how one case ended.
type Outcome string

// Outcomes (issue #7 and spec/protocol.md): passed and not applicable are
// not failures; everything else is.
const (
	Passed        Outcome = "passed"
	Failed        Outcome = "failed"
	NotApplicable Outcome = "not_applicable"
	Unsupported   Outcome = "unsupported"
	Timeout       Outcome = "timeout"
	Crash         Outcome = "crash"
	ProtocolError Outcome = "protocol_error"
)

// IsFailure reports whether the outcome fails a run.
func (o Outcome) IsFailure() bool {
	return o != Passed && o != NotApplicable && o != Unsupported
}

// Kind says whether a case is a scenario or a property.
type Kind string

// Kinds of case.
const (
	Scenario Kind = "scenario"
	Property Kind = "property"
)

// Case is one scenario or property, identified stably.
type Case struct {
	ID         string
	Kind       Kind
	Name       string
	Clauses    []string
	Capability string
	// Source is the feature file of a scenario.
	Source string
}

// Result is the outcome of one case.
type Result struct {
	Case
	Outcome Outcome
	// Detail explains a failure: what was sent, what came back, what was
	// wanted; for a property, the shrunk counterexample.
	Detail string
	// Seed reproduces a property: for a failed one, the seed of the
	// failing check (`conform -seed` with it fails on the first check);
	// otherwise the run's seed.
	Seed uint64
	// NotRun says that the case was not run because the implementation
	// had failed more often than its restart limit allows; its outcome is
	// Crash and its Detail starts with NotRunDetail.
	NotRun bool
	// Duration is how long the case took.
	Duration time.Duration
}

// NotRunDetail starts the Detail of a case that was not run because the
// restart limit had been reached.
const NotRunDetail = "not run: restart limit reached"

// Summary is a whole run.
type Summary struct {
	// Results holds every selected case that completed, in order: the
	// scenarios, then the properties.
	Results []Result
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
}

// Options select and tune a run.
type Options struct {
	// Run and Skip select cases by ID (regular expressions, unanchored).
	Run, Skip *regexp.Regexp
	// Checks is the number of generated cases per property; 0 means 100.
	Checks int
	// Seed makes properties deterministic; 0 picks one at random (see
	// NewSeed), reported in Summary.Seed and in every property's Result.
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
		opts.Seed = NewSeed()
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

// NewSeed picks a random seed below 2^53, so that it survives a trip
// through a JSON number in any language.
func NewSeed() uint64 {
	return 1 + rand.Uint64N(1<<53-1)
}

// guard stands between the cases and the target. It makes every call
// honour the run's context (steps and properties call with their own), and
// it watches for transport failures: the last one of the current case, so
// that a property whose implementation crashed is reported as a crash, and
// the restart limit, which ends the run.
type guard struct {
	target.Target
	ctx context.Context
	// failure is the last transport failure of the current case other
	// than the restart limit; limited says that a call of the current case
	// hit the restart limit.
	failure *target.Failure
	limited bool
	// unsupported is the last error of kind unsupported the
	// implementation answered in the current case: a case that does not
	// pass after it is reported unsupported, not failed.
	unsupported *protocol.Error
	// limitReached is set once any case hit the restart limit.
	limitReached bool
}

// lineGuard is a guard over a target that can send raw lines.
type lineGuard struct {
	*guard
	ls target.LineSender
}

func newGuard(ctx context.Context, tg target.Target) *guard {
	return &guard{Target: tg, ctx: ctx}
}

// target is what the cases talk to: the guard, with SendLine when the
// underlying target has it.
func (g *guard) target() target.Target {
	if ls, ok := g.Target.(target.LineSender); ok {
		return lineGuard{guard: g, ls: ls}
	}
	return g
}

// begin starts a case.
func (g *guard) begin() { g.failure, g.limited, g.unsupported = nil, false, nil }

// Call implements target.Target.
func (g *guard) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	ctx, cancel := g.merge(ctx)
	defer cancel()
	res, err := g.Target.Call(ctx, method, params)
	return res, g.watch(err)
}

// SendLine implements target.LineSender.
func (l lineGuard) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	ctx, cancel := l.merge(ctx)
	defer cancel()
	res, err := l.ls.SendLine(ctx, line)
	return res, l.watch(err)
}

// merge returns a context that ends with ctx or with the run's.
func (g *guard) merge(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(g.ctx, cancel)
	return ctx, func() { stop(); cancel() }
}

func (g *guard) watch(err error) error {
	var (
		f  *target.Failure
		pe *protocol.Error
	)
	switch {
	case errors.Is(err, target.ErrRestartLimit):
		g.limited, g.limitReached = true, true
	case errors.As(err, &f):
		g.failure = f
	case errors.As(err, &pe) && pe.Kind() == protocol.KindUnsupported:
		g.unsupported = pe
	}
	return err
}

// settle finishes the result of a case that did not pass: a transport
// failure decides the outcome and adds the last lines of stderr (once);
// otherwise an unsupported answer makes the case unsupported.
func (g *guard) settle(r Result) Result {
	if r.Outcome == Passed || r.Outcome == NotApplicable {
		return r
	}
	switch {
	case g.failure != nil:
		r.Outcome = Outcome(g.failure.Outcome)
		if tail := g.failure.StderrTail; tail != "" && !strings.Contains(r.Detail, stderrHeading) {
			r.Detail = strings.TrimRight(r.Detail, "\n") + "\n" + stderrHeading + "\n" + indentTail(tail)
		}
	case g.unsupported != nil && r.Outcome == Failed:
		r.Outcome = Unsupported
		if !strings.Contains(r.Detail, g.unsupported.Error()) {
			r.Detail = strings.TrimRight(r.Detail, "\n") + "\nthe implementation answered: " + g.unsupported.Error()
		}
	}
	return r
}

// stderrHeading introduces the last lines an implementation wrote to stderr.
const stderrHeading = "last lines of stderr:"

func indentTail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  | " + l
	}
	return strings.Join(lines, "\n")
}

// notRun is the result of a case the restart limit kept from running.
func notRun(c Case) Result {
	return Result{Case: c, Outcome: Crash, NotRun: true,
		Detail: NotRunDetail + " before this case: the implementation failed more often than -max-restarts allows"}
}

var clauseTag = regexp.MustCompile(`^@([A-Z]+-[0-9]+)$`)

// ScenarioCase derives a scenario's stable case from its name and tags:
// ID is "<first clause>/<name as kebab-case>" (see Slug). The ID changes
// only when the scenario is renamed or its first clause tag changes; a
// property's ID is "prop/<name>" and never changes.
func ScenarioCase(name, uri string, tags []string) (Case, error) {
	c := Case{Kind: Scenario, Name: name, Source: uri}
	for _, t := range tags {
		if m := clauseTag.FindStringSubmatch(t); m != nil {
			if !slices.Contains(c.Clauses, m[1]) {
				c.Clauses = append(c.Clauses, m[1])
			}
			continue
		}
		if cp := strings.TrimPrefix(t, "@"); slices.Contains(protocol.Capabilities(), cp) {
			c.Capability = cp
			continue
		}
		return Case{}, fmt.Errorf("%s: scenario %q has tag %s, which is neither a clause ID nor a capability", uri, name, t)
	}
	if len(c.Clauses) == 0 {
		return Case{}, fmt.Errorf("%s: scenario %q is not tagged with any clause ID", uri, name)
	}
	slug := Slug(name)
	if slug == "" {
		return Case{}, fmt.Errorf("%s: scenario %q has no letter or digit to derive its ID from", uri, name)
	}
	c.ID = c.Clauses[0] + "/" + slug
	return c, nil
}

// Slug turns a name into kebab-case ASCII. A minus sign before a number
// is kept as "minus", so that "-1" and "1" never share an ID.
func Slug(name string) string {
	var b strings.Builder
	dash := false
	rs := []rune(strings.ToLower(name))
	for i, r := range rs {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case r == '.':
			b.WriteRune('.') // keeps numbers like 0.5 readable
			dash = false
		case r == '+':
			b.WriteString("-plus-")
			dash = false
		case r == '-' && i+1 < len(rs) && rs[i+1] >= '0' && rs[i+1] <= '9' && (i == 0 || !isAlnum(rs[i-1])):
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteString("minus-")
			dash = true
		default:
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "--", "-"), "-.")
}

func isAlnum(r rune) bool { return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' }

// Cases lists every scenario and property without running anything.
func Cases(opts Options) ([]Case, error) {
	return listCases(opts)
}

// TraceCases lists the selected cases as the traceability model of package
// spec takes them.
func TraceCases(opts Options) ([]trace.Case, error) {
	all, err := listCases(opts)
	if err != nil {
		return nil, err
	}
	out := make([]trace.Case, len(all))
	for i, c := range all {
		out[i] = trace.Case{ID: c.ID, Clauses: c.Clauses, Property: c.Kind == Property}
	}
	return out, nil
}

func listCases(opts Options) ([]Case, error) {
	if opts.Features == nil {
		opts.Features = features.FS
	}
	if opts.Properties == nil {
		opts.Properties = properties.All()
	}
	suite := godog.TestSuite{Options: &godog.Options{FS: opts.Features, Paths: []string{"."}}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, fmt.Errorf("reading features: %w", err)
	}
	var out []Case
	seen := map[string]string{}
	for _, f := range feats {
		for _, p := range f.Pickles {
			tags := make([]string, len(p.Tags))
			for i, t := range p.Tags {
				tags[i] = t.Name
			}
			c, err := ScenarioCase(p.Name, p.Uri, tags)
			if err != nil {
				return nil, err
			}
			if prev, dup := seen[c.ID]; dup {
				return nil, fmt.Errorf("two scenarios have the ID %s (%s and %s): give one a distinct name", c.ID, prev, p.Uri)
			}
			seen[c.ID] = p.Uri
			out = append(out, c)
		}
	}
	for _, p := range opts.Properties {
		c := propertyCase(p)
		if _, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("two cases have the ID %s", c.ID)
		}
		seen[c.ID] = "properties"
		out = append(out, c)
	}
	return out, nil
}

func propertyCase(p properties.Property) Case {
	return Case{ID: p.ID, Kind: Property, Name: p.Doc, Clauses: p.Clauses, Capability: p.Capability}
}

// scenarioPaths are the godog paths that hold every selected scenario:
// "." for all, or "file:line" for each selected scenario (an outline's
// line stands for all its examples), so that godog does not prepare the
// steps of hundreds of scenarios only to skip them. Nil means none is
// selected.
func scenarioPaths(opts Options) ([]string, error) {
	if opts.Run == nil && opts.Skip == nil {
		return []string{"."}, nil
	}
	suite := godog.TestSuite{Options: &godog.Options{FS: opts.Features, Paths: []string{"."}}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, fmt.Errorf("reading features: %w", err)
	}
	var paths []string
	seen := map[string]bool{}
	for _, f := range feats {
		for _, p := range f.Pickles {
			tags := make([]string, len(p.Tags))
			for i, t := range p.Tags {
				tags[i] = t.Name
			}
			c, err := ScenarioCase(p.Name, p.Uri, tags)
			if err != nil {
				return nil, err
			}
			sc := f.FindScenario(p.AstNodeIds[0])
			if !opts.selected(c.ID) || sc == nil {
				continue
			}
			path := fmt.Sprintf("%s:%d", p.Uri, sc.Location.Line)
			if !seen[path] {
				seen[path] = true
				paths = append(paths, path)
			}
		}
	}
	return paths, nil
}

// lineSuffix is the ":line" godog appends to the URI of a scenario
// selected by line.
var lineSuffix = regexp.MustCompile(`:[0-9]+$`)

func runScenarios(g *guard, opts Options) ([]Result, error) {
	info := g.Info()
	var (
		results  []Result
		setupErr error
	)
	paths, err := scenarioPaths(opts)
	if err != nil || paths == nil {
		return nil, err
	}
	suite := godog.TestSuite{
		Name: "convspec",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			steps.Register(sc, g.target())
			var (
				current     Case
				stepSkipped bool
				started     time.Time
			)
			sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
				tags := make([]string, len(p.Tags))
				for i, t := range p.Tags {
					tags[i] = t.Name
				}
				c, err := ScenarioCase(p.Name, lineSuffix.ReplaceAllString(p.Uri, ""), tags)
				switch {
				case err != nil:
					setupErr = err
					return ctx, godog.ErrSkip
				case !opts.selected(c.ID):
					return ctx, godog.ErrSkip
				case g.ctx.Err() != nil:
					return ctx, godog.ErrSkip
				case c.Capability != "" && !info.Has(c.Capability):
					results = append(results, Result{Case: c, Outcome: NotApplicable, Detail: "capability " + c.Capability + " not declared"})
					return ctx, godog.ErrSkip
				case g.limitReached:
					results = append(results, notRun(c))
					return ctx, godog.ErrSkip
				}
				current, stepSkipped, started = c, false, time.Now()
				g.begin()
				return ctx, nil
			})
			sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
				if errors.Is(err, godog.ErrSkip) {
					stepSkipped = true
				}
				return ctx, nil // the hook's own error: none
			})
			sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
				var r Result
				switch {
				case current.ID == "":
					// not selected, not applicable or not run: already accounted for
				case g.ctx.Err() != nil:
					// interrupted: the outcome is the cancellation's, not the implementation's
				case g.limited && (g.failure == nil || errors.Is(err, target.ErrRestartLimit)):
					r = notRun(current)
				case stepSkipped && err == nil:
					r = Result{Case: current, Outcome: NotApplicable, Detail: "the target cannot run a step of this scenario (raw protocol lines)"}
				default:
					r = g.settle(classify(current, err))
				}
				if r.ID != "" {
					r.Duration = time.Since(started)
					results = append(results, r)
				}
				current = Case{}
				return ctx, nil
			})
		},
		Options: &godog.Options{
			Format:         "progress",
			Output:         io.Discard,
			FS:             opts.Features,
			Paths:          paths,
			Strict:         true,
			Concurrency:    1, // the results slice and the target are shared
			NoColors:       true,
			DefaultContext: g.ctx,
		},
	}
	suite.Run()
	if setupErr != nil {
		return nil, setupErr
	}
	return results, nil
}

// classify turns a scenario's error into an outcome.
func classify(c Case, err error) Result {
	r := Result{Case: c, Outcome: Passed}
	if err == nil {
		return r
	}
	r.Detail = err.Error()
	var f *target.Failure
	var pe *protocol.Error
	switch {
	case errors.As(err, &f):
		r.Outcome = Outcome(f.Outcome)
	case errors.As(err, &pe) && pe.Kind() == protocol.KindUnsupported:
		r.Outcome = Unsupported
	case errors.Is(err, godog.ErrSkip):
		r.Outcome = NotApplicable
	default:
		r.Outcome = Failed
	}
	return r
}

func runProperties(g *guard, opts Options) ([]Result, error) {
	info := g.Info()
	var out []Result
	for _, p := range opts.Properties {
		c := propertyCase(p)
		switch {
		case !opts.selected(c.ID), g.ctx.Err() != nil:
			continue
		case !info.Has(p.Capability):
			out = append(out, Result{Case: c, Outcome: NotApplicable, Detail: "capability " + p.Capability + " not declared"})
			continue
		case g.limitReached:
			out = append(out, notRun(c))
			continue
		}
		g.begin()
		started := time.Now()
		r, err := runProperty(c, p, g, opts)
		switch {
		case err != nil:
			return nil, err
		case g.ctx.Err() != nil:
			continue // interrupted: the outcome is the cancellation's
		case g.limited && g.failure == nil:
			r = notRun(c)
		case g.limited:
			r.Detail += "\n(the restart limit was reached during this property)"
		}
		r.Duration = time.Since(started)
		out = append(out, r)
	}
	return out, nil
}

var (
	rapidMu   sync.Mutex
	rapidOnce sync.Once
	seedRe    = regexp.MustCompile(`-rapid\.seed=(\d+)`)
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
	for name, value := range map[string]string{
		"rapid.checks":     strconv.Itoa(checks),
		"rapid.seed":       strconv.FormatUint(opts.Seed, 10),
		"rapid.nofailfile": "true",
	} {
		if err := flag.Set(name, value); err != nil {
			return fmt.Errorf("configuring rapid: %w", err)
		}
	}
	return nil
}

func runProperty(c Case, p properties.Property, g *guard, opts Options) (Result, error) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	if err := prepareRapid(opts); err != nil {
		return Result{}, err
	}
	tg := g.target()
	tb := &propertyTB{name: c.ID}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				tb.failed = true
				fmt.Fprintf(&tb.out, "panic: %v\n", r)
			}
		}()
		rapid.Check(tb, func(t *rapid.T) { p.Check(t, tg) })
	}()
	r := Result{Case: c, Outcome: Passed, Seed: opts.Seed}
	if !tb.failed {
		return r, nil
	}
	r.Outcome = Failed
	r.Detail = strings.TrimSpace(tb.out.String())
	if m := seedRe.FindStringSubmatch(r.Detail); m != nil {
		r.Seed, _ = strconv.ParseUint(m[1], 10, 64)
	}
	// rapid's advice names `go test` flags; the reports say how to rerun
	// the case with conform instead.
	r.Detail = trimRapidOutput(goTestAdvice.ReplaceAllString(r.Detail, ""))
	return g.settle(r), nil
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

// goTestAdvice is rapid's line on how to rerun a failure under `go test`.
var goTestAdvice = regexp.MustCompile(`(?m)^To (?:try to )?reproduce, specify -run=.*\n?`)

var errFailNow = errors.New("property failed")

// propertyTB is the rapid.TB a property reports to outside `go test`.
type propertyTB struct {
	name   string
	failed bool
	out    strings.Builder
}

func (t *propertyTB) Helper()                    {}
func (t *propertyTB) Name() string               { return t.name }
func (t *propertyTB) Logf(f string, args ...any) { fmt.Fprintf(&t.out, f+"\n", args...) }
func (t *propertyTB) Log(args ...any)            { fmt.Fprintln(&t.out, args...) }
func (t *propertyTB) Skipf(f string, args ...any) {
	t.Logf(f, args...)
	panic(errFailNow)
}
func (t *propertyTB) Skip(args ...any) { t.Log(args...); panic(errFailNow) }
func (t *propertyTB) SkipNow()         { panic(errFailNow) }
func (t *propertyTB) Errorf(f string, args ...any) {
	t.failed = true
	t.Logf(f, args...)
}
func (t *propertyTB) Error(args ...any) { t.failed = true; t.Log(args...) }
func (t *propertyTB) Fatalf(f string, args ...any) {
	t.Errorf(f, args...)
	panic(errFailNow)
}
func (t *propertyTB) Fatal(args ...any) { t.Error(args...); panic(errFailNow) }
func (t *propertyTB) FailNow()          { t.failed = true; panic(errFailNow) }
func (t *propertyTB) Fail()             { t.failed = true }
func (t *propertyTB) Failed() bool      { return t.failed }
