package runner

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/properties"
)

func runProperties(g *guard, opts Options) ([]Result, error) {
	info := g.Info()
	var out []Result
	for _, p := range opts.Properties {
		c := propertyCase(p)
		switch {
		case !opts.selected(c.ID), g.ctx.Err() != nil:
			continue
		case notApplicable(info, c) != "":
			out = append(out, Result{Case: c, Outcome: NotApplicable, Detail: notApplicable(info, c)})
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
	tb := &propertyTB{name: c.ID, ctx: properties.WithFormats(g.ctx, tg.Info().Formats)}
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
	r.Deviations = []Deviation{propertyDeviation(c, r.Detail)}
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

// failureClause finds the clause a property's failure names first
// ("WIN-6: trimmed holds 11 messages…").
var failureClause = regexp.MustCompile(`\b([A-Z]+-[0-9]+): (.*)`)

// propertyDeviation is a property's failure as a deviation: the clause
// its message names (the property's first clause when it names none), and
// the message from there on.
func propertyDeviation(c Case, detail string) Deviation {
	if m := failureClause.FindStringSubmatchIndex(detail); m != nil {
		return Deviation{Clause: detail[m[2]:m[3]], Detail: detail[m[4]:]}
	}
	d := Deviation{Detail: detail}
	if len(c.Clauses) > 0 {
		d.Clause = c.Clauses[0]
	}
	return d
}

// goTestAdvice is rapid's line on how to rerun a failure under `go test`.
var goTestAdvice = regexp.MustCompile(`(?m)^To (?:try to )?reproduce, specify -run=.*\n?`)
