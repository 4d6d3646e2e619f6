package fault

// Points of reference/loop's provider loop (LOOP-*).
const (
	// LoopApproachingInclusive warns at exactly 80 % of the cap, not
	// only above it (LOOP-5).
	LoopApproachingInclusive Point = "loop.approaching-inclusive"
	// LoopRaisedWhenDisabled reports preserve_first_raised even when
	// max_messages 0 disables the window (LOOP-2).
	LoopRaisedWhenDisabled Point = "loop.raised-when-disabled"
	// LoopRaisedEveryIteration reports preserve_first_raised in every
	// iteration, not once (LOOP-2).
	LoopRaisedEveryIteration Point = "loop.raised-every-iteration"
	// LoopNoFinalTrim trims only before each request, not once more at
	// the iteration's end (LOOP-1, LOOP-3).
	LoopNoFinalTrim Point = "loop.no-final-trim"
)

func loopPoints() []Point {
	return []Point{LoopApproachingInclusive, LoopRaisedWhenDisabled, LoopRaisedEveryIteration, LoopNoFinalTrim}
}
