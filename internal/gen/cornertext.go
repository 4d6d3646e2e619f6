package gen

// Texts that reach the tokenizer's and the counters' corners on purpose:
// characters of every Unicode general category and of many scripts, runs
// of white space of every kind and length, English contractions in every
// letter case, digit runs of every length, astral and combining
// characters. A cl100k pre-tokenizer splits text by exactly these classes
// (\p{L}, \p{N}, \s, the contractions), so a mistake in one of them shows
// only on texts that hold it.

import (
	"strings"
	"unicode"

	"pgregory.net/rapid"
)

// categories are the general categories drawn from; Cs (lone surrogates)
// cannot be in well-formed text and is left out.
var categories = []string{"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No",
	"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Co"}

// scripts are drawn from for letters beyond Latin.
var scripts = []string{"Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Devanagari", "Bengali",
	"Thai", "Georgian", "Hangul", "Hiragana", "Katakana", "Han", "Ethiopic", "Cherokee", "Tamil", "Mongolian"}

// spaces are every White_Space character and the line ends the pattern
// treats apart.
var spaces = []string{" ", "\t", "\n", "\r", "\r\n", "\v", "\f", "\u0085", "\u00a0", "\u1680", "\u2000", "\u2007",
	"\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"}

// planeEdges are the code points at the edges of the Basic Multilingual
// Plane (U+FFFF, U+10000), of Unicode (U+10FFFF), of the surrogate gap
// (U+D7FF, U+E000) and of UTF-8's one-, two- and three-byte ranges: a
// hand-written UTF-8 or UTF-16 conversion that is off by one shows only
// there (TOK-1's bytes, EST-2's code units).
var planeEdges = []rune{0xFFFF, 0x10000, 0x10FFFF, 0xD7FF, 0xE000, 0xFFFE, 0xFFFD, 0x7F, 0x80, 0x7FF, 0x800}

// contractions are the suffixes cl100k splits off, in their lower case.
var contractions = []string{"s", "t", "re", "ve", "m", "ll", "d"}

// quotes are the apostrophes: only U+0027 starts a contraction.
var quotes = []string{"'", "'", "'", "\u2019", "`"}

// runeOf draws a character of a range table, favouring the first and last
// of a range.
func runeOf(t *rapid.T, table *unicode.RangeTable, label string) rune {
	type span struct{ lo, hi, stride uint32 }
	var spans []span
	for _, r := range table.R16 {
		spans = append(spans, span{uint32(r.Lo), uint32(r.Hi), uint32(r.Stride)})
	}
	for _, r := range table.R32 {
		spans = append(spans, span{r.Lo, r.Hi, r.Stride})
	}
	s := spans[intRange(0, len(spans)-1).Draw(t, label+" range")]
	steps := int((s.hi - s.lo) / s.stride)
	k := rapid.OneOf(rapid.Just(0), rapid.Just(steps), rapid.IntRange(0, steps)).Draw(t, label+" offset")
	r := rune(s.lo + uint32(k)*s.stride)
	if r >= 0xd800 && r <= 0xdfff {
		return 0xfffd
	}
	return r
}

func charsOf(t *rapid.T, table *unicode.RangeTable, label string, lo, hi int) string {
	var b strings.Builder
	for range intRange(lo, hi).Draw(t, label+" length") {
		b.WriteRune(runeOf(t, table, label))
	}
	return b.String()
}

