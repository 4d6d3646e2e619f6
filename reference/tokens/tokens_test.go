package tokens

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer/codec"
)

// TestKnownOutputs pins a few encodings that npm tiktoken 1.0.22 gives,
// among them the inputs that tiktoken-go v0.8.x to v0.10.x get wrong.
func TestKnownOutputs(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []int
	}{
		{"empty", "", nil},
		{"hello world", "hello world", []int{15339, 1917}},
		// tiktoken-go v0.8+ drops U+007F: 2 tokens instead of 3.
		{"DEL between letters (v0.8+ regression)", "a\x7fb", []int{64, 221, 65}},
		// tiktoken-go v0.8+ gives [31213 198 2355]: "\n" and "  \n" apart.
		{"newline, blank line, newline (v0.8+ regression)", "today\n  \n", []int{31213, 14211}},
		{"trailing spaces after a newline", "x  \n  ", []int{87, 2355, 256}},
		{"NUL", "ab\x00", []int{370, 188}},
		// Special-token text is plain text, never the special token 100257.
		{"<|endoftext|> as plain text", "<|endoftext|>", []int{27, 91, 8862, 728, 428, 91, 29}},
		{"<|fim_prefix|> as plain text", "<|fim_prefix|>", []int{27, 91, 69, 318, 14301, 91, 29}},
		// Unicode 16.0: Garay digits are numbers and U+1C89 a letter (so
		// "'s" after it is a contraction); v0.7.0 gets both wrong.
		{"Garay digits (Unicode 16.0)", "\U00010D40\U00010D41\U00010D42\U00010D43", []int{172, 238, 113, 222, 172, 238, 113, 223, 172, 238, 113, 224, 172, 238, 113, 225}},
		{"Cyrillic TJE then 's (Unicode 16.0)", "\u1C89's", []int{157, 110, 231, 596}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Encode documents nil for the empty text, so want is nil there.
			assert.Equal(t, c.want, Encode(c.text), "Encode(%q)", c.text)
			assert.Equal(t, len(c.want), Count(c.text), "Count(%q)", c.text)
		})
	}
}

// TestInvalidUTF8 checks that a byte outside any valid UTF-8 sequence is
// encoded as U+FFFD, one replacement character per byte.
func TestInvalidUTF8(t *testing.T) {
	cases := map[string]string{
		"a\xffb":        "a\uFFFDb",
		"\xe2\x82":      "\uFFFD\uFFFD",        // a truncated three-byte sequence
		"x\xed\xa0\x80": "x\uFFFD\uFFFD\uFFFD", // an encoded surrogate
		"\x80\x80 ok":   "\uFFFD\uFFFD ok",
	}
	for invalid, replaced := range cases {
		assert.Equal(t, Encode(replaced), Encode(invalid), "Encode(%q), want Encode(%q)", invalid, replaced)
	}
}

// TestVocabulary checks the tables built from the embedded vocabulary.
func TestVocabulary(t *testing.T) {
	tb := cl100k()
	// len, not assert.Len, which would print all the tokens on failure.
	assert.Equal(t, vocabularySize, len(tb.ranks), "tokens")
	assert.Equal(t, 128, tb.maxTokenLen, "bytes of the longest token")
	for b := range 256 {
		assert.Equal(t, uint32(tb.ranks[string([]byte{byte(b)})]), tb.byteRank[b], "byteRank[%#02x]", b)
	}
	for i, r := range tb.pairRank {
		want, ok := tb.ranks[string([]byte{byte(i >> 8), byte(i)})]
		wantRank := uint32(noRank) // a pair that is no token
		if ok {
			wantRank = uint32(want)
		}
		require.Equal(t, wantRank, r, "pairRank[%#04x] (a token: %v)", i, ok)
	}
}

// TestLongSContractionIsUnobservable backs the claim of pattern's comment:
// no token crosses the boundary after ſ (U+017F, bytes C5 BF), so whether
// (?i:'s) matches 'ſ cannot change a token.
func TestLongSContractionIsUnobservable(t *testing.T) {
	for token := range cl100k().ranks {
		if i := strings.IndexByte(token, 0xbf); i >= 0 && i < len(token)-1 && (i == 0 || token[i-1] == 0xc5) {
			t.Errorf("token %q holds the last byte of ſ followed by another byte", token)
		}
	}
}

