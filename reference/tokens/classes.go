package tokens

import (
	"unicode"
	"unicode/utf8"
)

// The pre-tokenization pattern (pattern.go) sorts every code point into one
// of four disjoint classes: a letter (\p{L} with addedLetters), a number
// (\p{N} with addedNumbers), white space (\s, which regexp2 reads as
// unicode.IsSpace) or anything else. Carriage return and line feed, which
// the pattern names on their own, are white space of a class of their own.
// Go's tables put no code point in two of L, N and White_Space, and
// TestUnicodeTables checks that the added ones are in none of them.
const (
	classOther   uint8 = iota // [^\s\p{L}\p{N}]: punctuation, symbols, marks, controls
	classLetter               // \p{L}
	classNumber               // \p{N}
	classSpace                // \s other than \r and \n
	classNewline              // \r or \n
)

// classTable is the class of every code point in two levels: page holds,
// for each block of 256 code points, the offset of its classes in classes,
// where identical blocks share one copy (about 300 distinct blocks of the
// 4,352). The block of U+0000 comes first, so classes[b] is the class of
// an ASCII byte b.
type classTable struct {
	page    [(unicode.MaxRune + 1) >> 8]uint32
	classes []uint8
}

// newClassTable builds the table from Go's unicode tables and the ranges of
// addedLetters and addedNumbers.
func newClassTable() *classTable {
	flat := make([]uint8, unicode.MaxRune+1)
	mark := func(table *unicode.RangeTable, class uint8) {
		for _, r := range table.R16 {
			for c := int(r.Lo); c <= int(r.Hi); c += int(r.Stride) {
				flat[c] = class
			}
		}
		for _, r := range table.R32 {
			for c := int(r.Lo); c <= int(r.Hi); c += int(r.Stride) {
				flat[c] = class
			}
		}
	}
	mark(unicode.L, classLetter)
	mark(unicode.N, classNumber)
	mark(unicode.White_Space, classSpace)
	for c := range rune(0x100) { // unicode.IsSpace decides Latin-1 by a list of its own
		if unicode.IsSpace(c) {
			flat[c] = classSpace
		}
	}
	flat['\r'], flat['\n'] = classNewline, classNewline
	for _, added := range []struct {
		class  string
		marked uint8
	}{{addedLetters, classLetter}, {addedNumbers, classNumber}} {
		for _, r := range runeRanges(added.class) {
			for c := r[0]; c <= r[1]; c++ {
				flat[c] = added.marked
			}
		}
	}

	t := &classTable{}
	seen := make(map[string]uint32)
	for p := range t.page {
		block := flat[p<<8 : (p+1)<<8]
		offset, ok := seen[string(block)]
		if !ok {
			offset = uint32(len(t.classes))
			seen[string(block)] = offset
			t.classes = append(t.classes, block...)
		}
		t.page[p] = offset
	}
	return t
}

// of returns the class of the code point r.
func (t *classTable) of(r rune) uint8 {
	return t.classes[t.page[r>>8]+uint32(r&0xff)]
}

// at returns the class of the code point at s[i], which is valid UTF-8, and
// its length in bytes; i must be less than len(s).
func (t *classTable) at(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return t.classes[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return t.of(r), n
}

// runeRanges reads a character-class string of literal runes and ranges
// (a-z), the form of addedLetters and addedNumbers, as inclusive ranges.
func runeRanges(class string) [][2]rune {
	var ranges [][2]rune
	rs := []rune(class)
	for i := 0; i < len(rs); i++ {
		lo, hi := rs[i], rs[i]
		if i+2 < len(rs) && rs[i+1] == '-' {
			hi = rs[i+2]
			i += 2
		}
		ranges = append(ranges, [2]rune{lo, hi})
	}
	return ranges
}
