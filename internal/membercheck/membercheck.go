// Package membercheck checks each member of a result against the type the
// protocol gives it (the Go result types of conformance/protocol, which a
// test holds to spec/schema/protocol.schema.json, D-63). A result that is
// valid JSON-RPC but holds a member of the wrong JSON type
// (`"max_messages": 2.5`, `"100"`, `true`) is the implementation deviating
// from the protocol's result shape, not a broken transport: the case fails
// with a MemberError that names the member and the rule, in the protocol's
// words, never Go's types. It is the harness's, not a wire type, so it is
// not in the public protocol package.
package membercheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/jsonscan"
)

// MemberError is a member of a result that breaks the protocol's rule for
// it: "config.max_messages: want a non-negative integer, got 2.5".
type MemberError struct {
	// Path is the member's dotted path from the result ("config.max_messages",
	// "iterations[2].metrics.messageCount"); "result" for the result itself.
	Path string
	// Rule is what the protocol wants there ("a non-negative integer").
	Rule string
	// Got is the value sent, abbreviated; "nothing" for a missing member.
	Got string
}

func (e *MemberError) Error() string {
	if e.Got == "nothing" {
		return fmt.Sprintf("%s: want %s, got nothing (the member is missing)", e.Path, e.Rule)
	}
	return fmt.Sprintf("%s: want %s, got %s", e.Path, e.Rule, e.Got)
}

// checkMembers walks x, a result decoded once by DecodeValue, against the
// Go type t of one of conformance/protocol's result types: every member present is
// checked, recursively.
func checkMembers(x any, t reflect.Type, path string) error {
	fail := func(rule string) error { return &MemberError{Path: path, Rule: rule, Got: abbreviateValue(x)} }
	if t == reflect.TypeFor[json.RawMessage]() {
		return nil // any JSON value: a message, a summary
	}
	switch t.Kind() {
	case reflect.Pointer:
		if x == nil {
			return nil
		}
		return checkMembers(x, t.Elem(), path)
	case reflect.Int, reflect.Int64, reflect.Int32:
		if n, ok := x.(json.Number); !ok || !nonNegativeInteger([]byte(n)) {
			return fail("a non-negative integer")
		}
	case reflect.Bool:
		if _, ok := x.(bool); !ok {
			return fail("a boolean")
		}
	case reflect.String:
		if _, ok := x.(string); !ok {
			return fail("a string")
		}
	case reflect.Slice:
		elems, ok := x.([]any)
		if !ok {
			return fail("an array")
		}
		for i, e := range elems {
			if err := checkMembers(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		members, ok := x.(map[string]any)
		if !ok {
			return fail("an object")
		}
		for _, k := range slices.Sorted(maps.Keys(members)) { // the same member named on every run
			if err := checkMembers(members[k], t.Elem(), join(path, k)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		members, ok := x.(map[string]any)
		if !ok {
			return fail("an object")
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			v, ok := members[name]
			if !ok || strings.Contains(opts, "omitempty") && v == nil {
				continue // required members are checkRequired's; null is an optional one absent
			}
			if err := checkMembers(v, f.Type, join(path, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// DecodeValue decodes a result once, numbers kept as written
// (json.Number), into the value CheckValue and the JSON Schema check both
// read.
func DecodeValue(raw []byte) (any, error) {
	if jsonscan.Valid(raw) {
		// Checked once (json.Valid's verdict, FuzzValidAsEncodingJSON) and
		// decoded once, in place: the Decoder below would copy the text and
		// check it again as it decodes it. Its value on valid text is the
		// same (jsonscan's FuzzValueAsDecoder); it stays for the error of
		// text that is not JSON.
		return jsonscan.Value(raw), nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// Only white space may follow the value (dec.More says false before a
	// stray ] or }).
	if len(bytes.TrimLeft(raw[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// abbreviateValue is a decoded value as the JSON it was sent as,
// abbreviated.
func abbreviateValue(x any) string {
	b, err := json.Marshal(x)
	if err != nil {
		return fmt.Sprint(x)
	}
	return abbreviate(b)
}

// integralNumbers rewrites every number of raw whose value is an integer
// in plain integer form (3.0 and 3e0 as 3).
func integralNumbers(raw []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case json.Number:
			if f, err := x.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53-1 {
				return json.Number(strconv.FormatInt(int64(f), 10))
			}
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			for k := range x {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	out, err := json.Marshal(walk(v))
	return out, err == nil
}

// join is a member's path: "config" at the top, "config.max_messages"
// below.
func join(path, member string) string {
	if path == "" || path == "result" {
		return member
	}
	return path + "." + member
}

// nonNegativeInteger reports whether raw is a JSON number whose value is a
// non-negative integer no greater than 2^53 − 1 (3, 3.0 and 3e0 are).
func nonNegativeInteger(raw []byte) bool {
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return err == nil && f >= 0 && f == math.Trunc(f) && f <= 1<<53-1
}

// CheckMembers checks every member of raw against the type of v, a pointer
// to one of conformance/protocol's result types, and returns the first member that
// breaks its rule as a *MemberError.
func CheckMembers(raw json.RawMessage, v any) error {
	x, err := DecodeValue(raw)
	if err != nil {
		return &MemberError{Path: "result", Rule: "a JSON value", Got: abbreviate(raw)}
	}
	return CheckValue(x, v)
}

// CheckValue is CheckMembers on a result already decoded by DecodeValue.
func CheckValue(x any, v any) error {
	return checkMembers(x, reflect.TypeOf(v).Elem(), "result")
}

// IntegralNumbers rewrites numbers such as 3.0 and 3e0, which CheckMembers
// accepts as integers, as 3, so that encoding/json can put them in an int.
func IntegralNumbers(raw []byte) ([]byte, bool) { return integralNumbers(raw) }

func abbreviate(raw []byte) string {
	const limit = 200
	s := string(raw)
	if len(s) > limit {
		return s[:limit] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	if s == "" {
		return "nothing"
	}
	return s
}
