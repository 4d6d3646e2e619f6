package message

import (
	"bytes"
	"encoding/json"
)

// Reading the members of a message that is already known to be valid JSON
// with one scan, without copying: each value is a slice of the message's
// own bytes. encoding/json would check the text again and copy every
// member into a map of its own, at every level the classification looks
// into (the tool calls, the content blocks): most of what parsing a
// conversation cost. The results are those of encoding/json's decoding
// into map[string]json.RawMessage and []json.RawMessage, which the tests
// hold them to (FuzzParseAsUnmarshal).

// objectMember is one member of an object, in the order written.
type objectMember struct {
	name  []byte // unescaped; a slice of the text when it has no escape
	value []byte
}

// object is the members of a JSON object in the order written.
type object []objectMember

// get returns the value of the member name; of a name written twice, the
// last, as encoding/json keeps it.
func (o object) get(name string) ([]byte, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if string(o[i].name) == name { // compared without a copy
			return o[i].value, true
		}
	}
	return nil, false
}

// splitObject returns the members of v, a valid JSON text; false when v is
// not an object. null is an object without members, as encoding/json
// decodes it into a map.
func splitObject(v []byte) (object, bool) {
	i := skipSpace(v, 0)
	if i < len(v) && v[i] == 'n' {
		return nil, true
	}
	if i >= len(v) || v[i] != '{' {
		return nil, false
	}
	o := make(object, 0, 4) // a message or a block has a few members
	i = skipSpace(v, i+1)
	for i < len(v) && v[i] != '}' {
		keyEnd := skipString(v, i)
		name := unquoted(v[i:keyEnd])
		i = skipSpace(v, keyEnd)
		i = skipSpace(v, i+1) // the colon
		end := skipValue(v, i)
		o = append(o, objectMember{name: name, value: v[i:end]})
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return o, true
}

// splitArray returns the elements of v, a valid JSON text; false when v is
// not an array.
func splitArray(v []byte) ([][]byte, bool) {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return nil, false
	}
	var elems [][]byte
	i = skipSpace(v, i+1)
	for i < len(v) && v[i] != ']' {
		end := skipValue(v, i)
		elems = append(elems, v[i:end])
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return elems, true
}

// stringValue returns the string a valid JSON value holds; false when it
// is not a string.
func stringValue(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return string(unquoted(v)), true
}

// unquoted is the text a valid JSON string token stands for. A token
// without escapes is its own text, sliced (parse has checked that every
// string of a message is valid UTF-8 before its members are read); one
// with escapes is unquoted by encoding/json.
func unquoted(token []byte) []byte {
	if bytes.IndexByte(token, '\\') < 0 {
		return token[1 : len(token)-1]
	}
	var s string
	if err := json.Unmarshal(token, &s); err != nil {
		return nil // unreachable for a valid token
	}
	return []byte(s)
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && (v[i] == ' ' || v[i] == '\t' || v[i] == '\n' || v[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string token that starts at i.
func skipString(v []byte, i int) int {
	for i++; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(v)
}

// skipValue returns the index after the value that starts at i.
func skipValue(v []byte, i int) int {
	if i >= len(v) {
		return i
	}
	switch v[i] {
	case '"':
		return skipString(v, i)
	case '{', '[':
		depth := 0
		for ; i < len(v); i++ {
			switch v[i] {
			case '"':
				i = skipString(v, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(v)
	}
	// A number or a literal ends where the next delimiter begins.
	for ; i < len(v); i++ {
		switch v[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}
