package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/message"
)

// Decoding a request's params into the method's params type, with errors
// that name the member at fault in protocol terms, never a Go type.

// decodeParams decodes params into v, requiring the named members. params
// are valid JSON: a slice of a request line that was checked whole, or
// params Handle checked (notJSON in their place when they are not).
func decodeParams(params json.RawMessage, v any, requiredMembers ...string) error {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	// Read once, as slices of params, for the required members and then
	// for v's members.
	members, ok := jsonscan.SplitObject(params)
	if !ok {
		return protocol.NewError(protocol.KindInvalidParams, "params must be an object")
	}
	for _, m := range requiredMembers {
		if v, ok := members.Get(m); !ok || string(v) == "null" {
			return protocol.NewError(protocol.KindInvalidParams, "params.%s is missing", m)
		}
	}
	// The members are read as slices of params, which were checked once
	// with their line: encoding/json would check them again, then scan
	// each message a third time to hand it back as the bytes it is.
	if jsonscan.Fields(members, v) {
		return nil
	}
	// A member Fields cannot read: encoding/json decodes the params
	// afresh, and its error names the member at fault.
	reflect.ValueOf(v).Elem().SetZero()
	if err := json.Unmarshal(params, v); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return protocol.NewError(protocol.KindInvalidParams, "params.%s must be %s, got %s", typeErr.Field, jsonTypeName(typeErr.Type.String()), typeErr.Value)
		}
		// A member's own decoding failed (a count written 2.5): name it.
		path, err := locate(params, reflect.TypeOf(v), "params")
		return protocol.NewError(protocol.KindInvalidParams, "%s: %v", path, err)
	}
	return nil
}

// decodeWithMessages is decodeParams for params with a list of messages,
// which it then parses (MSG-1) into the engine's messages.
func decodeWithMessages(params json.RawMessage, v any, list *[]json.RawMessage, requiredMembers ...string) ([]message.Message, error) {
	if err := decodeParams(params, v, requiredMembers...); err != nil {
		return nil, err
	}
	msgs, err := message.FromValid(*list)
	if err != nil {
		return nil, asProtocolError(err)
	}
	return msgs, nil
}

func jsonTypeName(goType string) string {
	switch goType {
	case "string":
		return "a string"
	case "int", "int64", "float64":
		return "a number"
	case "bool":
		return "a boolean"
	case "[]json.RawMessage":
		return "an array"
	default:
		return "an object"
	}
}

// locate finds the member of raw whose decoding into a value of type t
// fails, and returns its path below prefix (params.limits.m) and the
// error of decoding it alone.
func locate(raw json.RawMessage, t reflect.Type, prefix string) (string, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	decode := func(v json.RawMessage, t reflect.Type) error { return json.Unmarshal(v, reflect.New(t).Interface()) }
	var members map[string]json.RawMessage
	var items []json.RawMessage
	switch {
	case t.Kind() == reflect.Struct && json.Unmarshal(raw, &members) == nil:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if v, ok := members[name]; ok && decode(v, f.Type) != nil {
				return locate(v, f.Type, prefix+"."+name)
			}
		}
	case t.Kind() == reflect.Map && json.Unmarshal(raw, &members) == nil:
		keys := make([]string, 0, len(members))
		for k := range members {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if decode(members[k], t.Elem()) != nil {
				return locate(members[k], t.Elem(), prefix+"."+k)
			}
		}
	case t.Kind() == reflect.Slice && json.Unmarshal(raw, &items) == nil:
		for i, v := range items {
			if decode(v, t.Elem()) != nil {
				return locate(v, t.Elem(), fmt.Sprintf("%s[%d]", prefix, i))
			}
		}
	}
	return prefix, decode(raw, t)
}

// requireUTF8String refuses a string member of params that escapes an
// unpaired surrogate ("\ud800"): such a text has no UTF-8 form, so there are
// no bytes to encode (TOK-1), just as a message holding one is refused
// (MSG-1, D-9, D-48). The decoded Go string would hold U+FFFD instead.
func requireUTF8String(params json.RawMessage, name string) error {
	members, _ := jsonscan.SplitObject(params)
	v, ok := members.Get(name)
	if !ok || len(v) == 0 || v[0] != '"' {
		return nil
	}
	if _, err := message.Compact(v); err != nil {
		return protocol.NewError(protocol.KindInvalidParams, "params.%s: %v", name, err)
	}
	return nil
}
