package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// shrinkOnce checks a property that fails on any list holding a number of
// 10 or more, under a shrinkBound of limit steps, and returns its report
// and the steps counted. slow makes every execution take longer, as on a
// loaded machine.
func shrinkOnce(t *testing.T, limit int, slow time.Duration) (string, *shrinkBound) {
	t.Helper()
	rapidMu.Lock()
	defer rapidMu.Unlock()
	require.NoError(t, prepareRapid(Options{Seed: 7, Checks: 100}))
	tb := &propertyTB{name: "synthetic"}
	bound := &shrinkBound{tb: tb, limit: limit}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errFailNow {
				panic(r)
			}
		}()
		rapid.Check(tb, func(rt *rapid.T) {
			bound.play(rt, func() {
				time.Sleep(slow)
				xs := rapid.SliceOfN(rapid.IntRange(0, 1000), 1, 40).Draw(rt, "xs")
				for i, x := range xs {
					if x >= 10 {
						rt.Fatalf("xs[%d] = %d of %d numbers is 10 or more", i, x, len(xs))
					}
				}
			})
		})
	}()
	require.True(t, tb.failed, "the property must fail: %s", tb.out.String())
	out := tb.out.String()
	if note := bound.note(); note != "" {
		out += note
	}
	return out, bound
}

// Shrinking is bounded by steps, not by the clock (D-44): the same seed
// gives the same counterexample whether each execution is quick or slow,
// and the bound is reported when it stopped the shrinker.
func TestShrinkingIsBoundedBySteps(t *testing.T) {
	full, b := shrinkOnce(t, DefaultShrinkSteps, 0)
	assert.False(t, b.stopped, "the whole shrink fits the default bound")
	assert.Contains(t, full, "xs[0] = 10 of 1 numbers is 10 or more", "fully shrunk")

	cut, b := shrinkOnce(t, 3, 0)
	assert.True(t, b.stopped)
	assert.LessOrEqual(t, b.steps, 3+2, "the bound takes effect after the next passing execution")
	assert.Contains(t, cut, "shrinking stopped at its bound of 3 steps")
	assert.NotEqual(t, full, cut, "three steps do not reach the smallest case")

	slow, _ := shrinkOnce(t, 3, 2*time.Millisecond)
	assert.Equal(t, cut, slow, "a slower machine stops at the same case")
	again, _ := shrinkOnce(t, 3, 0)
	assert.Equal(t, cut, again)
	assert.False(t, strings.Contains(cut, "flaky"), "the bound never falls between a candidate's two runs: %s", cut)
}

// Wherever the bound falls, rapid never sees a candidate pass its second
// run (it would report a flaky test), and the report still holds a failing
// case.
func TestShrinkBoundIsSafeAtEveryStep(t *testing.T) {
	for limit := 1; limit <= 80; limit++ {
		out, _ := shrinkOnce(t, limit, 0)
		require.NotContains(t, out, "flaky", "bound %d", limit)
		require.Contains(t, out, "is 10 or more", "bound %d", limit)
	}
}
