package tokens

import (
	_ "embed"
	"fmt"
)

// cl100kRanks is the ordinary vocabulary of cl100k_base in rank order:
// for each token, from rank 0 to vocabularySize-1, one byte that is its
// length in bytes (1 to 128) and then its bytes. It is the vocabulary of
// github.com/tiktoken-go/tokenizer v0.7.0's codec, written by
// `go test ./reference/tokens -run TestRanksFile -args -tokens.write-ranks`;
// TestRanksFile checks that it still is. Read from here, the tables are
// built without the codec's two maps of the vocabulary (its literal and the
// reverse map its Decode builds), a fifth of the time: every process that
// counts a token paid it once, each worker of a run over the wire among
// them.
//
//go:embed cl100k_base.ranks
var cl100kRanks string

// loadTables builds the tables from cl100kRanks. The tokens are substrings
// of the embedded text, not copies.
func loadTables() *tables {
	t := &tables{
		ranks: make(map[string]int, vocabularySize),
		class: newClassTable(),
	}
	data := cl100kRanks
	for id := range vocabularySize {
		if len(data) == 0 || data[0] == 0 || int(data[0]) >= len(data) {
			panic(fmt.Sprintf("tokens: cl100k_base.ranks ends or breaks at token %d", id))
		}
		b := data[1 : 1+int(data[0])]
		data = data[1+len(b):]
		n := len(t.ranks)
		t.ranks[b] = id
		if len(t.ranks) == n { // one insert, no lookup before it
			panic(fmt.Sprintf("tokens: cl100k_base.ranks has %q twice", b))
		}
		t.maxTokenLen = max(t.maxTokenLen, len(b))
		for i := 0; i+1 < len(b); i++ {
			pair := int(b[i])<<8 | int(b[i+1])
			t.inner[pair>>6] |= 1 << (pair & 63)
		}
	}
	if data != "" {
		panic(fmt.Sprintf("tokens: cl100k_base.ranks holds %d bytes after its %d tokens", len(data), vocabularySize))
	}
	t.pairRank = make([]uint32, 1<<16)
	for i := range t.pairRank {
		t.pairRank[i] = noRank
		if r, ok := t.ranks[string([]byte{byte(i >> 8), byte(i)})]; ok {
			t.pairRank[i] = uint32(r)
		}
	}
	for b := range 256 {
		r, ok := t.ranks[string([]byte{byte(b)})]
		if !ok {
			panic(fmt.Sprintf("tokens: cl100k_base.ranks has no token for the byte %#02x", b))
		}
		t.byteRank[b] = uint32(r)
	}
	return t
}
