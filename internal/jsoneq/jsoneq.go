// Package jsoneq decides JSON equality as the spec defines it (MSG-2): same
// type; numbers equal as IEEE-754 doubles; strings equal; arrays elementwise;
// objects with the same members in any order.
package jsoneq

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Equal reports whether two JSON texts are JSON-equal. Invalid JSON is equal
// to nothing.
func Equal(a, b []byte) bool {
	va, ok := Decode(a)
	if !ok {
		return false
	}
	vb, ok := Decode(b)
	if !ok {
		return false
	}
	return equal(va, vb)
}

// Decode decodes one JSON value with its numbers as json.Number, as Equal
// compares them; false for text that is not JSON.
func Decode(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

func equal(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		fx, errX := strconv.ParseFloat(string(x), 64)
		fy, errY := strconv.ParseFloat(string(y), 64)
		if errX != nil || errY != nil { // out of range: compare as written
			return x == y
		}
		return fx == fy
	default: // string, bool, nil
		return a == b
	}
}
