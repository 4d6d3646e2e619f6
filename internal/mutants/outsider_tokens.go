package mutants

// Outsider variants of the capability tokens.cl100k: a byte-pair encoder
// written from the published cl100k_base ranks, with the pre-tokenization
// pattern ported to another regex dialect, one class mistranslated.

import (
	"strings"
	"sync"

	"github.com/dlclark/regexp2"

	"github.com/convspec/convspec/reference/tokens"
	"github.com/tiktoken-go/tokenizer/codec"
)

// The pattern of cl100k_base as tiktoken publishes it.
const outsiderCl100k = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

func outsiderTokenMutants() []Mutant {
	return []Mutant{
		// tokens.encode "x \u2028y": U+2028 is white space but not one of
		// the pattern's [\r\n], so " " and "\u2028" are separate pieces; the
		// variant's line-break class takes " \u2028" as one.
		variant("outsider-tokens-unicode-line-breaks", "ports [\\r\\n] as a Unicode line-break class that also holds U+0085, U+2028 and U+2029", replaced{encode: outsiderEncoder(strings.ReplaceAll(outsiderCl100k, `\r\n]`, `\r\n`+"\u0085\u2028\u2029]"))}, "TOK-1"),

		// tokens.encode "a\u3000\u3000b" (ideographic spaces): \s is
		// White_Space, so the spaces split as whitespace; with an ASCII
		// \s they join the punctuation branch.
		variant("outsider-tokens-ascii-whitespace", "ports \\s as the ASCII class [ \\t\\n\\v\\f\\r], so Unicode spaces (U+00A0, U+2028, U+3000) are not white space", replaced{encode: outsiderEncoder(`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\t\n\v\f\r \p{L}\p{N}]+[\r\n]*|[\t\n\v\f\r ]*[\r\n]+|[\t\n\v\f\r ]+(?![^\t\n\v\f\r ])|[\t\n\v\f\r ]+`)}, "TOK-1"),

		// tokens.encode "'She": the contractions match case-insensitively,
		// so "'S" + "he" [13575 383]; the variant's pattern lost (?i:) and
		// takes "'She" as one piece, [6 8100].
		variant("outsider-tokens-case-sensitive-contractions", "matches the contractions 's 't 're 've 'm 'll 'd case-sensitively", replaced{encode: outsiderEncoder(strings.Replace(outsiderCl100k, `(?i:'s|'t|'re|'ve|'m|'ll|'d)`, `(?:'s|'t|'re|'ve|'m|'ll|'d)`, 1))}, "TOK-1"),

		// tokens.encode "x²³⁴⁵" or "ⅫⅫ": superscripts (No) and Roman
		// numerals (Nl) are \p{N}, grouped by three; the variant's
		// \p{Nd} leaves them to the punctuation branch.
		variant("outsider-tokens-decimal-digits-only", "groups numbers with \\p{Nd} (decimal digits) where cl100k_base has \\p{N}", replaced{encode: outsiderEncoder(strings.ReplaceAll(strings.ReplaceAll(outsiderCl100k, `|\p{N}{1,3}|`, `|\p{Nd}{1,3}|`), `\p{L}\p{N}]`, `\p{L}\p{Nd}]`))}, "TOK-1"),
	}
}

// outsiderRanks is the cl100k_base vocabulary: bytes to rank.
var outsiderRanks = sync.OnceValue(func() map[string]int {
	c := codec.NewCl100kBase()
	ranks := make(map[string]int, 100256)
	for id := range 100256 {
		b, err := c.Decode([]uint{uint(id)})
		if err == nil {
			ranks[b] = id
		}
	}
	return ranks
})

// outsiderEncoder is a plain byte-pair encoder over the pieces pattern cuts.
func outsiderEncoder(pattern string) func(string) []int {
	re := regexp2.MustCompile(pattern, regexp2.None)
	return func(text string) []int {
		ids := []int{}
		if text == "" {
			return ids
		}
		text = strings.ToValidUTF8(text, "\uFFFD")
		ranks := outsiderRanks()
		runes := []rune(text)
		m, _ := re.FindRunesMatch(runes)
		for m != nil {
			ids = append(ids, outsiderBPE(ranks, string(runes[m.Index:m.Index+m.Length]))...)
			m, _ = re.FindNextMatch(m)
		}
		return ids
	}
}

// outsiderPieces remembers the ids of every piece outsiderBPE has merged
// (piece → []int): the merge is a pure function of the piece, the variants
// encode the same corpus of vectors (TOK-1's) again and again, and merging
// a piece pair by pair costs far more than looking it up (D-91). A caller
// must not change the slice it is given.
var outsiderPieces sync.Map

// outsiderBPE merges the lowest-ranked adjacent pair until none merges.
func outsiderBPE(ranks map[string]int, piece string) []int {
	if id, ok := ranks[piece]; ok {
		return []int{id}
	}
	if len(piece) > 256 { // a long word: the library's fast merge
		return tokens.Encode(piece)
	}
	if ids, ok := outsiderPieces.Load(piece); ok {
		return ids.([]int)
	}
	ids := mergePairs(ranks, piece)
	outsiderPieces.Store(piece, ids)
	return ids
}

// mergePairs is the byte-pair merge of a piece that is not itself a token.
func mergePairs(ranks map[string]int, piece string) []int {
	parts := make([]string, len(piece))
	for i := 0; i < len(piece); i++ {
		parts[i] = piece[i : i+1]
	}
	for len(parts) > 1 {
		best, at := -1, -1
		for i := 0; i+1 < len(parts); i++ {
			if r, ok := ranks[parts[i]+parts[i+1]]; ok && (best < 0 || r < best) {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		parts[at] += parts[at+1]
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	ids := make([]int, len(parts))
	for i, p := range parts {
		ids[i] = ranks[p]
	}
	return ids
}
