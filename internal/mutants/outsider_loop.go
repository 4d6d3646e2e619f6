package mutants

// Outsider variants of the capability loop (LOOP-*): the provider loop's
// trims and events, each the reference with one fault point on (D-68).

import "github.com/convspec/convspec/internal/fault"

func outsiderLoopMutants() []Mutant {
	return []Mutant{
		// loop.run, max_messages 10, an iteration ending with 8 messages:
		// 8 is not above 80 % of 10, no approaching event; the variant
		// emits one.
		pointVariant("outsider-loop-approaching-inclusive", "emits conversation_approaching_limit at exactly 80 % of max_messages", fault.LoopApproachingInclusive, "LOOP-4"),

		// loop.run with {"max_messages":0,"preserve_first_n":0}: the
		// window is disabled, nothing is raised; the variant still
		// emits preserve_first_raised.
		pointVariant("outsider-loop-raised-when-disabled", "emits preserve_first_raised for preserve_first_n 0 even when max_messages 0 disables the window", fault.LoopRaisedWhenDisabled, "LOOP-2"),

		// loop.run with preserve_first_n 0 and two iterations: the event
		// belongs to the first iteration only; the variant repeats it.
		pointVariant("outsider-loop-raised-every-iteration", "emits preserve_first_raised in every iteration instead of once", fault.LoopRaisedEveryIteration, "LOOP-2"),

		// loop.run max_messages 4, one iteration whose one turn adds an
		// assistant tool call and its result to 3 messages: the state at
		// the iteration's end is trimmed to 4; the variant leaves 6.
		pointVariant("outsider-loop-no-final-trim", "trims only before each provider request, not after the last turn's results", fault.LoopNoFinalTrim, "LOOP-1", "LOOP-3"),
	}
}
