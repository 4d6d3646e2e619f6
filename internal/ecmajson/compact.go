package ecmajson

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonSpace is the insignificant white space of JSON (RFC 8259), which is
// narrower than Unicode's.
const jsonSpace = " \t\r\n"

// Compact serializes a JSON text exactly as ECMAScript's
// JSON.stringify(JSON.parse(text)) does (EST-3): members in their received
// order, no insignificant white space, strings escaping only '"', '\\' and
// U+0000–U+001F (\b \t \n \f \r short forms, otherwise \u00xx with lower-case
// hex), and numbers in ECMAScript's shortest round-trip form. As in
// JSON.parse, an object keeps one member per name (compared after
// unescaping): at the position of the name's first occurrence, with the value
// of its last.
func Compact(text []byte) (string, error) {
	c := compactor{src: text}
	c.skipSpace()
	if err := c.value(); err != nil {
		return "", err
	}
	c.skipSpace()
	if c.pos != len(c.src) {
		return "", fmt.Errorf("unexpected %q after the JSON value", c.src[c.pos])
	}
	if len(c.patches) == 0 {
		return c.out.String(), nil
	}
	var b strings.Builder
	b.Grow(c.out.Len())
	c.emit(&b, 0, c.out.Len())
	return b.String(), nil
}

// emit writes out[from:to] with every patch in it applied: the region of
// a merged object is written as its kept members, each of them with the
// patches inside it applied in turn. Every byte is written at most once,
// so a text is compacted in time linear in its length however deep its
// objects with repeated names nest (they were rewritten at every level).
func (c *compactor) emit(b *strings.Builder, from, to int) {
	out := c.out.Bytes()
	for from < to {
		i := sort.Search(len(c.patches), func(i int) bool { return c.patches[i].start >= from })
		if i == len(c.patches) || c.patches[i].start >= to {
			b.Write(out[from:to])
			return
		}
		p := c.patches[i]
		b.Write(out[from:p.start])
		for _, s := range p.segs {
			if s[0] < 0 {
				b.WriteByte(byte(s[1])) // a brace or a comma
				continue
			}
			c.emit(b, s[0], s[1])
		}
		from = p.end
	}
}

type compactor struct {
	src []byte
	pos int
	out bytes.Buffer
	// members is a stack of the members of the objects being compacted; an
	// object's members sit above the length the stack had when it opened.
	members []member
	// patches are the objects whose repeated names were merged, sorted by
	// where they start in out: Compact writes each region as its segs.
	patches []patch
}

// patch replaces the region out[start:end], an object with a repeated
// name, by segs: its brace, its kept members (ranges of out) and the
// commas between them, its closing brace; a brace or a comma is {-1, byte}.
type patch struct {
	start, end int
	segs       [][2]int
}

// member locates one compacted object member, "name":value, in out.
type member struct{ start, nameEnd, end int }

var errTruncated = errors.New("truncated JSON")

