package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
)

// ShutdownCase is the lifecycle's end as a case of its own (D-41): after
// every other case, each worker is sent shutdown and must answer it and
// exit with status 0 (spec/protocol.md, "Lifecycle"). It runs whatever -run
// and -skip select, and comes last, so that a failure is not blamed on the
// last scenario.
var ShutdownCase = result.Case{
	ID:      "lifecycle/shutdown",
	Kind:    result.Scenario,
	Name:    "the implementation answers shutdown with a result and exits with status 0 (protocol.md, Lifecycle)",
	Clauses: []string{"PROTO-1"},
}

// shutdowner is a target whose lifecycle's end can be checked: a
// *target.Process.
type shutdowner interface {
	Shutdown(ctx context.Context) error
}

// Shutdown ends every target once the run is over: a process is shut down
// and checked (see target.(*Process).Shutdown), any other target closed. It
// returns the result of ShutdownCase, or nil when no target is a process.
// A worker that fails makes the case fail with the outcome of the first
// such worker; the detail names each one.
func Shutdown(ctx context.Context, targets []target.Target) *result.Result {
	start := time.Now()
	errs := make([]error, len(targets))
	checked := false
	var wg sync.WaitGroup
	for i, tg := range targets {
		sd, ok := tg.(shutdowner)
		if !ok {
			tg.Close()
			continue
		}
		checked = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = sd.Shutdown(ctx)
		}()
	}
	wg.Wait()
	if !checked {
		return nil
	}
	r := &result.Result{Case: ShutdownCase, Outcome: result.Passed}
	var details []string
	for i, err := range errs {
		if err == nil {
			continue
		}
		outcome, detail := shutdownOutcome(err)
		if r.Outcome == result.Passed {
			r.Outcome = outcome
		}
		if len(targets) > 1 {
			// After the first line's text, not before it: the cause a
			// baseline entry names is the same whatever -parallel (D-50).
			first, rest, _ := strings.Cut(detail, "\n")
			detail = strings.TrimRight(fmt.Sprintf("%s (worker %d of %d)\n%s", first, i+1, len(targets), rest), "\n")
		}
		details = append(details, detail)
	}
	r.Detail = strings.Join(details, "\n")
	r.Duration = time.Since(start)
	*r = r.Clipped() // D-52
	return r
}

// shutdownOutcome classifies a failed shutdown by its problem.
func shutdownOutcome(err error) (result.Outcome, string) {
	var se *target.ShutdownError
	if !errors.As(err, &se) {
		return result.ProtocolError, err.Error()
	}
	switch se.Problem {
	case target.ShutdownCrash, target.ShutdownNonZeroExit:
		return result.Crash, se.Report()
	case target.ShutdownTimeout:
		return result.Timeout, se.Report()
	case target.ShutdownEscaped:
		return result.ProtocolError, se.Report()
	default: // target.ShutdownGarbage
		return result.ProtocolError, se.Report()
	}
}
