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
	var open [64]byte // the containers open: '{' or '['; more on the heap
	stack := open[:0]
	i := skipSpace(v, 0)
	for {
		// A value starts at i.
		if i >= len(v) {
			return false
		}
		switch c := v[i]; c {
		case '{', '[':
			if len(stack) == maxDepth {
				return false
			}
			stack = append(stack, c)
			i = skipSpace(v, i+1)
			if i < len(v) && v[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				var ok bool
				if i, ok = validName(v, i); !ok {
					return false
				}
			}
			continue
		case '"':
			var ok bool
			if i, ok = validString(v, i); !ok {
				return false
			}
		case 't':
			if !hasPrefix(v[i:], "true") {
				return false
			}
			i += 4
		case 'f':
			if !hasPrefix(v[i:], "false") {
				return false
			}
			i += 5
		case 'n':
			if !hasPrefix(v[i:], "null") {
				return false
			}
			i += 4
		default:
			var ok bool
			if i, ok = validNumber(v, i); !ok {
				return false
			}
		}
		// A value ended at i: what follows closes its containers, or
		// separates it from the next value of the innermost.
		for {
			i = skipSpace(v, i)
			if len(stack) == 0 {
				return i == len(v)
			}
			if i >= len(v) {
				return false
			}
			top := stack[len(stack)-1]
			if v[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if v[i] != ',' {
				return false
			}
			i = skipSpace(v, i+1)
			if top == '{' {
				var ok bool
				if i, ok = validName(v, i); !ok {
					return false
				}
			}
			break
		}
	}
}

// validName checks a member's name and its colon at i, and returns the
// index of its value.
func validName(v []byte, i int) (int, bool) {
	if i >= len(v) || v[i] != '"' {
		return i, false
	}
	i, ok := validString(v, i)
	if !ok {
		return i, false
	}
	i = skipSpace(v, i)
	if i >= len(v) || v[i] != ':' {
		return i, false
	}
	return skipSpace(v, i+1), true
}

// validString checks the string token at i and returns the index after
// it.
func validString(v []byte, i int) (int, bool) {
	for i++; i < len(v); i++ {
		switch c := v[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
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

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hasPrefix(v []byte, lit string) bool {
	return len(v) >= len(lit) && string(v[:len(lit)]) == lit
}
