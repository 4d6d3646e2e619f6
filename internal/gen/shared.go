package gen

import "pgregory.net/rapid"

// Generators built once and shared: a rapid generator is immutable once
// built, and drawing from a shared one draws exactly what drawing from a
// fresh one with the same bounds does. Building a fresh one for every
// draw — several for every generated message — was a tenth of the
// generators' time.
//
// Only generators drawn from directly are shared. rapid labels a draw's
// group with its generator's name once something has asked for that name,
// and its shrinker compares the labels; a slice generator asks for its
// element generator's name at every draw, so a generator shared between a
// rapid.SliceOf and a direct draw would label the direct draws otherwise
// than a fresh one did. The generators of the lists drawn from live beside
// the code that draws them (emit.go, conv.go, content.go, messages.go).

// smallRanges holds rapid.IntRange(lo, hi) for 0 ≤ lo ≤ hi < 16.
var smallRanges = func() (out [16][16]*rapid.Generator[int]) {
	for lo := range out {
		for hi := lo; hi < len(out); hi++ {
			out[lo][hi] = rapid.IntRange(lo, hi)
		}
	}
	return out
}()

// intRange is rapid.IntRange(lo, hi), shared when the bounds are small.
func intRange(lo, hi int) *rapid.Generator[int] {
	if 0 <= lo && lo <= hi && hi < len(smallRanges) {
		return smallRanges[lo][hi]
	}
	return rapid.IntRange(lo, hi)
}

// anyBool is rapid.Bool().
var anyBool = rapid.Bool()
