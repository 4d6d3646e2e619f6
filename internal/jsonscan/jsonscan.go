// Package jsonscan reads the members of a JSON object, or the elements of
// an array, from text already known to be valid JSON, with one scan and
// without copying: each value is a slice of the text. encoding/json would
// check the text again and copy every member into a map of its own, at
// every level a reader looks into (a request's params, a message's tool
// calls and content blocks): most of what reading a conversation cost.
// On valid JSON in valid UTF-8 the results are those of encoding/json's
// decoding into map[string]json.RawMessage and []json.RawMessage
// (FuzzSplitAsUnmarshal, and the parser's own oracle in
// reference/message), but for two things a reader here never needs:
// SplitArray refuses null, and a name holding bytes that are not UTF-8
// keeps them where encoding/json writes U+FFFD.
//
// The text must be valid JSON (json.Valid): on other text the results
// mean nothing, though the scan still ends and never panics.
package jsonscan

import (
	"bytes"
	"encoding/json"
)

// Member is one member of an object, in the order written.
type Member struct {
	Name  []byte // unescaped; a slice of the text when it has no escape
	Value []byte
}

// Object is the members of a JSON object in the order written.
type Object []Member

// Get returns the value of the member name; of a name written twice, the
// last, as encoding/json keeps it.
func (o Object) Get(name string) ([]byte, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if string(o[i].Name) == name { // compared without a copy
			return o[i].Value, true
		}
	}
	return nil, false
}

// SplitObject returns the members of v, a valid JSON text; false when v is
// not an object. null is an object without members, as encoding/json
// decodes it into a map.
func SplitObject(v []byte) (Object, bool) {
	i := skipSpace(v, 0)
	if i < len(v) && v[i] == 'n' {
		return nil, true
	}
	if i >= len(v) || v[i] != '{' {
		return nil, false
	}
	o := make(Object, 0, 4) // a message or a block has a few members
	i = skipSpace(v, i+1)
	for i < len(v) && v[i] != '}' {
		keyEnd := skipString(v, i)
		name := unquoted(v[i:keyEnd])
		i = skipSpace(v, keyEnd)
		if i < len(v) {
			i = skipSpace(v, i+1) // the colon
		}
		end := skipValue(v, i)
		o = append(o, Member{Name: name, Value: v[i:end]})
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return o, true
}

// SplitArray returns the elements of v, a valid JSON text; false when v is
// not an array.
func SplitArray(v []byte) ([][]byte, bool) {
	return appendElements(nil, v)
}

// appendElements is SplitArray appending to elems, which a reader that
// keeps the elements only while it reads them can hold on its stack.
func appendElements(elems [][]byte, v []byte) ([][]byte, bool) {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '[' {
		return nil, false
	}
	i = skipSpace(v, i+1)
	for i < len(v) && v[i] != ']' {
		end := skipValue(v, i)
		if end == i {
			end++ // a stray delimiter, in text that is not JSON: passed over
		}
		elems = append(elems, v[i:end])
		i = skipSpace(v, end)
		if i < len(v) && v[i] == ',' {
			i = skipSpace(v, i+1)
		}
	}
	return elems, true
}

// String returns the string a valid JSON value holds; false when it
// is not a string.
func String(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return string(unquoted(v)), true
}

// unquoted is the text a valid JSON string token stands for. A token
// without escapes is its own text, sliced (a reader that needs the text
// as valid UTF-8 checks it first, as message.Parse does); one with escapes
// is unquoted by encoding/json.
func unquoted(token []byte) []byte {
	if len(token) < 2 {
		return nil // not a token: text that is not valid JSON
	}
	if bytes.IndexByte(token, '\\') < 0 {
		return token[1 : len(token)-1]
	}
	s, ok := unescaped(token)
	if !ok {
		return nil // unreachable for a valid token
	}
	return []byte(s)
}

// unescaped is the text of a valid JSON string token with an escape or a
// byte that is not UTF-8, as encoding/json decodes it: by unescape, or by
// json.Unmarshal for a body unescape does not take; false only when that
// fails, which it does not for a valid token. unquote and unquoted, the
// string and the byte readers, share it.
func unescaped(token []byte) (string, bool) {
	if s, ok := unescape(token[1 : len(token)-1]); ok {
		return s, true
	}
	var s string
	err := json.Unmarshal(token, &s)
	return s, err == nil
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && isSpace(v[i]) {
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
