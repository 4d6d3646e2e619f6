package gen

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON values with a known serialization.

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jv is a JSON value. A number's two texts share the string fields rather
// than taking a numLit of their own: every message is a tree of these, so
// their size is most of what generating a message allocates.
type jv struct {
	kind jkind
	b    bool // a boolean's value
	esc  bool // write the string on the wire with \u escapes and \/
	// str is a string's value, not its JSON text, or a number as written
	// on the wire; js is a number as Number::toString writes it.
	str, js string
	elems   []jv
	mems    []jmember
}

type jmember struct {
	name string
	val  jv
}

// numLit is a number as written on the wire and as ECMAScript's
// Number::toString writes it (EST-3).
type numLit struct{ wire, js string }

func jnull() jv                  { return jv{kind: jNull} }
func jbool(b bool) jv            { return jv{kind: jBool, b: b} }
func jstr(s string) jv           { return jv{kind: jStr, str: s} }
func jint(i int) jv              { s := strconv.Itoa(i); return jv{kind: jNum, str: s, js: s} }
func jnum(n numLit) jv           { return jv{kind: jNum, str: n.wire, js: n.js} }
func jarr(elems ...jv) jv        { return jv{kind: jArr, elems: elems} }
func jobj(mems ...jmember) jv    { return jv{kind: jObj, mems: mems} }
func mem(n string, v jv) jmember { return jmember{n, v} }

// compact is JSON.stringify(JSON.parse(wire)): no white space, members in
// order, strings escaped as ECMAScript does, numbers in Number::toString form.
func (v jv) compact() string {
	var scratch [256]byte
	return string(v.append(scratch[:0], false, false))
}

// append writes v at the end of b: on the wire, or in compact form.
func (v jv) append(b []byte, wire, spaced bool) []byte {
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	switch v.kind {
	case jNull:
		b = append(b, "null"...)
	case jBool:
		b = strconv.AppendBool(b, v.b)
	case jNum:
		if wire {
			b = append(b, v.str...)
		} else {
			b = append(b, v.js...)
		}
	case jStr:
		if wire && v.esc {
			b = quoteEscaped(b, v.str)
		} else {
			b = quoteJS(b, v.str)
		}
	case jArr:
		b = append(b, '[')
		for i, e := range v.elems {
			if i > 0 {
				b = append(b, comma...)
			}
			b = e.append(b, wire, spaced)
		}
		b = append(b, ']')
	case jObj:
		b = append(b, '{')
		for i, m := range v.mems {
			if i > 0 {
				b = append(b, comma...)
			}
			b = quoteJS(b, m.name)
			b = append(b, colon...)
			b = m.val.append(b, wire, spaced)
		}
		b = append(b, '}')
	}
	return b
}

// wireIsCompact reports whether v is written on the wire, without spaces,
// as in compact form: no string spelled with escapes and no number in
// another form than Number::toString's.
func (v jv) wireIsCompact() bool {
	switch v.kind {
	case jNum:
		return v.str == v.js
	case jStr:
		return !v.esc
	case jArr:
		for _, e := range v.elems {
			if !e.wireIsCompact() {
				return false
			}
		}
	case jObj:
		for _, m := range v.mems {
			if !m.val.wireIsCompact() {
				return false
			}
		}
	}
	return true
}

// quoteJS quotes s as JSON.stringify does: only '"', '\' and U+0000–U+001F
// are escaped, with the short forms \b \t \n \f \r and otherwise \u00xx in
// lower case; everything else (U+007F, '/', U+2028, astral characters) is
// written as itself.
func quoteJS(b []byte, s string) []byte {
	b = append(b, '"')
	if plain(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	for _, r := range s {
		switch r {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\b':
			b = append(b, `\b`...)
		case '\t':
			b = append(b, `\t`...)
		case '\n':
			b = append(b, `\n`...)
		case '\f':
			b = append(b, `\f`...)
		case '\r':
			b = append(b, `\r`...)
		default:
			if r < 0x20 {
				b = appendU(b, uint16(r), lowerHex)
			} else {
				b = utf8.AppendRune(b, r)
			}
		}
	}
	return append(b, '"')
}

// plain reports whether quoteJS writes s as itself: valid UTF-8 (an
// invalid byte is written as U+FFFD) with nothing to escape.
//
// One pass: a byte to escape is ASCII, and no byte of a multi-byte
// sequence is, so only the ASCII bytes need looking at and only the
// others decoding. Every string of every message goes through here.
func plain(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 || c == '"' || c == '\\' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		i += size
	}
	return true
}

// quoteEscaped writes s the way an ASCII-only encoder might: every
// character outside printable ASCII as \uXXXX (upper-case hex, astral
// characters as surrogate pairs) and '/' as \/. The value is the same;
// only its spelling differs, which an implementation must see through
// (EST-2: "\u00e9" is one character, not six).
func quoteEscaped(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '/':
			b = append(b, `\/`...)
		case r >= 0x10000:
			hi, lo := utf16.EncodeRune(r)
			b = appendU(appendU(b, uint16(hi), upperHex), uint16(lo), upperHex)
		case r < 0x20 || r >= 0x7f:
			b = appendU(b, uint16(r), upperHex)
		default:
			b = append(b, byte(r))
		}
	}
	return append(b, '"')
}

const (
	lowerHex = "0123456789abcdef"
	upperHex = "0123456789ABCDEF"
)

// appendU writes the escape \uXXXX of the code unit u in the digits given:
// what fmt's %04x or %04X writes, without fmt, for every escaped
// character of every message.
func appendU(b []byte, u uint16, digits string) []byte {
	return append(b, '\\', 'u', digits[u>>12], digits[u>>8&0xf], digits[u>>4&0xf], digits[u&0xf])
}

// UTF16Len is the number of UTF-16 code units of s: ECMAScript's
// String.prototype.length (EST-2).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		// An astral character is a surrogate pair; anything else, an
		// invalid byte read as U+FFFD included, one unit.
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
