package jsonscan

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// unescape is the text of body, the inside of a valid JSON string token
// that holds an escape or a byte that is not UTF-8, as encoding/json
// decodes it: each escape written out, a byte that is not UTF-8 and an
// unpaired surrogate escape as U+FFFD. It is encoding/json's own unquoting
// (unquoteBytes), without the scan that checks the token again first and
// the reflection that puts the string in place: a reader's strings with
// escapes (a message's quotes, newlines and emoji) went through
// json.Unmarshal one by one (FuzzUnescapeAsUnmarshal). false on a body no
// valid token has; the caller then asks encoding/json.
func unescape(body []byte) (string, bool) {
	var b strings.Builder
	b.Grow(len(body))
	for r := 0; r < len(body); {
		c := body[r]
		switch {
		case c == '\\':
			if r+1 >= len(body) {
				return "", false
			}
			switch e := body[r+1]; e {
			case '"', '\\', '/', '\'':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				rr := hex4(body[r:])
				if rr < 0 {
					return "", false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, hex4(body[r:])); dec != unicode.ReplacementChar {
						r += 6 // a pair
						b.WriteRune(dec)
						continue
					}
					rr = unicode.ReplacementChar // unpaired
				}
				b.WriteRune(rr)
				continue
			default:
				return "", false
			}
			r += 2
		case c == '"' || c < ' ':
			return "", false
		case c < utf8.RuneSelf:
			b.WriteByte(c)
			r++
		default:
			rr, size := utf8.DecodeRune(body[r:])
			b.WriteRune(rr) // U+FFFD for a byte that is not UTF-8
			r += size
		}
	}
	return b.String(), true
}

// hex4 is the code unit of the \uXXXX escape s starts with; -1 when s
// does not start with one.
func hex4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}
