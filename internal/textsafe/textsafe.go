// Package textsafe makes text that an implementation under test sent safe
// to show and bounded to keep: control characters as visible escapes, and
// long texts clipped with their size said (D-52).
package textsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Controls writes every control character but tab — C0, DEL, C1 — every
// Unicode line or paragraph separator, every bidirectional control and
// every byte that is not UTF-8 as a visible escape (\x1b, \r, \u2028,
// \xff); a newline too unless keepNewlines. Text escaped so cannot move
// a terminal's cursor, set its title or clipboard, ring its bell, hide a
// line, or start a line of its own.
func Controls(s string, keepNewlines bool) string {
	if !needsEscape(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && keepNewlines, r == '\t':
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string, keepNewlines bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return true
		case r == '\t', r == '\n' && keepNewlines:
		case r < 0x20 || r == 0x7f || unsafeRune(r):
			return true
		}
		i += size
	}
	return false
}

// unsafeRune is a character beyond ASCII that controls how text is shown:
// C1 controls (0x9b is a CSI on some terminals), the line and paragraph
// separators, and the bidirectional controls that reorder what is read.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c || r == 0xfeff || r == 0xfffe || r == 0xffff
}

// Clip cuts s to at most limit bytes (at a UTF-8 boundary) and says so,
// with the size it had: "… (clipped: 33554432 bytes in all, the first
// 4096 shown)". A text within the limit is returned as it is.
func Clip(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (clipped: %d bytes in all, the first %d shown)", s[:cut], len(s), cut)
}
