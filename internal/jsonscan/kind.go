package jsonscan

import "bytes"

// JSONKind names the JSON type of a valid JSON text as an error message
// says it ("an object", "null", …): a message about the wire speaks JSON's
// terms, never a Go type's. Both sides of the wire use it: the harness for
// a response line, the reference server for a request line.
func JSONKind(raw []byte) string {
	v := bytes.TrimLeft(raw, " \t\r\n")
	if len(v) == 0 {
		return "nothing"
	}
	if k, ok := kindByFirstByte[v[0]]; ok {
		return k
	}
	return "a number"
}

// kindByFirstByte names the JSON type a valid text's first byte gives;
// any other first byte starts a number.
var kindByFirstByte = map[byte]string{
	'[': "an array",
	'{': "an object",
	'"': "a string",
	't': "a boolean",
	'f': "a boolean",
	'n': "null",
}
