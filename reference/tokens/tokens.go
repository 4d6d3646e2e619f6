// Package tokens counts tokens exactly as OpenAI's tiktoken does for the
// cl100k_base encoding (the tokenizer of GPT-4 and GPT-3.5-turbo), so that a
// token budget computed here is the budget the model sees.
//
// It is exact on every input: the golden vectors under
// testdata/golden/tokens were written by npm tiktoken (OpenAI's Rust core
// compiled to WebAssembly) and the tests compare every id. It is offline: the
// vocabulary is compiled in (cl100k_base.ranks, that of
// github.com/tiktoken-go/tokenizer v0.7.0) and nothing is downloaded. And it
// stays fast on the inputs agents produce: a tool result that is one huge
// word (a minified file, a base64 blob, a run of emoji) is cut where no
// token can cross and merged in O(n log n), rather than the O(n²) of the
// usual byte-pair merge, so a 1 MB word without spaces counts in well under
// a second.
//
// Text is always encoded as plain text: "<|endoftext|>" and the other special
// tokens are never produced, their text is split like any other (tiktoken's
// encode_ordinary, or encode with allowed_special and disallowed_special
// empty). Go strings may hold invalid UTF-8, which no tiktoken string can:
// each byte that is not part of a valid UTF-8 encoding is encoded as U+FFFD,
// the replacement character, as Go's []rune conversion reads it.
//
// The package has no mutable state: the tables are built once, on first use,
// and only read afterwards, so every function is safe for concurrent use.
package tokens

import (
	"fmt"
	"math"
	"sync"
	"unicode/utf8"
)

// Encode returns the cl100k_base token ids of text, in order.
// It returns nil for the empty text.
func Encode(text string) []int {
	var ids []int
	encode(text, func(piece []int) { ids = append(ids, piece...) })
	return ids
}

// Count returns the number of cl100k_base tokens in text: len(Encode(text)),
// without building the id slice.
func Count(text string) int {
	n := 0
	encode(text, func(piece []int) { n += len(piece) })
	return n
}

// vocabularySize is the number of ordinary (non-special) tokens of
// cl100k_base: ranks 0 to 100255, every one of them in use.
const vocabularySize = 100256

// maxText is the longest text the merge can index: positions are uint32.
const maxText = math.MaxUint32 - 1

// tables is what encoding needs, built once and never modified.
type tables struct {
	// ranks maps the bytes of each ordinary token to its id, which is also
	// its merge rank: a lower id is merged first.
	ranks map[string]int
	// byteRank is the token of each single byte (every byte is one), and
	// pairRank the rank of each two-byte string, noRank if it is not a
	// token: the lookups of the first merges, without hashing.
	byteRank [256]uint32
	pairRank []uint32
	// inner is a bit set of the byte pairs (a<<8 | b) that are consecutive
	// in some token: where a piece has any other pair, merge cuts it.
	inner [1 << 16 / 64]uint64
	// maxTokenLen is the length in bytes of the longest token; no longer
	// byte string has a rank, so it is not looked up.
	maxTokenLen int
	// class is the class of every code point in the pre-tokenization
	// pattern, for pieceEnd.
	class *classTable
}

var cl100k = sync.OnceValue(loadTables)

// encode splits text into the pieces of the pre-tokenization pattern,
// merges each piece and hands the ids to emit, in order, a piece's in one
// slice or more. The slice passed to emit is reused: emit must not keep it.
func encode(text string, emit func(ids []int)) {
	if text == "" {
		return
	}
	if len(text) > maxText {
		panic(fmt.Sprintf("tokens: a text of %d bytes is longer than the %d this package can encode", len(text), maxText))
	}
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // each invalid byte becomes U+FFFD
	}
	t := cl100k()
	var m mergeState
	var buf []int
	for start := 0; start < len(text); {
		end := t.pieceEnd(text, start)
		piece := text[start:end]
		start = end
		if id, ok := t.ranks[piece]; ok {
			buf = append(buf[:0], id)
			emit(buf)
		} else {
			buf = t.mergeEach(&m, piece, buf, emit)
		}
	}
}