// mixedCase writes s with each letter upper or lower case as drawn.
func mixedCase(t *rapid.T, s string) string {
	var b strings.Builder
	for _, r := range s {
		if anyBool.Draw(t, "upper") {
			r = unicode.ToUpper(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// cornerPiece draws one piece of a corner text.
func cornerPiece(t *rapid.T) string {
	switch intRange(0, 12).Draw(t, "piece") {
	case 0:
		name := rapid.SampledFrom(categories).Draw(t, "category")
		return charsOf(t, unicode.Categories[name], name, 1, 4)
	case 1:
		name := rapid.SampledFrom(scripts).Draw(t, "script")
		return charsOf(t, unicode.Scripts[name], name, 1, 6)
	case 2: // a run of one kind of white space, of any length
		return strings.Repeat(rapid.SampledFrom(spaces).Draw(t, "space"), intRange(1, 24).Draw(t, "run"))
	case 3: // white space of mixed kinds
		var b strings.Builder
		for range intRange(1, 8).Draw(t, "mixed run") {
			b.WriteString(rapid.SampledFrom(spaces).Draw(t, "space"))
		}
		return b.String()
	case 4: // a word with a contraction, in any case
		word := rapid.SampledFrom([]string{"it", "we", "they", "I", "don", "can", "x", ""}).Draw(t, "word")
		// Letters after the suffix tell a contraction from a word that
		// starts with an apostrophe: 'Sam is one piece unless 'S is a
		// contraction.
		after := rapid.SampledFrom([]string{"", "", "am", "ELL", "x", " ", "1"}).Draw(t, "after")
		return mixedCase(t, word) + rapid.SampledFrom(quotes).Draw(t, "quote") + mixedCase(t, rapid.SampledFrom(contractions).Draw(t, "contraction")) + after
	case 5: // a run of digits of any length, ASCII or not
		if anyBool.Draw(t, "ascii digits") {
			return rapid.StringOfN(rapid.RuneFrom([]rune("0123456789")), 1, 12, -1).Draw(t, "digits")
		}
		return charsOf(t, unicode.Nd, "Nd", 1, 8)
	case 6: // a letter with combining marks
		return charsOf(t, unicode.L, "L", 1, 1) + charsOf(t, unicode.Mn, "Mn", 1, 3)
	case 7: // astral characters: emoji, mathematical letters, CJK extension B
		return string(rapid.SampledFrom([]rune{0x1F600, 0x1F469, 0x200D, 0x1F4BB, 0x1D518, 0x20000, 0x2A6D6, 0x10000, 0x10FFFD, 0x1F1EB, 0xE0001}).Draw(t, "astral"))
	case 8:
		return rapid.SampledFrom(fragments).Draw(t, "fragment")
	case 9: // ASCII words and punctuation, as most text is
		return rapid.StringOfN(rapid.RuneFrom([]rune("abcdefghijklmnopqrstuvwxyzABCXYZ .,;:!?-_()[]{}<>/\\\"'@#$%^&*+=~|")), 1, 16, -1).Draw(t, "ascii")
	case 10: // text that looks like special tokens, encoded as plain text (TOK-1)
		return rapid.SampledFrom([]string{"<|endoftext|>", "<|fim_prefix|>", "<|im_start|>", "<|endofprompt|>", "<|"}).Draw(t, "special")
	case 11: // the edges of the planes and of UTF-8's lengths, where an encoder or a counter is off by one
		var b strings.Builder
		for range intRange(1, 3).Draw(t, "edges") {
			b.WriteRune(rapid.SampledFrom(planeEdges).Draw(t, "edge"))
		}
		return b.String()
	default: // a long repetition: the byte-pair merge of a long piece
		return strings.Repeat(rapid.SampledFrom([]string{"a", "ab", "😀", "中", "0", "!"}).Draw(t, "repeated"), intRange(8, 200).Draw(t, "repeat"))
	}
}

// CornerTexts draws a corner text of up to eight pieces; sometimes only
// white space, sometimes empty.
var CornerTexts = rapid.Custom(func(t *rapid.T) string {
	switch intRange(0, 9).Draw(t, "text shape") {
	case 0:
		return ""
	case 1: // White_Space only
		var b strings.Builder
		for range intRange(1, 4).Draw(t, "space runs") {
			b.WriteString(strings.Repeat(rapid.SampledFrom(spaces).Draw(t, "space"), intRange(1, 6).Draw(t, "run")))
		}
		return b.String()
	}
	var b strings.Builder
	for range intRange(1, 8).Draw(t, "pieces") {
		b.WriteString(cornerPiece(t))
	}
	return b.String()
})
