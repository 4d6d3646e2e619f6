package tokens

import (
	"unicode"
	"unicode/utf8"
)

// pieceEnd is the pre-tokenizer: it returns where the piece that starts at
// s[i] ends, the match that regexp2 finds for pattern (pattern.go) at i, on
// s, which is valid UTF-8, with i < len(s). Every code point starts a match
// of some alternative, so the pieces tile the text, and each one is found
// from where the last one ended, in one pass without backtracking:
//
//  1. (?i:'s|'t|'re|'ve|'m|'ll|'d): an apostrophe and letters whose
//     unicode.ToLower is the contraction's (what regexp2 compares);
//  2. [^\r\n\p{L}\p{N}]?\p{L}+: letters, after at most one code point that
//     is neither \r, \n, a letter nor a number (white space included);
//  3. \p{N}{1,3}: one to three numbers;
//  4. ' '?[^\s\p{L}\p{N}]+[\r\n]*: "other" code points, after at most one
//     space, and the \r and \n that follow them;
//  5. \s*[\r\n]+: the white space up to and including the last \r or \n of
//     the run of white space (nothing after it in the run is \r or \n);
//  6. \s+(?!\S): the run of white space if it ends the text, else the run
//     but its last code point, which then starts the next piece;
//  7. \s+: a run of one code point of white space before a non-space.
//
// FuzzPretokenize compares it with the regexp piece by piece.
func (t *tables) pieceEnd(s string, i int) int {
	c, n := t.class.at(s, i)
	j := i + n
	switch c {
	case classLetter: // 2, without the optional code point
		return t.lettersEnd(s, j)
	case classNumber: // 3
		for k := 1; k < 3 && j < len(s); k++ {
			c, n := t.class.at(s, j)
			if c != classNumber {
				break
			}
			j += n
		}
		return j
	case classOther:
		if s[i] == '\'' { // 1
			if end := contractionEnd(s, j); end > 0 {
				return end
			}
		}
		if j < len(s) { // 2
			if c, n := t.class.at(s, j); c == classLetter {
				return t.lettersEnd(s, j+n)
			}
		}
		return t.othersEnd(s, j) // 4, without the space
	case classSpace:
		if j < len(s) {
			c, n := t.class.at(s, j)
			if c == classLetter { // 2
				return t.lettersEnd(s, j+n)
			}
			if c == classOther && s[i] == ' ' { // 4
				return t.othersEnd(s, j+n)
			}
		}
	}
	return t.spaceEnd(s, i)
}

// lettersEnd returns the end of the run of letters at s[j:].
func (t *tables) lettersEnd(s string, j int) int {
	for j < len(s) {
		if b := s[j]; b < utf8.RuneSelf {
			if t.class.classes[b] != classLetter {
				return j
			}
			j++
			continue
		}
		c, n := t.class.at(s, j)
		if c != classLetter {
			return j
		}
		j += n
	}
	return j
}

// othersEnd returns the end of the run of code points of classOther at
// s[j:] and of the \r and \n that follow it.
func (t *tables) othersEnd(s string, j int) int {
	for j < len(s) {
		c, n := t.class.at(s, j)
		if c != classOther {
			break
		}
		j += n
	}
	for j < len(s) && (s[j] == '\r' || s[j] == '\n') {
		j++
	}
	return j
}

// spaceEnd returns the end of the piece of white space that starts at s[i]
// (alternatives 5 to 7).
func (t *tables) spaceEnd(s string, i int) int {
	afterNewline := -1 // the end of the last \r or \n of the run
	last := i          // the start of the last code point of the run
	j := i
	for j < len(s) {
		c, n := t.class.at(s, j)
		if c < classSpace {
			break
		}
		if c == classNewline {
			afterNewline = j + n
		}
		last = j
		j += n
	}
	switch {
	case afterNewline >= 0: // 5
		return afterNewline
	case j == len(s): // 6, at the end of the text
		return j
	case last > i: // 6, leaving the last white space to the next piece
		return last
	}
	return j // 7
}

// contractionEnd returns the end of the contraction whose apostrophe ends
// at s[j], or 0 if there is none. regexp2 matches (?i:…) by comparing
// unicode.ToLower of the text with the lower-case pattern, and so does
// this: in effect only ASCII letters match, since no other code point has
// a lower case among s, t, r, e, v, m, l and d (the Kelvin sign's is k, and
// the long s ſ is its own; TestContractionsMatchRegexp tries them all).
func contractionEnd(s string, j int) int {
	c, n := lowerAt(s, j)
	switch c {
	case 's', 't', 'm', 'd':
		return j + n
	case 'r', 'v':
		if c2, n2 := lowerAt(s, j+n); c2 == 'e' {
			return j + n + n2
		}
	case 'l':
		if c2, n2 := lowerAt(s, j+n); c2 == 'l' {
			return j + n + n2
		}
	}
	return 0
}

// lowerAt returns unicode.ToLower of the code point at s[j] and its length
// in bytes, or -1 and 0 at the end of s.
func lowerAt(s string, j int) (rune, int) {
	if j >= len(s) {
		return -1, 0
	}
	if b := s[j]; b < utf8.RuneSelf {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		return rune(b), 1
	}
	r, n := utf8.DecodeRuneInString(s[j:])
	return unicode.ToLower(r), n
}
