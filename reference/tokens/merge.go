package tokens

import "math"

// The byte-pair merge turns a piece (one match of the pre-tokenization
// pattern) into tokens. It starts from one part per byte and repeatedly
// merges the adjacent pair of parts whose concatenation has the lowest rank
// in the vocabulary, the leftmost such pair on a tie, until no adjacent
// pair is a token. That is tiktoken's _byte_pair_merge and tiktoken-go's
// mergePairs; the tokens are the final parts.
//
// Done literally, each merge scans every pair for the lowest: O(n²) for a
// piece of n bytes, which is seconds for a 100 kB word and minutes for a
// megabyte. mergeLong does the same merges in the same order in
// O(n log n), and mergeShort keeps the literal algorithm, which is faster
// on pieces of a few bytes.
//
// Before either, merge cuts a long piece where no token can cross: between
// two bytes that are consecutive in no token of the vocabulary (a "free"
// pair, see tables.inner). Every part the merge ever builds is a token, so
// no part ever spans such a cut; the pair across it is never a candidate,
// and the merges on either side happen in the same order as when each side
// is merged alone. So the tokens of the piece are the tokens of its parts,
// exactly, and the parts are short: in random mixed-case letters one
// position in five is a cut, in emoji one in two. A piece without a cut
// (a run of one letter, say) still takes the O(n log n) of mergeLong.

// shortPiece is the longest piece mergeShort handles. BenchmarkMergeThreshold
// puts the crossover between 6 and 12 bytes: below, mergeShort is up to a
// third faster (no heap to build); from 12 bytes on, mergeLong is faster.
const shortPiece = 8

// noRank marks a pair that is not a token (and a part merged away).
const noRank = math.MaxUint32

// mergeState holds the scratch space of the merges of one text, reused from
// piece to piece.
type mergeState struct {
	parts []part // mergeShort

	next, prev []uint32  // mergeLong: the list of parts
	rank       []uint32  // mergeLong: rank of the pair starting at a part
	id         []uint32  // mergeLong: token of a part
	queue      pairQueue // mergeLong: the candidate pairs
}

// part is a part of mergeShort: where it starts in the piece, the token it
// is and the rank of the pair it starts.
type part struct {
	start uint32
	id    uint32
	rank  uint32
}

// merge appends the tokens of piece, which is not itself a token, to dst.
func (t *tables) merge(m *mergeState, piece string, dst []int) []int {
	t.mergeEach(m, piece, nil, func(ids []int) { dst = append(dst, ids...) })
	return dst
}

// emitBatch is how many ids mergeEach gathers before it hands them on.
const emitBatch = 1024

// mergeEach hands the tokens of piece, which is not itself a token, to
// emit, in order, in one or more slices of buf's array (grown if need be,
// and returned for reuse). Handing them on part by part, once a thousand
// have gathered, keeps buf small: a megabyte word has 657,519 tokens, and
// gathering them all cost 26 MB of allocations per Count and put the
// growth of run=letters (BenchmarkCountLong) at x13 per tenfold.
func (t *tables) mergeEach(m *mergeState, piece string, buf []int, emit func(ids []int)) []int {
	if len(piece) <= shortPiece {
		buf = t.mergeShort(m, piece, buf[:0])
		emit(buf)
		return buf
	}
	buf = buf[:0]
	start := 0
	for p := 1; p < len(piece); p++ {
		if !t.isInner(piece[p-1], piece[p]) { // no token spans p: cut
			buf = t.mergePart(m, piece[start:p], buf)
			start = p
			if len(buf) >= emitBatch {
				emit(buf)
				buf = buf[:0]
			}
		}
	}
	buf = t.mergePart(m, piece[start:], buf)
	emit(buf)
	return buf
}

// mergePart appends the tokens of a part of a piece, without cutting it.
// A part that is itself a token is merged all the same: only a whole piece
// that is a token is taken as one (tiktoken's rule), and the merge of a
// part need not end in one token.
func (t *tables) mergePart(m *mergeState, part string, dst []int) []int {
	if len(part) <= shortPiece {
		return t.mergeShort(m, part, dst)
	}
	return t.mergeLong(m, part, dst)
}

// isInner reports whether the bytes a, b are consecutive in some token.
func (t *tables) isInner(a, b byte) bool {
	i := int(a)<<8 | int(b)
	return t.inner[i>>6]&(1<<(i&63)) != 0
}

// rankOf is the rank of piece[start:end], or noRank if it is not a token.
func (t *tables) rankOf(piece string, start, end int) uint32 {
	switch n := end - start; {
	case n == 2:
		return t.pairRank[int(piece[start])<<8|int(piece[start+1])]
	case n > t.maxTokenLen:
		return noRank
	}
	if r, ok := t.ranks[piece[start:end]]; ok {
		return uint32(r)
	}
	return noRank
}

