package runner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/prop"
)

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
	// pool is the run's pool of workers, told when the restart limit is
	// reached; nil for a guard outside a run.
	pool *pool
	// epochs are the cases this worker ran, in order, with the request
	// ids they began after (see chargeStrays).
	epochs []epoch
	// caseID is the case this worker runs (open).
	caseID string
	// answers are the run's shared answers as this worker asks them; nil
	// outside a run.
	answers *prop.Answers
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

// RunAnswers returns the run's shared answers (D-97) as this worker asks
// them, nil for a guard outside a run (see prop.AnswersOf).
func (g *guard) RunAnswers() *prop.Answers { return g.answers }

// Asking implements prop.Asker: the case this worker runs.
func (g *guard) Asking() string { return g.caseID }

// LastSent implements prop.Asker: the request this worker's last call
// sent, named as its stray lines are (chargeStrays).
func (g *guard) LastSent() prop.Request {
	if st, ok := g.Target.(strayer); ok {
		return prop.Request{Worker: g, ID: st.LastRequestID()}
	}
	return prop.Request{}
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
		g.limited = true
		if g.pool != nil {
			g.pool.limitReached.Store(true)
		}
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
func (g *guard) settle(r result.Result) result.Result {
	if r.Outcome == result.Passed || r.Outcome == result.NotApplicable {
		return r
	}
	switch {
	case g.failure != nil:
		r.Outcome = result.Outcome(g.failure.Outcome)
		if tail := g.failure.StderrTail; tail != "" && !strings.Contains(r.Detail, stderrHeading) {
			r.Detail = strings.TrimRight(r.Detail, "\n") + "\n" + stderrHeading + "\n" + indentTail(tail)
		}
	case g.unsupported != nil && r.Outcome == result.Failed:
		r.Outcome = result.Unsupported
		if !strings.Contains(r.Detail, g.unsupported.Error()) {
			r.Detail = strings.TrimRight(r.Detail, "\n") + "\nthe implementation answered: " + g.unsupported.Error()
		}
	}
	if r.Outcome != result.Failed {
		r.Deviations = nil // not a deviation: the implementation did not answer, or declined
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
func notRun(c result.Case) result.Result {
	return result.Result{Case: c, Outcome: result.Crash, NotRun: true,
		Detail: result.NotRunDetail + " before this case: the implementation failed more often than -max-restarts allows"}
}
