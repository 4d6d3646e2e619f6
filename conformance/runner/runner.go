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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/cucumber/godog"
	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/properties"
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/steps"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/features"
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
	// Seed reproduces a failed property.
	Seed uint64
}

// Options select and tune a run.
type Options struct {
	// Run and Skip select cases by ID (regular expressions, unanchored).
	Run, Skip *regexp.Regexp
	// Checks is the number of generated cases per property; 0 means 100.
	Checks int
	// Seed makes properties deterministic; 0 picks one at random.
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

// Run executes every selected case against tg, scenarios first.
func Run(ctx context.Context, tg target.Target, opts Options) ([]Result, error) {
	if opts.Features == nil {
		opts.Features = features.FS
	}
	if opts.Properties == nil {
		opts.Properties = properties.All()
	}
	results, err := runScenarios(ctx, tg, opts)
	if err != nil {
		return nil, err
	}
	props, err := runProperties(tg, opts)
	if err != nil {
		return nil, err
	}
	return append(results, props...), nil
}

var clauseTag = regexp.MustCompile(`^@([A-Z]+-[0-9]+)$`)

// knownCapabilities are the capability tags a scenario may carry.
var knownCapabilities = protocol.Capabilities()

// ScenarioCase derives a scenario's stable case from its name and tags:
// ID is "<first clause>/<name as kebab-case>".
func ScenarioCase(name, uri string, tags []string) (Case, error) {
	c := Case{Kind: Scenario, Name: name, Source: uri}
	for _, t := range tags {
		if m := clauseTag.FindStringSubmatch(t); m != nil {
			if !slices.Contains(c.Clauses, m[1]) {
				c.Clauses = append(c.Clauses, m[1])
			}
			continue
		}
		if cp := strings.TrimPrefix(t, "@"); slices.Contains(knownCapabilities, cp) {
			c.Capability = cp
			continue
		}
		return Case{}, fmt.Errorf("%s: scenario %q has tag %s, which is neither a clause ID nor a capability", uri, name, t)
	}
	if len(c.Clauses) == 0 {
		return Case{}, fmt.Errorf("%s: scenario %q is not tagged with any clause ID", uri, name)
	}
	c.ID = c.Clauses[0] + "/" + Slug(name)
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

func runScenarios(ctx context.Context, tg target.Target, opts Options) ([]Result, error) {
	info := tg.Info()
	var (
		results  []Result
		setupErr error
	)
	suite := godog.TestSuite{
		Name: "convspec",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			steps.Register(sc, tg)
			var (
				current     Case
				stepSkipped bool
			)
			sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
				tags := make([]string, len(p.Tags))
				for i, t := range p.Tags {
					tags[i] = t.Name
				}
				c, err := ScenarioCase(p.Name, p.Uri, tags)
				switch {
				case err != nil:
					setupErr = err
					return ctx, godog.ErrSkip
				case !opts.selected(c.ID):
					return ctx, godog.ErrSkip
				case c.Capability != "" && !info.Has(c.Capability):
					results = append(results, Result{Case: c, Outcome: NotApplicable, Detail: "capability " + c.Capability + " not declared"})
					return ctx, godog.ErrSkip
				}
				current = c
				return ctx, nil
			})
			sc.StepContext().After(func(ctx context.Context, st *godog.Step, status godog.StepResultStatus, err error) (context.Context, error) {
				if errors.Is(err, godog.ErrSkip) {
					stepSkipped = true
				}
				return ctx, nil // the hook's own error: none
			})
			sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
				switch {
				case current.ID == "":
					// not selected or not applicable: already accounted for
				case stepSkipped && err == nil:
					results = append(results, Result{Case: current, Outcome: NotApplicable, Detail: "the target cannot run a step of this scenario (raw protocol lines)"})
				default:
					results = append(results, classify(current, err))
				}
				current = Case{}
				return ctx, nil
			})
		},
		Options: &godog.Options{
			Format:         "progress",
			Output:         io.Discard,
			FS:             opts.Features,
			Paths:          []string{"."},
			Strict:         true,
			Concurrency:    1, // the results slice and the target are shared
			NoColors:       true,
			DefaultContext: ctx,
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

func runProperties(tg target.Target, opts Options) ([]Result, error) {
	info := tg.Info()
	var out []Result
	for _, p := range opts.Properties {
		c := propertyCase(p)
		if !opts.selected(c.ID) {
			continue
		}
		if !info.Has(p.Capability) {
			out = append(out, Result{Case: c, Outcome: NotApplicable, Detail: "capability " + p.Capability + " not declared"})
			continue
		}
		r, err := runProperty(c, p, tg, opts)
		if err != nil {
			return nil, err
		}
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

func runProperty(c Case, p properties.Property, tg target.Target, opts Options) (Result, error) {
	rapidMu.Lock()
	defer rapidMu.Unlock()
	if err := prepareRapid(opts); err != nil {
		return Result{}, err
	}
	watch := &failureWatch{Target: tg}
	tb := &propertyTB{name: c.ID}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				tb.failed = true
				fmt.Fprintf(&tb.out, "panic: %v\n", r)
			}
		}()
		rapid.Check(tb, func(t *rapid.T) { p.Check(t, watch) })
	}()
	r := Result{Case: c, Outcome: Passed}
	if !tb.failed {
		return r, nil
	}
	r.Outcome = Failed
	r.Detail = strings.TrimSpace(tb.out.String())
	if m := seedRe.FindStringSubmatch(r.Detail); m != nil {
		r.Seed, _ = strconv.ParseUint(m[1], 10, 64)
	}
	if watch.failure != nil {
		r.Outcome = Outcome(watch.failure.Outcome)
	}
	return r, nil
}

// failureWatch remembers the last transport failure during a property, so
// that a crash is reported as a crash and not as a wrong answer.
type failureWatch struct {
	target.Target
	failure *target.Failure
}

func (w *failureWatch) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	res, err := w.Target.Call(ctx, method, params)
	var f *target.Failure
	if errors.As(err, &f) {
		w.failure = f
	}
	return res, err
}

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
