package ecmajson

import (
	"bytes"
	"errors"
	"strconv"
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

// compactLength is the Length of Compact(text) (EST-2, EST-3), found
// without building the serialization. ok is false, and the length means
// nothing, unless text is one Compact accepts and has no object Compact
// would merge: none with a name written twice or a name with an escape
// (Compact then has the answer).
func compactLength(text []byte) (n int, ok bool) {
	m := measurer{src: text}
	m.skipSpace()
	if !m.value() {
		return 0, false
	}
	m.skipSpace()
	return m.n, m.pos == len(m.src)
}

// measurer reads a JSON text with Compact's grammar, adding up the
// length of what Compact would write for it.
type measurer struct {
	src   []byte
	pos   int
	n     int
	names [][]byte // the names of the objects being read, innermost last
}

func (m *measurer) skipSpace() {
	for m.pos < len(m.src) {
		switch m.src[m.pos] {
		case ' ', '\t', '\n', '\r':
			m.pos++
		default:
			return
		}
	}
}

func (m *measurer) value() bool {
	if m.pos >= len(m.src) {
		return false
	}
	switch b := m.src[m.pos]; {
	case b == '{':
		return m.container('}', true)
	case b == '[':
		return m.container(']', false)
	case b == '"':
		return m.str()
	case b == 't':
		return m.literal("true")
	case b == 'f':
		return m.literal("false")
	case b == 'n':
		return m.literal("null")
	case b == '-' || '0' <= b && b <= '9':
		return m.number()
	}
	return false
}

func (m *measurer) container(close byte, object bool) bool {
	base := len(m.names)
	defer func() { m.names = m.names[:base] }()
	m.pos++
	m.n++ // the opening bracket
	m.skipSpace()
	if m.pos < len(m.src) && m.src[m.pos] == close {
		m.pos++
		m.n++
		return true
	}
	for {
		m.skipSpace()
		if object {
			if m.pos >= len(m.src) || m.src[m.pos] != '"' {
				return false
			}
			start := m.pos
			if !m.str() {
				return false
			}
			name := m.src[start:m.pos]
			if bytes.IndexByte(name, '\\') >= 0 {
				return false // names compared after unescaping: Compact's
			}
			if len(m.names)-base >= 16 {
				return false // many names: Compact merges them by a map
			}
			for _, other := range m.names[base:] {
				if bytes.Equal(other, name) {
					return false // merged: Compact's
				}
			}
			m.names = append(m.names, name)
			m.skipSpace()
			if m.pos >= len(m.src) || m.src[m.pos] != ':' {
				return false
			}
			m.pos++
			m.n++
			m.skipSpace()
		}
		if !m.value() {
			return false
		}
		m.skipSpace()
		if m.pos >= len(m.src) {
			return false
		}
		switch m.src[m.pos] {
		case ',':
			m.pos++
			m.n++
		case close:
			m.pos++
			m.n++
			return true
		default:
			return false
		}
	}
}

func (m *measurer) literal(word string) bool {
	if len(m.src)-m.pos < len(word) || string(m.src[m.pos:m.pos+len(word)]) != word {
		return false
	}
	m.pos += len(word)
	m.n += len(word)
	return true
}

// number measures a number as FormatNumber writes it; an integer of at
// most 15 digits (other than -0) is written as it is.
func (m *measurer) number() bool {
	d := m.src
	start, i := m.pos, m.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		from := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i - from
	}
	intStart := i
	if n := digits(); n == 0 || n > 1 && d[intStart] == '0' {
		return false
	}
	plain := i-intStart <= 15
	if i < len(d) && d[i] == '.' {
		i++
		plain = false
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		plain = false
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	m.pos = i
	token := d[start:i]
	if plain && string(token) != "-0" {
		m.n += len(token)
		return true
	}
	f, err := strconv.ParseFloat(string(token), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return false
	}
	m.n += len(FormatNumber(f))
	return true
}

// str measures a string as Compact writes it: quoted, '"' and '\\' and
// the control characters escaped (\b \t \n \f \r in short, others as
// \u00xx), every other character itself.
func (m *measurer) str() bool {
	d := m.src
	i := m.pos + 1
	n := 2 // the quotes
	for {
		if i >= len(d) {
			return false
		}
		b := d[i]
		switch {
		case b == '"':
			m.pos = i + 1
			m.n += n
			return true
		case b == '\\':
			if i+1 >= len(d) {
				return false
			}
			switch d[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
				n += 2
				continue
			case '/':
				i += 2
				n++
				continue
			case 'u':
			default:
				return false
			}
			r, ok := hex4(d, i+2)
			if !ok {
				return false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r >= 0xDC00 || i+1 >= len(d) || d[i] != '\\' || d[i+1] != 'u' {
					return false
				}
				if lo, ok := hex4(d, i+2); !ok || lo < 0xDC00 || lo > 0xDFFF {
					return false
				}
				i += 6
				n += 2
				continue
			}
			n += escapedLength(r)
		case b < 0x20:
			return false
		case b < utf8.RuneSelf:
			i++
			n += escapedLength(rune(b))
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				return false
			}
			i += size
			n += utf16.RuneLen(r)
		}
	}
}

// escapedLength is the Length of a character of the Basic Multilingual
// Plane as Compact writes it in a string.
func escapedLength(r rune) int {
	switch {
	case r == '"' || r == '\\' || r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t':
		return 2
	case r < 0x20:
		return 6
	}
	return 1
}
