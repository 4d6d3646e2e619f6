package jsonscan

import "bytes"

// JSONKind names the JSON type of a valid JSON text as an error message
// says it ("an object", "null", …): a message about the wire speaks JSON's
// terms, never a Go type's. Both sides of the wire use it: the harness for
// a response line, the reference server for a request line.
func JSONKind(raw []byte) string {
	switch v := bytes.TrimLeft(raw, " \t\r\n"); {
	case len(v) == 0:
		return "nothing"
	case v[0] == '[':
		return "an array"
	case v[0] == '{':
		return "an object"
	case v[0] == '"':
		return "a string"
	case v[0] == 't' || v[0] == 'f':
		return "a boolean"
	case v[0] == 'n':
		return "null"
	default:
		return "a number"
	}
}