// TestUnicodeTables checks the assumption behind addedLetters and
// addedNumbers: Go's unicode tables are those of Unicode 15.0.0, which lack
// them. A Go release with newer tables must be checked again against npm
// tiktoken (the code point scan: testdata/golden/gen/tokens/scan.mjs and
// TestCodePointScan): letters that Unicode 17 adds, say, would become
// letters here while they are not in the oracle's Rust regex.
func TestUnicodeTables(t *testing.T) {
	require.Equal(t, "15.0.0", unicode.Version, "Go's unicode tables are not those this package was checked with: "+
		"rerun the code point scan against npm tiktoken and update addedLetters and addedNumbers")
	for _, set := range []struct {
		name    string
		class   string
		goTable *unicode.RangeTable
	}{{"addedLetters", addedLetters, unicode.L}, {"addedNumbers", addedNumbers, unicode.N}} {
		n := 0
		for lo, hi := range classRanges(t, set.class) {
			for r := lo; r <= hi; r++ {
				n++
				assert.False(t, unicode.IsOneOf([]*unicode.RangeTable{unicode.L, unicode.N, unicode.White_Space}, r),
					"%s holds %U, which Go already classifies", set.name, r)
			}
		}
		t.Logf("%s: %d code points", set.name, n)
	}
}

// classRanges reads a character-class string of literal runes and ranges.
func classRanges(t *testing.T, class string) map[rune]rune {
	t.Helper()
	ranges := map[rune]rune{}
	rs := []rune(class)
	for i := 0; i < len(rs); i++ {
		lo, hi := rs[i], rs[i]
		if i+2 < len(rs) && rs[i+1] == '-' {
			hi = rs[i+2]
			i += 2
		}
		require.LessOrEqual(t, lo, hi, "range %U-%U is empty", lo, hi)
		ranges[lo] = hi
	}
	return ranges
}

// TestMergeMatchesV070 is the differential test of the merges: mergeShort
// and mergeLong, each on every piece whatever its length, and merge, which
// cuts the piece where no token can cross, give the ids of tiktoken-go
// v0.7.0's mergePairs (v070_test.go) on random pieces.
func TestMergeMatchesV070(t *testing.T) {
	tb := cl100k()
	vocabulary := v070Vocabulary()
	rng := rand.New(rand.NewPCG(1, 2))
	tokenList := make([]string, 0, len(tb.ranks))
	for token := range tb.ranks {
		tokenList = append(tokenList, token)
	}
	slices.Sort(tokenList)

	generators := []struct {
		name   string
		count  int
		maxLen int
		gen    func(n int) string
	}{
		{"random bytes", 3000, 48, func(n int) string { return randomBytes(rng, n, 256) }},
		{"random bytes from a 2-byte alphabet", 1000, 200, func(n int) string { return randomFrom(rng, n, "ab") }},
		{"runs of one byte", 300, 300, func(n int) string { return strings.Repeat(string(rune('a'+rng.IntN(26))), n) }},
		{"random ASCII letters", 2000, 200, func(n int) string { return randomFrom(rng, n, asciiLetters) }},
		{"random white space", 500, 100, func(n int) string { return randomFrom(rng, n, " \t\n\r") }},
		{"random runes", 2000, 40, func(n int) string { return randomRunes(rng, n) }},
		{"random emoji", 500, 60, func(n int) string { return randomFrom(rng, n, emojiAlphabet) }},
		{"random CJK", 500, 80, func(n int) string { return randomFrom(rng, n, cjkAlphabet) }},
		{"concatenated tokens", 2000, 12, func(n int) string {
			var b strings.Builder
			for range n {
				b.WriteString(tokenList[rng.IntN(len(tokenList))])
			}
			return b.String()
		}},
	}
	var m mergeState
	for _, g := range generators {
		t.Run(g.name, func(t *testing.T) {
			for range g.count {
				piece := g.gen(1 + rng.IntN(g.maxLen))
				want := v070Merge(vocabulary, piece)
				if got := tb.mergeShort(&m, piece, nil); !slices.Equal(got, want) {
					t.Fatalf("mergeShort(%q)\n  got:  %v\n  want: %v (v0.7.0)\n  %s", piece, got, want, firstDifference(got, want))
				}
				for _, buckets := range []bool{false, true} {
					if got := tb.mergeLongWith(&m, piece, nil, buckets); !slices.Equal(got, want) {
						t.Fatalf("mergeLong(%q) with buckets %v\n  got:  %v\n  want: %v (v0.7.0)\n  %s", piece, buckets, got, want, firstDifference(got, want))
					}
				}
				if got := tb.merge(&m, piece, nil); !slices.Equal(got, want) {
					t.Fatalf("merge(%q)\n  got:  %v\n  want: %v (v0.7.0)\n  %s", piece, got, want, firstDifference(got, want))
				}
			}
		})
	}
}

