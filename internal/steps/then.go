package steps

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

// Every Then of a scenario is checked. Once the When has run, a failing
// Then does not stop the scenario: it is recorded as a deviation with its
// clause, the next Then is checked, and the scenario ends in one error
// that lists them all (Deviations). A failed Given or When still ends the
// scenario, as does a transport failure in any step.

// Deviation is one failing Then of a scenario.
type Deviation struct {
	// Clause is the clause the step checks: the scenario's first clause
	// of the step's level (see clauseFor).
	Clause string
	// Step is the step's text.
	Step string
	// Err says what differs.
	Err error
	// exchange is the request and response Err ends with, if any: shown
	// once for deviations that share it.
	exchange string
}

// Deviations are every failing Then of one scenario, in order.
type Deviations []Deviation

// Error is the single deviation's message, or every deviation's, each
// under its clause and step.
func (d Deviations) Error() string {
	if len(d) == 1 {
		return d[0].Err.Error()
	}
	shared := d[0].exchange
	for _, x := range d {
		if x.exchange != shared {
			shared = ""
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d deviations:", len(d))
	for i, x := range d {
		text := x.Err.Error()
		if shared != "" {
			text = strings.TrimSuffix(text, shared)
		}
		fmt.Fprintf(&b, "\n%d. %s — Then %s\n%s", i+1, x.Clause, x.Step, indent(text, "   "))
	}
	if shared != "" {
		b.WriteString(shared)
	}
	return b.String()
}

func indent(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// tracking keeps the world informed of the scenario's clauses and of the
// step under way, and turns the recorded deviations into the scenario's
// error.
func (w *world) tracking(sc *godog.ScenarioContext) {
	sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
		w.clauses = w.clauses[:0]
		for _, t := range p.Tags {
			w.clauses = append(w.clauses, strings.TrimPrefix(t.Name, "@"))
		}
		w.deviations = nil
		return ctx, nil
	})
	sc.StepContext().Before(func(ctx context.Context, st *godog.Step) (context.Context, error) {
		w.step = st.Text
		return ctx, nil
	})
	sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
		if len(w.deviations) == 0 {
			return ctx, nil
		}
		return ctx, w.deviations
	})
}

// run runs a step on recv. A Then's failure is recorded as a deviation
// and the step passes, so that the next Then is checked; a transport
// failure still ends the scenario.
func (w *world) run(s *step, recv reflect.Value, args []reflect.Value) []reflect.Value {
	var err error
	if s.kind != diagnostic || w.tg.Info().HasLevel(protocol.LevelDiagnostics) {
		err = s.call(recv, args) // a diagnostic is not checked otherwise (D-42)
	}
	var f *target.Failure
	if (s.kind == then || s.kind == diagnostic) && err != nil && !errors.As(err, &f) {
		// A Then that checks several subjects (every declared trimmer)
		// reports each failing one as a deviation of its own, under the
		// clause it breaks when that is not the step's (a crash: ANY-9).
		for _, e := range separate(err) {
			d := Deviation{Clause: w.clauseFor(s.kind == diagnostic), Step: w.step, Err: e}
			var ce *ClauseError
			if errors.As(e, &ce) {
				d.Clause = ce.Clause
			}
			if ex := w.tg.exchange(); ex != "" && strings.HasSuffix(e.Error(), ex) {
				d.exchange = ex
			}
			w.deviations = append(w.deviations, d)
		}
		err = nil
	}
	return []reflect.Value{reflect.ValueOf(&err).Elem()}
}

// clauseFor names the clause a Then checks: for a diagnostic step the
// scenario's first diagnostics clause, otherwise its first clause of
// another level; the scenario's first clause when it has none such.
func (w *world) clauseFor(diagnostic bool) string {
	var first string
	for _, id := range w.clauses {
		c, ok := spec.Lookup(id)
		if !ok {
			continue
		}
		if first == "" {
			first = id
		}
		if (c.Level == spec.LevelDiagnostics) == diagnostic {
			return id
		}
	}
	return first
}

// ClauseError is a Then's failure under a clause other than the one the
// step checks: a trimmer that crashes fails ANY-9 whatever the scenario
// checks (D-60), and is a cause of its own in the report.
type ClauseError struct {
	Clause string
	Err    error
}

func (e *ClauseError) Error() string { return e.Clause + ": " + e.Err.Error() }

func (e *ClauseError) Unwrap() error { return e.Err }

// separate is the errors joined in err (errors.Join), or err alone.
func separate(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
