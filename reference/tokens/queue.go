package tokens

import "slices"

// pairQueue holds the candidate pairs of mergeLong, each a rank and the
// position where the pair starts, and gives them back lowest rank first
// and, among equal ranks, leftmost first: the order of tiktoken's merges.
//
// On a part of up to bucketPiece bytes it is a binary min-heap of keys
// rank<<32 | start. On a longer part it is a bucket queue: one list of
// starts per rank, and a heap of the ranks that have one. Both give the
// same pairs in the same order (the order of the keys), but the heap of a
// megabyte of white space (millions of keys, run=spaces and run=newlines
// of BenchmarkCountLong) is mostly cache misses, while the starts of one
// rank are pushed, and popped, in increasing order: a merge never creates
// a pair of the rank being merged (the new pairs hold its token and more,
// so they are longer, other tokens), so a rank's list is sorted once, if
// at all, when its turn comes, and then read from left to right like the
// text.
type pairQueue struct {
	useBuckets bool

	heap []uint64 // heap mode: rank<<32 | start

	ranks    []uint64 // bucket mode: min-heap of the ranks with pairs
	bucketOf []int32  // bucket mode: by rank, the index in buckets or -1
	buckets  []bucket // bucket mode
}

// bucketPiece is the longest part whose pairs go into the heap.
// BenchmarkMergeQueue: on 256 bytes of random letters the heap is five
// times faster than the buckets (one bucket per pair, each a slice), on 4 kB
// the two are even on letters and the buckets twice as fast on white space,
// and on longer parts the buckets win on both.
const bucketPiece = 1 << 12

// bucket is the list of the starts of the pairs of one rank.
type bucket struct {
	rank   uint32
	starts []uint32
	next   int  // starts[:next] are popped
	sorted bool // starts[next:] are in increasing order
	queued bool // the rank is in ranks
}

// reset empties the queue and sets its mode.
func (q *pairQueue) reset(useBuckets bool) {
	q.heap = q.heap[:0]
	for _, b := range q.buckets {
		q.bucketOf[b.rank] = -1
	}
	q.buckets = q.buckets[:0]
	q.ranks = q.ranks[:0]
	q.useBuckets = useBuckets
	if q.useBuckets && q.bucketOf == nil {
		q.bucketOf = make([]int32, vocabularySize)
		for i := range q.bucketOf {
			q.bucketOf[i] = -1
		}
	}
}

// add queues a pair before the first pop, in increasing order of start.
func (q *pairQueue) add(rank, start uint32) {
	if q.useBuckets {
		q.push(rank, start)
		return
	}
	q.heap = append(q.heap, uint64(rank)<<32|uint64(start))
}

// ready ends the adds.
func (q *pairQueue) ready() {
	if !q.useBuckets {
		heapify(q.heap)
	}
}

// push queues a pair.
func (q *pairQueue) push(rank, start uint32) {
	if !q.useBuckets {
		q.heap = push(q.heap, uint64(rank)<<32|uint64(start))
		return
	}
	k := q.bucketOf[rank]
	if k < 0 {
		k = int32(len(q.buckets))
		if len(q.buckets) < cap(q.buckets) {
			q.buckets = q.buckets[:k+1]
		} else {
			q.buckets = append(q.buckets, bucket{})
		}
		b := &q.buckets[k]
		b.rank, b.starts, b.next, b.sorted, b.queued = rank, b.starts[:0], 0, true, false
		q.bucketOf[rank] = k
	}
	b := &q.buckets[k]
	if !b.queued {
		b.starts, b.next, b.sorted, b.queued = b.starts[:0], 0, true, true
		q.ranks = push(q.ranks, uint64(rank))
	}
	if b.sorted && len(b.starts) > b.next && start < b.starts[len(b.starts)-1] {
		b.sorted = false
	}
	b.starts = append(b.starts, start)
}

// pop takes the pair of lowest rank, the leftmost among equal ranks; ok is
// false when the queue is empty.
func (q *pairQueue) pop() (rank, start uint32, ok bool) {
	if !q.useBuckets {
		if len(q.heap) == 0 {
			return 0, 0, false
		}
		top := q.heap[0]
		q.heap = pop(q.heap)
		return uint32(top >> 32), uint32(top), true
	}
	for len(q.ranks) > 0 {
		rank := uint32(q.ranks[0])
		b := &q.buckets[q.bucketOf[rank]]
		if b.next == len(b.starts) {
			b.queued = false
			q.ranks = pop(q.ranks)
			continue
		}
		if !b.sorted {
			slices.Sort(b.starts[b.next:])
			b.sorted = true
		}
		start := b.starts[b.next]
		b.next++
		return rank, start, true
	}
	return 0, 0, false
}