// TestMergeLongMatchesV070OnLongPieces compares mergeLong and merge with
// v0.7.0's merge on pieces of thousands of bytes, where they differ in
// speed most, and where merge cuts hundreds of times.
func TestMergeLongMatchesV070OnLongPieces(t *testing.T) {
	tb := cl100k()
	vocabulary := v070Vocabulary()
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := map[string]string{
		"a × 4099":          strings.Repeat("a", 4099),
		"ab × 1500":         strings.Repeat("ab", 1500),
		"letters":           randomFrom(rng, 4000, asciiLetters),
		"hex digits":        randomFrom(rng, 4000, "0123456789abcdef"),
		"emoji":             randomFrom(rng, 800, emojiAlphabet),
		"CJK":               randomFrom(rng, 1200, cjkAlphabet),
		"bytes":             randomBytes(rng, 3000, 256),
		"punctuation":       randomFrom(rng, 3000, "!\"#$%&()*+,-./:;<=>?@[\\]^_`{|}~"),
		"2-letter alphabet": randomFrom(rng, 3000, "xy"),
		"spaces":            strings.Repeat(" ", 3001),
		"white space":       randomFrom(rng, 3000, " \n\t"),
	}
	var m mergeState
	for name, piece := range pieces {
		want := v070Merge(vocabulary, piece)
		for _, buckets := range []bool{false, true} {
			if got := tb.mergeLongWith(&m, piece, nil, buckets); !slices.Equal(got, want) {
				t.Errorf("%s: mergeLong with buckets %v differs from v0.7.0's merge on %d bytes\n  %s", name, buckets, len(piece), firstDifference(got, want))
			}
		}
		if got := tb.merge(&m, piece, nil); !slices.Equal(got, want) {
			t.Errorf("%s: merge differs from v0.7.0's merge on %d bytes\n  %s", name, len(piece), firstDifference(got, want))
		}
	}
}

// TestEncodeMatchesV070 is the differential test of the whole encoding
// against tiktoken-go v0.7.0's Codec, on random texts of mixed scripts.
// Its alphabets leave out what v0.7.0 is known to get wrong, the code
// points of addedLetters and addedNumbers (the golden vectors cover those).
func TestEncodeMatchesV070(t *testing.T) {
	c := codec.NewCl100kBase()
	rng := rand.New(rand.NewPCG(5, 6))
	alphabets := []string{
		asciiLetters, "0123456789", " ", "  ", "\n", "\t", "\r\n", "'", "'s", "'LL", ".,;:!?-()[]{}\"/\\_*#@&%$+=<>|~^`",
		"\x00\x01\x1f\x7f", "éüñçøß", "αβγΔΩ", "абвгдЖЩ", cjkAlphabet, emojiAlphabet, "\u200d\ufe0f\U0001F3FD",
		"\u0301\u0308\u0323", "مرحبا", "שלום", "नमस्ते", "สวัสดี", "١٢٣", "１２３", "\u00a0\u2003\u3000\u2028\u0085\u000b\u000c",
	}
	for i := range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(40) {
			alphabet := alphabets[rng.IntN(len(alphabets))]
			b.WriteString(randomFrom(rng, 1+rng.IntN(4), alphabet))
		}
		text := b.String()
		ids, _, err := c.Encode(text)
		require.NoError(t, err)
		want := make([]int, len(ids))
		for k, id := range ids {
			want[k] = int(id)
		}
		if got := Encode(text); !slices.Equal(got, want) {
			t.Fatalf("text %d: Encode(%q)\n  got:  %v\n  want: %v (v0.7.0)\n  %s", i, text, got, want, firstDifference(got, want))
		}
		require.Equal(t, len(want), Count(text), "text %d: Count(%q)", i, text)
	}
}

