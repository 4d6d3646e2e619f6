package gen

import (
	"fmt"
	"strconv"
	"strings"
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

// jv is a JSON value.
type jv struct {
	kind  jkind
	b     bool
	num   numLit
	str   string // the string's value, not its JSON text
	esc   bool   // write the string on the wire with \u escapes and \/
	elems []jv
	mems  []jmember
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
func jint(i int) jv              { s := strconv.Itoa(i); return jv{kind: jNum, num: numLit{s, s}} }
func jnum(n numLit) jv           { return jv{kind: jNum, num: n} }
func jarr(elems ...jv) jv        { return jv{kind: jArr, elems: elems} }
func jobj(mems ...jmember) jv    { return jv{kind: jObj, mems: mems} }
func mem(n string, v jv) jmember { return jmember{n, v} }

// compact is JSON.stringify(JSON.parse(wire)): no white space, members in
// order, strings escaped as ECMAScript does, numbers in Number::toString form.
func (v jv) compact() string {
	var b strings.Builder
	v.write(&b, false, false)
	return b.String()
}

// wire is the JSON text sent; spaced puts a space after ',' and ':'.
func (v jv) wire(spaced bool) string {
	var b strings.Builder
	v.write(&b, true, spaced)
	return b.String()
}

func (v jv) write(b *strings.Builder, wire, spaced bool) {
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	switch v.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		b.WriteString(strconv.FormatBool(v.b))
	case jNum:
		if wire {
			b.WriteString(v.num.wire)
		} else {
			b.WriteString(v.num.js)
		}
	case jStr:
		if wire && v.esc {
			quoteEscaped(b, v.str)
		} else {
			quoteJS(b, v.str)
		}
	case jArr:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(comma)
			}
			e.write(b, wire, spaced)
		}
		b.WriteByte(']')
	case jObj:
		b.WriteByte('{')
		for i, m := range v.mems {
			if i > 0 {
				b.WriteString(comma)
			}
			quoteJS(b, m.name)
			b.WriteString(colon)
			m.val.write(b, wire, spaced)
		}
		b.WriteByte('}')
	}
}

// quoteJS quotes s as JSON.stringify does: only '"', '\' and U+0000–U+001F
// are escaped, with the short forms \b \t \n \f \r and otherwise \u00xx in
// lower case; everything else (U+007F, '/', U+2028, astral characters) is
// written as itself.
func quoteJS(b *strings.Builder, s string) {
	b.WriteByte('"')
	if plain(s) {
		b.WriteString(s)
		b.WriteByte('"')
		return
	}
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// plain reports whether quoteJS writes s as itself: valid UTF-8 (an
// invalid byte is written as U+FFFD) with nothing to escape.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
			return false
		}
	}
	return utf8.ValidString(s)
}

// quoteEscaped writes s the way an ASCII-only encoder might: every
// character outside printable ASCII as \uXXXX (upper-case hex, astral
// characters as surrogate pairs) and '/' as \/. The value is the same;
// only its spelling differs, which an implementation must see through
// (EST-2: "\u00e9" is one character, not six).
func quoteEscaped(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '/':
			b.WriteString(`\/`)
		case r < 0x20 || r >= 0x7f:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(b, `\u%04X`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
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
