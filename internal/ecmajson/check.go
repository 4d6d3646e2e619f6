package ecmajson

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// Reading JSON text without compacting it: Compact builds the whole
// serialization, which a reader that only needs to know that a text can be
// counted (MSG-1), or how long a string is (EST-2), throws away. The
// readers here give what Compact gives where they answer, and leave
// everything else to it (FuzzCountableAsCompact, FuzzStringAsCompact).

// Countable reports whether Compact accepts valid, a text json.Valid
// accepts: whether its bytes are UTF-8 and every surrogate it escapes is
// the high half of a pair whose low half is escaped right after it. Those
// are the only texts json.Valid accepts that Compact refuses (MSG-1); so
// for a text json.Valid accepts, Countable is Compact's error being nil,
// found without building the serialization. On other text its answer
// means nothing (but is no panic).
func Countable(valid []byte) bool {
	if !utf8.Valid(valid) {
		return false
	}
	// In valid JSON a backslash is always in a string and starts an
	// escape: the escapes are found without tracking where strings are.
	for i := bytes.IndexByte(valid, '\\'); i >= 0; {
		if i+1 >= len(valid) {
			return false
		}
		next := i + 2
		if valid[i+1] == 'u' {
			r, ok := hex4(valid, i+2)
			if !ok {
				return false
			}
			next = i + 6
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || next+1 >= len(valid) || valid[next] != '\\' || valid[next+1] != 'u' {
					return false
				}
				lo, ok := hex4(valid, next+2)
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return false
				}
				next += 6
			}
		}
		j := bytes.IndexByte(valid[next:], '\\')
		if j < 0 {
			break
		}
		i = next + j
	}
	return true
}

// hex4 is the value of the four hexadecimal digits at v[i:].
func hex4(v []byte, i int) (rune, bool) {
	if i+4 > len(v) {
		return 0, false
	}
	var r rune
	for _, b := range v[i : i+4] {
		switch {
		case '0' <= b && b <= '9':
			r = r<<4 | rune(b-'0')
		case 'a' <= b && b <= 'f':
			r = r<<4 | rune(b-'a'+10)
		case 'A' <= b && b <= 'F':
			r = r<<4 | rune(b-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// stringLength is the Length of the string a JSON string token holds,
// counted on the token (EST-2): a character written as itself counts its
// UTF-16 units, an escape counts one (a pair of \u escapes is the two
// units of its character). ok is false, and the length means nothing,
// unless token is one string token Compact accepts: quoted, without a raw
// control character, with JSON's escapes only, in UTF-8, its surrogates
// paired.
func stringLength(token []byte) (n int, ok bool) {
	if len(token) < 2 || token[0] != '"' {
		return 0, false
	}
	for i := 1; i < len(token); {
		b := token[i]
		switch {
		case b == '"':
			return n, i == len(token)-1
		case b == '\\':
			if i+1 >= len(token) {
				return 0, false
			}
			switch token[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
				n++
				continue
			case 'u':
			default:
				return 0, false
			}
			r, ok := hex4(token, i+2)
			if !ok {
				return 0, false
			}
			i += 6
			n++
			if !utf16.IsSurrogate(r) {
				continue
			}
			if r >= 0xDC00 || i+1 >= len(token) || token[i] != '\\' || token[i+1] != 'u' {
				return 0, false
			}
			if lo, ok := hex4(token, i+2); !ok || lo < 0xDC00 || lo > 0xDFFF {
				return 0, false
			}
			i += 6
			n++
		case b < 0x20:
			return 0, false
		case b < utf8.RuneSelf:
			i++
			n++
		default:
			r, size := utf8.DecodeRune(token[i:])
			if r == utf8.RuneError && size <= 1 {
				return 0, false
			}
			i += size
			n += utf16.RuneLen(r)
		}
	}
	return 0, false // no closing quote
}
