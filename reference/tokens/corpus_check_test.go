package tokens

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// TestMixedCorpus pins the benchmark's text, so that benchmarks of
// different commits count the same text, and checks the encoding of a
// quarter of a megabyte of it: its pieces are the regexp's, and its ids
// are tiktoken-go v0.7.0's (the corpus has none of the code points where
// v0.7.0 is wrong).
func TestMixedCorpus(t *testing.T) {
	text := mixedCorpus(1, mixedCorpusSize)
	if got, want := fmt.Sprintf("%d bytes, SHA-256 %x", len(text), sha256.Sum256([]byte(text))), mixedCorpusDigest; got != want {
		t.Errorf("mixedCorpus(1, %d) is %s, want %s: the generator changed, and benchmarks of earlier commits counted another text", mixedCorpusSize, got, want)
	}
	if again := mixedCorpus(1, mixedCorpusSize); again != text {
		t.Errorf("mixedCorpus(1, %d) gives another text the second time", mixedCorpusSize)
	}
	sample := mixedCorpus(2, 256<<10)
	if got, want := scannerPieces(sample), oraclePieces(t, sample); !slices.Equal(got, want) {
		t.Fatalf("pieces differ from the regexp's: %s", firstPieceDifference(got, want))
	}
	ids, _, err := codec.NewCl100kBase().Encode(sample)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, len(ids))
	for k, id := range ids {
		want[k] = int(id)
	}
	if got := Encode(sample); !slices.Equal(got, want) {
		t.Fatalf("Encode differs from v0.7.0: %s", firstDifference(got, want))
	}
	t.Logf("%d bytes, %d tokens; the sample %d tokens", len(text), Count(text), len(want))
}

// mixedCorpusDigest is the length and digest of mixedCorpus(1, mixedCorpusSize).
const mixedCorpusDigest = "4194346 bytes, SHA-256 9d446ebe6695f8db3edc1e8fa68d7025d257eb3da6ce885e00e6adc221483c00"