// TestConcurrentUse encodes from several goroutines at once, the first use
// included (run it with -race).
func TestConcurrentUse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = randomFrom(rng, 50+rng.IntN(400), asciiLetters+"  \n,.'0123456789"+emojiAlphabet)
	}
	texts[0] = strings.Repeat("x", 5000) // a long piece
	want := make([][]int, len(texts))
	for i, text := range texts {
		want[i] = Encode(text)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(texts))
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				i := (k + g*7) % len(texts)
				if got := Encode(texts[i]); !slices.Equal(got, want[i]) {
					errs <- fmt.Sprintf("goroutine %d: Encode(text %d) differs from the sequential result: %s", g, i, firstDifference(got, want[i]))
				}
				if got := Count(texts[i]); got != len(want[i]) {
					errs <- fmt.Sprintf("goroutine %d: Count(text %d) = %d, want %d", g, i, got, len(want[i]))
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// megabyteWordCount and megabyteWordSHA256 are the count and the digest
// (ids in decimal joined by ",") of megabyteWord, computed by npm tiktoken
// 1.0.22 with testdata/golden/gen/tokens/megabyte.mjs. Its cl100k_base
// encoder cannot encode the word in one call (a piece of a million letters
// exceeds its regex's backtrack limit, and its merge is quadratic), so the
// script cuts it into 101 parts of at most 10,000 letters, at positions
// that no token of the vocabulary spans (458,436 of the 999,999 qualify),
// where the byte-pair merge of the whole equals the merges of the parts,
// and encodes each part with npm tiktoken. The same script reproduces
// tok-large-letters-100000, which npm encodes whole; and with --whole it
// gave the same count and digest without any cut: npm tiktoken's own merge
// on the whole million-letter piece, split by a pattern without
// look-around (40 minutes: the merge is quadratic).
const (
	megabyteWordCount  = 657_519
	megabyteWordSHA256 = "7aa107cff31b9ac6c8bb6f4903c3155efc856b7e19d6f342816baa43052f20db"
)

// megabyteWord is a word without spaces of 1,000,000 ASCII letters, the
// shape of a minified file or an identifier-like blob that comes back from a
// tool: the xorshift recipe of the golden cases, seed 1.
func megabyteWord() string {
	return xorshiftString(asciiLetters, 1_000_000, 1)
}

// TestMegabyteWordWithoutSpaces checks the exact count of a 1 MB word
// without spaces, one piece of a million bytes for the merge. It checks
// correctness only: BENCHMARKS.md has the times.
func TestMegabyteWordWithoutSpaces(t *testing.T) {
	word := megabyteWord()
	ids := Encode(word)
	// len, not assert.Len, which would print 657,519 ids on failure.
	assert.Equal(t, megabyteWordCount, len(ids), "Encode(1 MB word): tokens")
	assert.Equal(t, megabyteWordSHA256, idsSHA256(ids), "Encode(1 MB word): SHA-256 of the ids")
	assert.Equal(t, megabyteWordCount, Count(word), "Count(1 MB word)")
}

const (
	asciiLetters  = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	emojiAlphabet = "😀😍👍🏽👨‍👩‍👧🇫🇷🔥✨🙂🤖❤️"
	cjkAlphabet   = "的一是不了人我在有他这为之大来以个中上们到说国和地日本語한국어です"
)

func randomBytes(rng *rand.Rand, n, alphabetSize int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(alphabetSize))
	}
	return string(b)
}

func randomFrom(rng *rand.Rand, n int, alphabet string) string {
	rs := []rune(alphabet)
	var b strings.Builder
	for range n {
		b.WriteRune(rs[rng.IntN(len(rs))])
	}
	return b.String()
}

// randomRunes draws valid code points, half of them ASCII, the others from
// every plane.
func randomRunes(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		var r rune
		switch rng.IntN(4) {
		case 0, 1:
			r = rune(rng.IntN(128))
		case 2:
			r = rune(0x80 + rng.IntN(0x3000))
		default:
			r = rune(rng.IntN(unicode.MaxRune + 1))
		}
		if utf8.ValidRune(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// firstDifference describes where two id sequences first differ.
func firstDifference(got, want []int) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			lo := max(0, i-3)
			return fmt.Sprintf("first difference at id %d: got %v…, want %v…", i, got[lo:min(len(got), i+4)], want[lo:min(len(want), i+4)])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("same first %d ids, then got %d ids, want %d", min(len(got), len(want)), len(got), len(want))
	}
	return "no difference"
}
