package target

import "bytes"

// errorClipper clips, while a stdout line is read, every string inside the
// line's "error" member as clipStrings clips it once the line is whole
// (MaxErrorTextBytes, D-52): an implementation whose every error message
// is 32 MiB then costs a worker a few KiB per answer, not the answer, so
// that conform's memory is bounded by the caps whatever -parallel is. A
// result is never changed: it is what is compared.
//
// It follows the line as a JSON text without checking it: a line that is
// JSON decodes as it would have, clipped where decodeResponse would clip
// it; a line that is not JSON stays one that is not (of the bytes dropped
// from an overlong string, the first that break JSON are kept). Only the
// member of a top-level object whose name is written exactly "error" is
// clipped.
type errorClipper struct {
	limit int

	depth     int  // nesting of objects and arrays, outside strings
	object    bool // the line is a JSON object
	expectKey bool // at depth 1: the next string is a member's name
	key       []byte
	keyOther  bool // the name being read is not written "error"
	inError   bool // within the value of the member "error"

	inString bool
	isKey    bool // the string is a member's name at depth 1
	held     bool // the string is inside "error": held until its end
	esc      int  // 1 after a backslash; 2–5 within \u's hex digits
	// body is a held string as written, up to limit+1 bytes; n counts
	// all its bytes; bad are the first bytes in it that break JSON, at
	// badAt.
	body  []byte
	n     int
	bad   []byte
	badAt int
}

func newErrorClipper(limit int) *errorClipper {
	return &errorClipper{limit: limit, body: make([]byte, 0, limit+1)}
}

// reset readies c for a new line.
func (c *errorClipper) reset() {
	*c = errorClipper{limit: c.limit, body: c.body[:0], key: c.key[:0]}
}

// errorMember is how the member clipped is written, quotes included.
var errorMember = []byte(`"error"`)

// piece appends to out what chunk, the next bytes of the line, becomes;
// first and last say that chunk begins and ends the line. A line read in
// one piece that nowhere holds the bytes "error" has no member to clip and
// is passed on without a walk: most answers are results, and walking each
// byte of them was a thirtieth of the harness's CPU over the wire.
func (c *errorClipper) piece(out, chunk []byte, first, last bool) []byte {
	if first && last && !bytes.Contains(chunk, errorMember) {
		return append(out, chunk...)
	}
	out = c.feed(out, chunk)
	if last {
		out = c.flush(out)
	}
	return out
}

// feed appends to out what chunk, the next bytes of the line, becomes.
func (c *errorClipper) feed(out, chunk []byte) []byte {
	for i := 0; i < len(chunk); {
		if c.inString {
			i, out = c.str(out, chunk, i)
			continue
		}
		if c.depth > 1 && !c.inError {
			// Deep in a member other than "error": only the structure
			// matters, found a run of bytes at a time.
			j := bytes.IndexAny(chunk[i:], `"{}[]`)
			if j < 0 {
				return append(out, chunk[i:]...)
			}
			out = append(out, chunk[i:i+j]...)
			i += j
		}
		b := chunk[i]
		i++
		switch b {
		case '"':
			c.inString, c.esc = true, 0
			c.isKey = c.depth == 1 && c.object && c.expectKey
			c.held = c.inError && !c.isKey
			c.key, c.keyOther = c.key[:0], false
			c.body, c.n, c.bad = c.body[:0], 0, nil
			if c.isKey {
				c.expectKey = false
			}
			if c.held {
				continue // its quotes are written with it
			}
		case '{', '[':
			if c.depth == 0 && b == '{' {
				c.object, c.expectKey = true, true
			}
			c.depth++
		case '}', ']':
			c.depth--
			if c.depth <= 0 {
				c.inError = false
			}
		case ',':
			if c.depth == 1 {
				c.inError, c.expectKey = false, c.object
			}
		case ':':
			if c.depth == 1 && c.object {
				c.inError = !c.keyOther && string(c.key) == "error"
			}
		}
		out = append(out, b)
	}
	return out
}

// str reads chunk from i within a string, appends what it becomes to out,
// and returns where it stopped.
func (c *errorClipper) str(out, chunk []byte, i int) (int, []byte) {
	if !c.held {
		return c.copyStr(out, chunk, i)
	}
	for ; i < len(chunk); i++ {
		b := chunk[i]
		if c.esc == 0 && b == '"' {
			c.inString = false
			if c.n <= c.limit {
				out = append(out, '"')
				out = append(out, c.body...)
				return i + 1, append(out, '"')
			}
			return i + 1, c.appendClip(out)
		}
		c.check(b)
		c.n++
		if len(c.body) <= c.limit {
			c.body = append(c.body, b)
		}
	}
	return i, out
}

// copyStr copies a string that is not held, remembering a member's name
// at depth 1 while it may still be "error".
func (c *errorClipper) copyStr(out, chunk []byte, i int) (int, []byte) {
	j := i
	for j < len(chunk) {
		if c.esc == 0 && !c.isKey {
			// To the next quote or backslash, whichever comes first
			// (IndexByte is the fast one).
			k := bytes.IndexByte(chunk[j:], '"')
			if k < 0 {
				k = len(chunk) - j
			}
			if bs := bytes.IndexByte(chunk[j:j+k], '\\'); bs >= 0 {
				k = bs
			}
			if j += k; j == len(chunk) {
				return j, append(out, chunk[i:]...)
			}
		}
		b := chunk[j]
		j++
		switch {
		case c.esc > 0:
			c.esc = 0
		case b == '\\':
			c.esc, c.keyOther = 1, true // a name with an escape is not written "error"
		case b == '"':
			c.inString = false
			return j, append(out, chunk[i:j]...)
		case c.isKey && len(c.key) < len("error"):
			c.key = append(c.key, b)
		case c.isKey:
			c.keyOther = true
		}
	}
	return j, append(out, chunk[i:j]...)
}

// check follows the escapes of a held string and notes the first bytes
// that break JSON.
func (c *errorClipper) check(b byte) {
	var bad []byte
	switch {
	case c.esc == 1:
		switch b {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			c.esc = 0
		case 'u':
			c.esc = 2
		default:
			bad, c.esc = []byte{'\\', b}, 0
		}
	case c.esc >= 2:
		if !isHex(b) {
			bad, c.esc = []byte{'\\', 'u', b}, 0
		} else if c.esc++; c.esc == 6 {
			c.esc = 0
		}
	case b == '\\':
		c.esc = 1
	case b < 0x20:
		bad = []byte{b}
	}
	if bad != nil && c.bad == nil {
		c.bad, c.badAt = bad, c.n
	}
}

// appendClip writes a held string that outgrew the limit, clipped.
func (c *errorClipper) appendClip(out []byte) []byte {
	out = appendClipped(out, c.body, c.n, c.limit)
	if c.bad != nil && c.badAt >= clipKeep(c.body, clipRoom(c.limit)) {
		// The bytes dropped were not JSON: neither is the line.
		out = append(append(out[:len(out)-1], c.bad...), '"')
	}
	return out
}

// flush appends what is held back at the end of a line: a string that did
// not end (the line is not JSON, and stays so).
func (c *errorClipper) flush(out []byte) []byte {
	if c.inString && c.held {
		out = append(out, '"')
		out = append(out, c.body...)
	}
	return out
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}
