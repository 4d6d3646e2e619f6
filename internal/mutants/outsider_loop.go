package mutants

// Outsider variants of the capability loop (LOOP-*): the provider loop's
// trims and events, each the reference with one fault point on (D-68).

import "github.com/convspec/convspec/internal/fault"

func outsiderLoopMutants() []Mutant {
	return []Mutant{
		{
			// loop.run, max_messages 10, an iteration ending with 8 messages:
			// 8 is not above 80 % of 10, no approaching event; the variant
			// emits one.
			Name: "outsider-loop-approaching-inclusive", Bug: "emits conversation_approaching_limit at exactly 80 % of max_messages",
			Clauses: []string{"LOOP-4"},
			Faults:  fault.Of(fault.LoopApproachingInclusive),
		},
		{
			// loop.run with {"max_messages":0,"preserve_first_n":0}: the
			// window is disabled, nothing is raised; the variant still
			// emits preserve_first_raised.
			Name: "outsider-loop-raised-when-disabled", Bug: "emits preserve_first_raised for preserve_first_n 0 even when max_messages 0 disables the window",
			Clauses: []string{"LOOP-2"},
			Faults:  fault.Of(fault.LoopRaisedWhenDisabled),
		},
		{
			// loop.run with preserve_first_n 0 and two iterations: the event
			// belongs to the first iteration only; the variant repeats it.
			Name: "outsider-loop-raised-every-iteration", Bug: "emits preserve_first_raised in every iteration instead of once",
			Clauses: []string{"LOOP-2"},
			Faults:  fault.Of(fault.LoopRaisedEveryIteration),
		},
		{
			// loop.run max_messages 4, one iteration whose one turn adds an
			// assistant tool call and its result to 3 messages: the state at
			// the iteration's end is trimmed to 4; the variant leaves 6.
			Name: "outsider-loop-no-final-trim", Bug: "trims only before each provider request, not after the last turn's results",
			Clauses: []string{"LOOP-1", "LOOP-3"},
			Faults:  fault.Of(fault.LoopNoFinalTrim),
		},
	}
}
