package jsonscan

// maxDepth is encoding/json's limit on nesting: a text with more arrays
// and objects open at once is not valid to it.
const maxDepth = 10000

// Valid reports whether v is one JSON value, with white space around it
// only, exactly as json.Valid does (FuzzValidAsEncodingJSON): strings may
// hold any byte but the controls below U+0020, unescaped, bytes that are
// not UTF-8 included; nesting deeper than 10000 is refused. It checks a
// text in one pass of a few comparisons a byte, where encoding/json's
// scanner calls a function of its state for every byte: the harness checks
// every result it decodes (D-89).
func Valid(v []byte) bool {
	ok, _ := scan(v)
	return ok
}

// scan is Valid's one pass, which also learns, of a valid v, whether it is
// already what json.Marshal writes for a json.RawMessage holding it:
// encoding/json compacts such a value (it drops the white space between
// tokens) and escapes in it, for HTML, every '<', '>', '&' and the line and
// paragraph separators U+2028 and U+2029, and changes nothing else. ok
// says that v is valid JSON; same that there is nothing to drop or escape,
// so that AppendMarshaled copies v as it is (D-92; FuzzMarshaledAsMarshal).
func scan(v []byte) (ok, same bool) {
	var open [64]byte // the containers open: '{' or '['; more on the heap
	stack := open[:0]
	same = true
	i := 0
	if i < len(v) && isSpace(v[0]) {
		same = false
		i = skipSpace(v, 0)
	}
	for {
		// A value starts at i.
		if i >= len(v) {
			return false, false
		}
		switch c := v[i]; c {
		case '{', '[':
			if len(stack) == maxDepth {
				return false, false
			}
			stack = append(stack, c)
			i++
			if i < len(v) && isSpace(v[i]) {
				same = false
				i = skipSpace(v, i)
			}
			if i < len(v) && v[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				var ok bool
				if i, ok = validName(v, i, &same); !ok {
					return false, false
				}
			}
			continue
		case '"':
			var ok bool
			if i, ok = validString(v, i, &same); !ok {
				return false, false
			}
		case 't':
			if !hasPrefix(v[i:], "true") {
				return false, false
			}
			i += 4
		case 'f':
			if !hasPrefix(v[i:], "false") {
				return false, false
			}
			i += 5
		case 'n':
			if !hasPrefix(v[i:], "null") {
				return false, false
			}
			i += 4
		default:
			var ok bool
			if i, ok = validNumber(v, i); !ok {
				return false, false
			}
		}
		// A value ended at i: what follows closes its containers, or
		// separates it from the next value of the innermost.
		for {
			if i < len(v) && isSpace(v[i]) {
				same = false
				i = skipSpace(v, i)
			}
			if len(stack) == 0 {
				return i == len(v), same
			}
			if i >= len(v) {
				return false, false
			}
			top := stack[len(stack)-1]
			if v[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if v[i] != ',' {
				return false, false
			}
			i++
			if i < len(v) && isSpace(v[i]) {
				same = false
				i = skipSpace(v, i)
			}
			if top == '{' {
				var ok bool
				if i, ok = validName(v, i, &same); !ok {
					return false, false
				}
			}
			break
		}
	}
}

// validName checks a member's name and its colon at i, and returns the
// index of its value. It clears *same as scan does.
func validName(v []byte, i int, same *bool) (int, bool) {
	if i >= len(v) || v[i] != '"' {
		return i, false
	}
	i, ok := validString(v, i, same)
	if !ok {
		return i, false
	}
	if i < len(v) && isSpace(v[i]) {
		*same = false
		i = skipSpace(v, i)
	}
	if i >= len(v) || v[i] != ':' {
		return i, false
	}
	i++
	if i < len(v) && isSpace(v[i]) {
		*same = false
		i = skipSpace(v, i)
	}
	return i, true
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// validString checks the string token at i and returns the index after
// it. It clears *same on a byte json.Marshal escapes for HTML in a
// json.RawMessage: '<', '>', '&', and the first byte of U+2028 or U+2029
// (E2 80 A8, E2 80 A9).
func validString(v []byte, i int, same *bool) (int, bool) {
	for i++; i < len(v); i++ {
		c := v[i]
		if !stringStop[c] {
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '<' || c == '>' || c == '&':
			*same = false
		case c == 0xE2:
			if i+2 < len(v) && v[i+1] == 0x80 && v[i+2]&^1 == 0xA8 {
				*same = false
			}
		case c == '\\':
			i++
			if i >= len(v) {
				return i, false
			}
			switch v[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(v) {
					return i, false
				}
				for _, h := range v[i+1 : i+5] {
					if !isHex(h) {
						return i, false
					}
				}
				i += 4
			default:
				return i, false
			}
		}
	}
	return i, false
}

// Number reports whether v is exactly one JSON number (RFC 8259), without
// white space: the grammar Valid reads numbers by, for a caller that holds
// a number's text alone (package exactnum).
func Number[T ~string | ~[]byte](v T) bool {
	end, ok := validNumber(v, 0)
	return ok && end == len(v)
}

// validNumber checks the number token at i, -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
// and returns the index after it.
func validNumber[T ~string | ~[]byte](v T, i int) (int, bool) {
	if i < len(v) && v[i] == '-' {
		i++
	}
	switch {
	case i < len(v) && v[i] == '0':
		i++
	case i < len(v) && v[i] >= '1' && v[i] <= '9':
		i = digits(v, i+1)
	default:
		return i, false
	}
	if i < len(v) && v[i] == '.' {
		end := digits(v, i+1)
		if end == i+1 {
			return i, false
		}
		i = end
	}
	if i < len(v) && (v[i] == 'e' || v[i] == 'E') {
		i++
		if i < len(v) && (v[i] == '+' || v[i] == '-') {
			i++
		}
		end := digits(v, i)
		if end == i {
			return i, false
		}
		i = end
	}
	return i, true
}

func digits[T ~string | ~[]byte](v T, i int) int {
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	return i
}

// stringStop marks the bytes a string's scan stops at: its end, an
// escape, a control, and the bytes json.Marshal escapes for HTML; every
// other byte is passed over with one look-up.
var stringStop = func() (stop [256]bool) {
	for c := range 0x20 {
		stop[c] = true
	}
	for _, c := range []byte{'"', '\\', '<', '>', '&', 0xE2} {
		stop[c] = true
	}
	return stop
}()

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hasPrefix(v []byte, lit string) bool {
	return len(v) >= len(lit) && string(v[:len(lit)]) == lit
}

// AppendMarshaled appends v as json.Marshal writes a json.RawMessage
// holding it, and false, appending nothing, when v is not valid JSON
// (json.Marshal's error then says why). A value already in that form, as
// the harness's generators write messages, is copied after scan's one
// pass; any other is compacted and escaped here, in a second pass that
// needs no state machine, v being valid (D-92).
func AppendMarshaled(dst, v []byte) ([]byte, bool) {
	valid, same := scan(v)
	switch {
	case !valid:
		return dst, false
	case same:
		return append(dst, v...), true
	}
	return AppendCompact(dst, v, true), true
}

// AppendCompact appends valid, a valid JSON text, as encoding/json's
// compaction writes it: without the white space between tokens (a
// string's own is kept), and, when html is set, as json.Marshal writes a
// json.RawMessage, with '<', '>' and '&' written \u003c, \u003e, \u0026
// and U+2028, U+2029 written \u2028, \u2029; every other byte as it is.
// Without html it is what an encoder with SetEscapeHTML(false) writes, as
// the reference server does (D-90). valid must be valid JSON (Valid):
// nothing is checked. Bytes it leaves alone are passed over with one
// look-up, in a table for strings and one for what is between them.
func AppendCompact(dst, valid []byte, html bool) []byte {
	const hex = "0123456789abcdef"
	tables := &compactStop
	if html {
		tables = &compactStopHTML
	}
	start := 0
	stop := &tables[0]
	for i := 0; i < len(valid); i++ {
		c := valid[i]
		if !stop[c] {
			continue
		}
		switch c {
		case '"':
			if stop == &tables[0] {
				stop = &tables[1]
			} else {
				stop = &tables[0]
			}
		case '\\': // in a string: the escaped byte ends nothing
			i++
		case ' ', '\t', '\n', '\r': // between tokens
			dst = append(dst, valid[start:i]...)
			start = i + 1
		case '<', '>', '&': // in a string, html only
			dst = append(dst, valid[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		case 0xE2: // in a string, html only
			if i+2 < len(valid) && valid[i+1] == 0x80 && valid[i+2]&^1 == 0xA8 {
				dst = append(dst, valid[start:i]...)
				dst = append(dst, '\\', 'u', '2', '0', '2', hex[valid[i+2]&0xF])
				i += 2
				start = i + 1
			}
		}
	}
	return append(dst, valid[start:]...)
}

// compactStop are the bytes AppendCompact stops at between tokens ([0]:
// a string's quote, white space) and in a string ([1]: its quote and a
// backslash); compactStopHTML adds, in a string, what is escaped for HTML.
// In valid JSON, '<', '>', '&' and 0xE2 are never between tokens, nor
// white space a byte after a backslash.
var compactStop, compactStopHTML = func() (plain, html [2][256]bool) {
	for _, c := range []byte{'"', ' ', '\t', '\n', '\r'} {
		plain[0][c] = true
	}
	for _, c := range []byte{'"', '\\'} {
		plain[1][c] = true
	}
	html = plain
	for _, c := range []byte{'<', '>', '&', 0xE2} {
		html[1][c] = true
	}
	return plain, html
}()