func (c *compactor) skipSpace() {
	for c.pos < len(c.src) {
		switch c.src[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *compactor) value() error {
	if c.pos >= len(c.src) {
		return errTruncated
	}
	switch b := c.src[c.pos]; {
	case b == '{':
		return c.container('{', '}', true)
	case b == '[':
		return c.container('[', ']', false)
	case b == '"':
		return c.str()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	case b == '-' || (b >= '0' && b <= '9'):
		return c.number()
	default:
		return fmt.Errorf("unexpected %q in JSON", b)
	}
}

func (c *compactor) container(open, close byte, object bool) error {
	start, base := c.out.Len(), len(c.members)
	c.out.WriteByte(open)
	c.pos++
	c.skipSpace()
	if c.pos < len(c.src) && c.src[c.pos] == close {
		c.pos++
		c.out.WriteByte(close)
		return nil
	}
	for {
		c.skipSpace()
		memberStart, nameEnd := c.out.Len(), 0
		if object {
			if c.pos >= len(c.src) || c.src[c.pos] != '"' {
				return errors.New("object member name must be a string")
			}
			if err := c.str(); err != nil {
				return err
			}
			nameEnd = c.out.Len()
			c.skipSpace()
			if c.pos >= len(c.src) || c.src[c.pos] != ':' {
				return errors.New("missing ':' after member name")
			}
			c.pos++
			c.out.WriteByte(':')
			c.skipSpace()
		}
		if err := c.value(); err != nil {
			return err
		}
		if object {
			c.members = append(c.members, member{memberStart, nameEnd, c.out.Len()})
		}
		c.skipSpace()
		if c.pos >= len(c.src) {
			return errTruncated
		}
		switch c.src[c.pos] {
		case ',':
			c.pos++
			c.out.WriteByte(',')
		case close:
			c.pos++
			c.out.WriteByte(close)
			if object {
				c.mergeDuplicates(start, c.members[base:])
				c.members = c.members[:base]
			}
			return nil
		default:
			return fmt.Errorf("unexpected %q in JSON container", c.src[c.pos])
		}
	}
}

// mergeDuplicates rewrites the compacted object at out[start:], whose members
// are ms, the way JSON.parse builds an object from it: a repeated name keeps
// the position of its first occurrence and takes the value of its last.
// Names are compared in their compacted form, which is canonical: two names
// are equal exactly when their unescaped values are.
func (c *compactor) mergeDuplicates(start int, ms []member) {
	if len(ms) < 2 {
		return
	}
	out := c.out.Bytes()
	name := func(m member) []byte { return out[m.start:m.nameEnd] }
	if len(ms) <= 16 { // spare small objects a map
		dup := false
		for i := 1; i < len(ms) && !dup; i++ {
			for j := 0; j < i && !dup; j++ {
				dup = bytes.Equal(name(ms[i]), name(ms[j]))
			}
		}
		if !dup {
			return
		}
	}
	// kept lists, in first-occurrence order, the index in ms of the member
	// whose value each distinct name ends up with.
	kept := make([]int, 0, len(ms))
	position := make(map[string]int, len(ms)) // name → index in kept
	for i, m := range ms {
		if k, ok := position[string(name(m))]; ok {
			kept[k] = i
			continue
		}
		position[string(name(m))] = len(kept)
		kept = append(kept, i)
	}
	if len(kept) == len(ms) {
		return
	}
	// Not rewritten here (an enclosing object may be merged too, and would
	// copy this one again): recorded, and written once by emit.
	p := patch{start: start, end: len(out), segs: make([][2]int, 0, 2*len(kept)+1)}
	p.segs = append(p.segs, [2]int{-1, '{'})
	for k, i := range kept {
		if k > 0 {
			p.segs = append(p.segs, [2]int{-1, ','})
		}
		p.segs = append(p.segs, [2]int{ms[i].start, ms[i].end})
	}
	p.segs = append(p.segs, [2]int{-1, '}'})
	// An object closes after the objects inside it: it goes before every
	// patch that starts after it.
	at := sort.Search(len(c.patches), func(i int) bool { return c.patches[i].start > start })
	c.patches = slices.Insert(c.patches, at, p)
}

func (c *compactor) literal(word string) error {
	if !strings.HasPrefix(string(c.src[c.pos:min(len(c.src), c.pos+len(word))]), word) {
		return fmt.Errorf("invalid JSON literal at offset %d", c.pos)
	}
	c.pos += len(word)
	c.out.WriteString(word)
	return nil
}

// number reads a number with JSON's grammar, which is stricter than
// strconv.ParseFloat's (no leading zeros, no "1." nor ".5", no "+1").
func (c *compactor) number() error {
	start := c.pos
	digits := func() int {
		n := 0
		for c.pos < len(c.src) && '0' <= c.src[c.pos] && c.src[c.pos] <= '9' {
			c.pos++
			n++
		}
		return n
	}
	at := func(chars string) bool {
		return c.pos < len(c.src) && strings.IndexByte(chars, c.src[c.pos]) >= 0
	}
	invalid := func() error {
		end := c.pos
		for end < len(c.src) && strings.IndexByte("+-0123456789.eE", c.src[end]) >= 0 {
			end++
		}
		return fmt.Errorf("invalid JSON number %q", c.src[start:end])
	}
	if at("-") {
		c.pos++
	}
	intStart := c.pos
	if n := digits(); n == 0 || (n > 1 && c.src[intStart] == '0') {
		return invalid()
	}
	if at(".") {
		c.pos++
		if digits() == 0 {
			return invalid()
		}
	}
	if at("eE") {
		c.pos++
		if at("+-") {
			c.pos++
		}
		if digits() == 0 {
			return invalid()
		}
	}
	// Out of range is not an error: ParseFloat then gives ±Inf, which
	// FormatNumber writes as null, or ±0, as JSON.parse does.
	f, err := strconv.ParseFloat(string(c.src[start:c.pos]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return invalid()
	}
	c.out.WriteString(FormatNumber(f))
	return nil
}

// str decodes one JSON string and re-escapes it the way JSON.stringify does.
func (c *compactor) str() error {
	c.pos++ // opening quote
	c.out.WriteByte('"')
	for {
		if c.pos >= len(c.src) {
			return errTruncated
		}
		b := c.src[c.pos]
		switch {
		case b == '"':
			c.pos++
			c.out.WriteByte('"')
			return nil
		case b == '\\':
			r, err := c.escape()
			if err != nil {
				return err
			}
			writeEscaped(&c.out, r)
		case b < 0x20:
			return fmt.Errorf("raw control character U+%04X in a JSON string", b)
		default:
			r, size := utf8.DecodeRune(c.src[c.pos:])
			if r == utf8.RuneError && size <= 1 {
				return fmt.Errorf("invalid UTF-8 byte 0x%02x in a JSON string", b)
			}
			c.pos += size
			writeEscaped(&c.out, r)
		}
	}
}

// escape decodes the escape sequence at c.pos, joining surrogate pairs and
// rejecting unpaired surrogates (MSG-1).
func (c *compactor) escape() (rune, error) {
	if c.pos+1 >= len(c.src) {
		return 0, errTruncated
	}
	e := c.src[c.pos+1]
	c.pos += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
		hi, err := c.hex4()
		if err != nil {
			return 0, err
		}
		if !utf16.IsSurrogate(hi) {
			return hi, nil
		}
		if hi >= 0xDC00 || c.pos+1 >= len(c.src) || c.src[c.pos] != '\\' || c.src[c.pos+1] != 'u' {
			return 0, fmt.Errorf("unpaired surrogate \\u%04X in a JSON string", hi)
		}
		c.pos += 2
		lo, err := c.hex4()
		if err != nil {
			return 0, err
		}
		r := utf16.DecodeRune(hi, lo)
		if r == utf8.RuneError {
			return 0, fmt.Errorf("unpaired surrogate \\u%04X in a JSON string", hi)
		}
		return r, nil
	default:
		return 0, fmt.Errorf("invalid escape \\%c in a JSON string", e)
	}
}

func (c *compactor) hex4() (rune, error) {
	if c.pos+4 > len(c.src) {
		return 0, errTruncated
	}
	v, err := strconv.ParseUint(string(c.src[c.pos:c.pos+4]), 16, 32)
	if err != nil {
		return 0, fmt.Errorf("invalid \\u escape %q", c.src[c.pos:c.pos+4])
	}
	c.pos += 4
	return rune(v), nil
}

func writeEscaped(out *bytes.Buffer, r rune) {
	switch r {
	case '"':
		out.WriteString(`\"`)
	case '\\':
		out.WriteString(`\\`)
	case '\b':
		out.WriteString(`\b`)
	case '\f':
		out.WriteString(`\f`)
	case '\n':
		out.WriteString(`\n`)
	case '\r':
		out.WriteString(`\r`)
	case '\t':
		out.WriteString(`\t`)
	default:
		if r < 0x20 {
			fmt.Fprintf(out, `\u%04x`, r)
			return
		}
		out.WriteRune(r)
	}
}
