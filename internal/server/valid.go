package server

// validJSON is json.Valid, for the check of each request line (D-90):
// encoding/json's scanner takes a call through a function value for every
// byte, which made checking the lines about a twelfth of what a run's requests
// cost the server; a plain descent checks the same grammar several times
// faster. It accepts exactly what json.Valid accepts
// (FuzzValidAsJSONValid): RFC 8259's grammar, without checking that the
// bytes of a string are UTF-8, nested at most maxDepth deep.
func validJSON(data []byte) bool {
	v := validator{data: data}
	v.space()
	if !v.value(0) {
		return false
	}
	v.space()
	return v.pos == len(data)
}

// maxDepth is encoding/json's limit on nesting: the arrays and objects a
// value may be inside of, itself included.
const maxDepth = 10000

type validator struct {
	data []byte
	pos  int
}

func (v *validator) space() {
	for v.pos < len(v.data) {
		switch v.data[v.pos] {
		case ' ', '\t', '\n', '\r':
			v.pos++
		default:
			return
		}
	}
}

// value checks the value at pos, inside depth arrays and objects.
func (v *validator) value(depth int) bool {
	if v.pos >= len(v.data) {
		return false
	}
	switch c := v.data[v.pos]; {
	case c == '{':
		return v.object(depth + 1)
	case c == '[':
		return v.array(depth + 1)
	case c == '"':
		return v.str()
	case c == 't':
		return v.literal("true")
	case c == 'f':
		return v.literal("false")
	case c == 'n':
		return v.literal("null")
	case c == '-' || '0' <= c && c <= '9':
		return v.number()
	}
	return false
}

func (v *validator) object(depth int) bool {
	if depth > maxDepth {
		return false
	}
	v.pos++
	v.space()
	if v.pos < len(v.data) && v.data[v.pos] == '}' {
		v.pos++
		return true
	}
	for {
		if v.pos >= len(v.data) || v.data[v.pos] != '"' || !v.str() {
			return false
		}
		v.space()
		if v.pos >= len(v.data) || v.data[v.pos] != ':' {
			return false
		}
		v.pos++
		v.space()
		if !v.value(depth) {
			return false
		}
		v.space()
		if v.pos >= len(v.data) {
			return false
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.space()
		case '}':
			v.pos++
			return true
		default:
			return false
		}
	}
}

func (v *validator) array(depth int) bool {
	if depth > maxDepth {
		return false
	}
	v.pos++
	v.space()
	if v.pos < len(v.data) && v.data[v.pos] == ']' {
		v.pos++
		return true
	}
	for {
		if !v.value(depth) {
			return false
		}
		v.space()
		if v.pos >= len(v.data) {
			return false
		}
		switch v.data[v.pos] {
		case ',':
			v.pos++
			v.space()
		case ']':
			v.pos++
			return true
		default:
			return false
		}
	}
}

// str checks the string at pos: no control character, JSON's escapes.
func (v *validator) str() bool {
	d := v.data
	for i := v.pos + 1; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			v.pos = i + 1
			return true
		case c == '\\':
			i++
			if i >= len(d) {
				return false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d) {
					return false
				}
				for _, h := range d[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		case c < 0x20:
			return false
		}
	}
	return false
}

func (v *validator) literal(word string) bool {
	if len(v.data)-v.pos < len(word) || string(v.data[v.pos:v.pos+len(word)]) != word {
		return false
	}
	v.pos += len(word)
	return true
}

// number checks a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *validator) number() bool {
	d := v.data
	i := v.pos
	if d[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i - start
	}
	if i >= len(d) {
		return false
	}
	if d[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	v.pos = i
	return true
}
