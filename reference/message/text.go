package message

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Length is the number of characters in s as the spec counts them (EST-2):
// UTF-16 code units, so a character outside the Basic Multilingual Plane
// (an emoji, say) counts 2, and every other code point counts 1. This is
// String.prototype.length in ECMAScript.
func Length(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// ContentLength is the character count of a content member (EST-2, EST-3,
// EST-4): 0 when absent or null, the Length of a string's value, and the
// Length of the compact serialization of any other JSON value.
func ContentLength(content json.RawMessage) (int, error) {
	c := strings.TrimSpace(string(content))
	switch {
	case c == "" || c == "null":
		return 0, nil
	case c[0] == '"':
		var s string
		if err := json.Unmarshal([]byte(c), &s); err != nil {
			return 0, err
		}
		if err := checkSurrogates(c); err != nil {
			return 0, err
		}
		return Length(s), nil
	default:
		ser, err := Compact([]byte(c))
		if err != nil {
			return 0, err
		}
		return Length(ser), nil
	}
}

// Compact serializes a JSON text exactly as ECMAScript's
// JSON.stringify(JSON.parse(text)) does (EST-3): members in their received
// order, no insignificant white space, strings escaping only '"', '\\' and
// U+0000–U+001F (\b \t \n \f \r short forms, otherwise \u00xx with lower-case
// hex), and numbers in ECMAScript's shortest round-trip form.
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
	return c.out.String(), nil
}

type compactor struct {
	src []byte
	pos int
	out strings.Builder
}

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
		if object {
			if c.pos >= len(c.src) || c.src[c.pos] != '"' {
				return errors.New("object member name must be a string")
			}
			if err := c.str(); err != nil {
				return err
			}
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
			return nil
		default:
			return fmt.Errorf("unexpected %q in JSON container", c.src[c.pos])
		}
	}
}

func (c *compactor) literal(word string) error {
	if !strings.HasPrefix(string(c.src[c.pos:min(len(c.src), c.pos+len(word))]), word) {
		return fmt.Errorf("invalid JSON literal at offset %d", c.pos)
	}
	c.pos += len(word)
	c.out.WriteString(word)
	return nil
}

func (c *compactor) number() error {
	start := c.pos
	for c.pos < len(c.src) && strings.IndexByte("+-0123456789.eE", c.src[c.pos]) >= 0 {
		c.pos++
	}
	f, err := strconv.ParseFloat(string(c.src[start:c.pos]), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("invalid JSON number %q", c.src[start:c.pos])
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

func writeEscaped(out *strings.Builder, r rune) {
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

// checkSurrogates rejects unpaired surrogate escapes in a JSON string literal,
// which encoding/json would otherwise silently replace with U+FFFD.
func checkSurrogates(literal string) error {
	if !strings.Contains(literal, `\u`) && !strings.Contains(literal, `\U`) {
		return nil
	}
	_, err := Compact([]byte(literal))
	return err
}

// FormatNumber renders f as ECMAScript's Number::toString does, which is what
// JSON.stringify writes: the shortest digits that round-trip, plain notation
// for exponents from -6 to 20, otherwise "d.ddde+n". Non-finite values become
// "null", as in JSON.stringify.
func FormatNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "null"
	}
	if f == 0 {
		return "0" // also for -0
	}
	sign := ""
	if f < 0 {
		sign = "-"
		f = -f
	}
	// 'e' with precision -1 gives the shortest round-trip digits: d.ddde±x.
	mant, expPart, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	k := len(digits)
	n := exp + 1 // value = 0.digits × 10^n
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		e := n - 1
		expSign := "+"
		if e < 0 {
			expSign = "-"
			e = -e
		}
		s = digits[:1]
		if k > 1 {
			s += "." + digits[1:]
		}
		s += "e" + expSign + strconv.Itoa(e)
	}
	return sign + s
}
