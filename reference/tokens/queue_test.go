package tokens

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestPairQueueOrder checks both modes of pairQueue against the order it
// promises, lowest rank first and leftmost first among equal ranks, on
// random adds, pushes and pops: pushes in any order of start, to ranks
// below, at and above the last one popped, and to ranks emptied before.
func TestPairQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, buckets := range []bool{false, true} {
		var q pairQueue
		for round := range 300 {
			q.reset(buckets)
			var want []uint64 // the keys queued, rank<<32 | start
			ranks := 1 + rng.IntN(50)
			for i := range rng.IntN(200) {
				r := uint32(rng.IntN(ranks))
				q.add(r, uint32(i))
				want = append(want, uint64(r)<<32|uint64(i))
			}
			q.ready()
			for step := 0; ; step++ {
				if rng.IntN(3) == 0 && step < 400 {
					r, s := uint32(rng.IntN(ranks)), uint32(rng.IntN(1000))
					q.push(r, s)
					want = append(want, uint64(r)<<32|uint64(s))
					continue
				}
				r, s, ok := q.pop()
				if len(want) == 0 {
					if ok {
						t.Fatalf("buckets %v, round %d: pop gave (%d, %d) from an empty queue", buckets, round, r, s)
					}
					break
				}
				least := slices.Min(want)
				want = slices.Delete(want, slices.Index(want, least), slices.Index(want, least)+1)
				if !ok || uint64(r)<<32|uint64(s) != least {
					t.Fatalf("buckets %v, round %d, step %d: pop gave (%d, %d, %v), want (%d, %d)", buckets, round, step, r, s, ok, least>>32, uint32(least))
				}
			}
		}
	}
}