// mergeShort is tiktoken-go v0.7.0's mergePairs: a slice of parts, scanned
// for the lowest-ranked pair (the first one on a tie) before every merge.
func (t *tables) mergeShort(m *mergeState, piece string, dst []int) []int {
	n := len(piece)
	parts := m.parts[:0]
	for i := range n {
		parts = append(parts, part{start: uint32(i), id: t.byteRank[piece[i]], rank: noRank})
	}
	parts = append(parts, part{start: uint32(n), rank: noRank}) // the end
	m.parts = parts
	for i := 0; i+2 < len(parts); i++ {
		parts[i].rank = t.pairRank[int(piece[i])<<8|int(piece[i+1])]
	}
	// pairAfter is the rank of part i merged with parts i+1 and i+2, as the
	// pair part i starts once parts i and i+1 are one.
	pairAfter := func(i int) uint32 {
		if i+3 < len(parts) {
			return t.rankOf(piece, int(parts[i].start), int(parts[i+3].start))
		}
		return noRank
	}
	for len(parts) > 2 {
		best, at := uint32(noRank), 0
		for i, p := range parts[:len(parts)-2] {
			if p.rank < best {
				best, at = p.rank, i
			}
		}
		if best == noRank {
			break
		}
		parts[at].id = best
		parts[at].rank = pairAfter(at)
		if at > 0 {
			parts[at-1].rank = pairAfter(at - 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	for _, p := range parts[:len(parts)-1] {
		dst = append(dst, int(p.id))
	}
	return dst
}

// mergeLong makes the merges of mergeShort in O(n log n): the parts are a
// doubly linked list (a merge is O(1) instead of a copy), and the pairs
// wait in a min-heap keyed by rank<<32 | start, so the lowest rank comes
// out first and, among equal ranks, the leftmost pair. A merge changes
// only two pairs, the merged part's and its left neighbour's, and pushes
// them anew; their old entries stay in the heap and are skipped when
// popped (lazy invalidation): an entry is current exactly when its rank is
// still the rank of the pair at its start. A pair that grows is longer,
// hence a different byte string, hence a different rank, and a part merged
// away gets noRank, so a stale entry never passes for a current one.
func (t *tables) mergeLong(m *mergeState, piece string, dst []int) []int {
	return t.mergeLongWith(m, piece, dst, len(piece) > bucketPiece)
}

// mergeLongWith is mergeLong with its queue of pairs in buckets or not
// (pairQueue), which the tests choose.
func (t *tables) mergeLongWith(m *mergeState, piece string, dst []int, buckets bool) []int {
	n := len(piece)
	next := grow(m.next, n)
	prev := grow(m.prev, n)
	rank := grow(m.rank, n)
	id := grow(m.id, n)
	m.next, m.prev, m.rank, m.id = next, prev, rank, id
	q := &m.queue
	q.reset(buckets)
	for i := range n {
		next[i] = uint32(i + 1)
		prev[i] = uint32(i - 1) // wraps for i = 0, never read
		id[i] = t.byteRank[piece[i]]
		rank[i] = noRank
		if i+1 < n {
			if r := t.pairRank[int(piece[i])<<8|int(piece[i+1])]; r != noRank {
				rank[i] = r
				q.add(r, uint32(i))
			}
		}
	}
	q.ready()
	for {
		r, i, ok := q.pop()
		if !ok {
			break
		}
		if rank[i] != r {
			continue // stale
		}
		// Merge part i with the part j after it.
		j := next[i]
		end := next[j]
		id[i] = r
		next[i] = end
		rank[j] = noRank
		rank[i] = noRank
		if end < uint32(n) {
			prev[end] = i
			if r := t.rankOf(piece, int(i), int(next[end])); r != noRank {
				rank[i] = r
				q.push(r, i)
			}
		}
		if i > 0 {
			p := prev[i]
			rank[p] = t.rankOf(piece, int(p), int(end))
			if rank[p] != noRank {
				q.push(rank[p], p)
			}
		}
	}
	for i := uint32(0); i < uint32(n); i = next[i] {
		dst = append(dst, int(id[i]))
	}
	return dst
}

// grow returns s resized to n, reusing its array when it is large enough.
func grow(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	return s[:n]
}

// heapify, push and pop maintain a binary min-heap of uint64.

func heapify(h []uint64) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i)
	}
}

func push(h []uint64, x uint64) []uint64 {
	h = append(h, x)
	i := len(h) - 1
	for i > 0 {
		parent := (i - 1) / 2
		if h[parent] <= x {
			break
		}
		h[i] = h[parent]
		i = parent
	}
	h[i] = x
	return h
}

func pop(h []uint64) []uint64 {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	if last > 0 {
		down(h, 0)
	}
	return h
}

func down(h []uint64, i int) {
	x := h[i]
	for {
		child := 2*i + 1
		if child >= len(h) {
			break
		}
		if child+1 < len(h) && h[child+1] < h[child] {
			child++
		}
		if x <= h[child] {
			break
		}
		h[i] = h[child]
		i = child
	}
	h[i] = x
}
