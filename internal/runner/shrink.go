package runner

import (
	"fmt"
	"reflect"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/deviation"
)

// DefaultShrinkSteps bounds the shrinking of one failing property (D-44):
// the executions of the property after its first failure, rapid's
// reproduction of it included. rapid's shrinker is thorough rather than
// quick: a one-character counting bug drawn in two 150-character messages
// takes about 21,000 executions to reach its one-message, one-character
// counterexample (about 2 s in process). The bound is what makes the
// minimal counterexample the same on a slow machine as on a fast one.
const DefaultShrinkSteps = 25000

// shrinkBound counts a property's executions after its first failure and,
// past the bound, answers rapid's shrinker "passes" without running the
// property, so that the shrinker keeps the smallest failing case it has.
//
// rapid bounds shrinking by wall time only (-rapid.shrinktime), which made
// the same seed print a larger counterexample on a loaded machine; the
// runner sets that time out of reach and counts steps instead. The
// shrinker runs each accepted candidate twice (once to try it, once to
// record it), and a second run that passed would be reported as a flaky
// test; so the bound takes effect only after an execution that passed,
// when the next execution is a new candidate — never between a
// candidate's two runs. Which executions run is then decided by the seed
// and the implementation's answers alone.
//
// rapid's last execution replays the counterexample to print its output;
// it is recognised by its log reaching the TB (shrinking runs log nowhere)
// and always runs.
type shrinkBound struct {
	tb    *propertyTB
	limit int

	failed     bool // the search has found a failure: what follows is shrinking
	steps      int  // executions since then
	lastPassed bool // the last execution ran and passed (or drew invalid data)
	stopped    bool // the bound was reached: nothing more runs
}

// replayProbe is logged at the start of every execution; only rapid's
// final replay passes it on to the TB.
type replayProbe struct{}

// play runs one execution of a property under the bound.
func (b *shrinkBound) play(t *rapid.T, check func()) {
	b.tb.replaying = false
	t.Log(replayProbe{})
	if b.tb.replaying {
		b.tb.parts = deviation.Parts{} // the replay's failure is the one reported
		check()
		return
	}
	if b.failed {
		if b.stopped || (b.steps >= b.limit && b.lastPassed) {
			b.stopped = true
			return // a pass: the candidate is not taken
		}
		b.steps++
	}
	completed := false
	defer func() {
		failed := t.Failed()
		if r := recover(); r != nil {
			failed = failed || !isInvalidData(r)
			defer panic(r)
		} else if !completed {
			failed = true // runtime.Goexit
		}
		b.lastPassed = !failed
		b.failed = b.failed || failed
	}()
	check()
	completed = true
}

// note is what a report adds when shrinking stopped at its bound.
func (b *shrinkBound) note() string {
	if !b.stopped {
		return ""
	}
	return fmt.Sprintf("(shrinking stopped at its bound of %d steps: the counterexample may not be the smallest)", b.limit)
}

// isInvalidData says whether a property's panic is rapid's "skip this
// case" (a filter that found no value, t.Skip): not a failure.
func isInvalidData(r any) bool {
	return reflect.TypeOf(r).String() == "rapid.invalidData"
}
