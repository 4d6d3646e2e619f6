package server

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/convspec/convspec/internal/jsonscan"
)

// Reading params straight from the members of a request that was checked
// once, whole: most of a request is its list of messages, which
// encoding/json would check a second time before decoding it, then scan a
// third time element by element, all to hand back each message as the
// bytes it already is. A params type's string, raw and list-of-raw members
// are read here as slices of the text; a member of any other type is
// decoded alone by encoding/json. The result is what json.Unmarshal gives
// for valid text (FuzzScanParamsAsUnmarshal); anything it would refuse is
// left to json.Unmarshal, whose error decodeParams words.

// fieldKind is how scanParams reads a member into a field.
type fieldKind int

const (
	fieldOther   fieldKind = iota // decoded alone by encoding/json
	fieldString                   // string: a JSON string, or null (no change)
	fieldRaw                      // json.RawMessage: the value as written
	fieldRawList                  // []json.RawMessage: an array's elements as written, or null (nil)
)

type scanField struct {
	name  string
	index int
	kind  fieldKind
}

// scanPlan is the fields of a params struct type as encoding/json matches
// members to them; nil when the type has a field it cannot read the way
// encoding/json would (an embedded struct, a ",string" option).
type scanPlan []scanField

var scanPlans sync.Map // reflect.Type → scanPlan

var (
	rawType     = reflect.TypeFor[json.RawMessage]()
	rawListType = reflect.TypeFor[[]json.RawMessage]()
)

func planFor(t reflect.Type) scanPlan {
	if p, ok := scanPlans.Load(t); ok {
		return p.(scanPlan)
	}
	plan := scanPlan{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous || strings.Contains(","+opts+",", ",string,") {
			plan = nil
			break
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		kind := fieldOther
		switch {
		case f.Type == rawType:
			kind = fieldRaw
		case f.Type == rawListType:
			kind = fieldRawList
		case f.Type.Kind() == reflect.String && f.Type.PkgPath() == "":
			kind = fieldString
		}
		plan = append(plan, scanField{name: name, index: i, kind: kind})
	}
	scanPlans.Store(t, plan)
	return plan
}

// field is the field a member named name is decoded into: the one of that
// exact name, or else one whose name equals it folding case, as
// encoding/json matches them.
func (p scanPlan) field(name []byte) (scanField, bool) {
	for _, f := range p {
		if string(name) == f.name {
			return f, true
		}
	}
	for _, f := range p {
		if bytes.EqualFold(name, []byte(f.name)) {
			return f, true
		}
	}
	return scanField{}, false
}

// scanParams decodes members, the members of a valid JSON object, into v,
// a pointer to a struct, as json.Unmarshal would; false when it cannot (a
// member of the wrong type, a type it does not read), and v is then to be
// decoded by json.Unmarshal afresh.
func scanParams(members jsonscan.Object, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return false
	}
	s := rv.Elem()
	plan := planFor(s.Type())
	if plan == nil {
		return false
	}
	for _, m := range members {
		f, ok := plan.field(m.Name)
		if !ok {
			continue // unknown members are ignored (JSON-RPC 2.0)
		}
		if !scanMember(s.Field(f.index), f.kind, m.Value) {
			return false
		}
	}
	return true
}

func scanMember(fv reflect.Value, kind fieldKind, value []byte) bool {
	switch kind {
	case fieldString:
		switch value[0] {
		case 'n':
			return true // null leaves a string as it is
		case '"':
			s, ok := unquote(value)
			fv.SetString(s)
			return ok
		}
		return false
	case fieldRaw:
		fv.SetBytes(bytes.Clone(value))
		return true
	case fieldRawList:
		if value[0] == 'n' {
			fv.SetZero()
			return true
		}
		elems, ok := jsonscan.SplitArray(value)
		if !ok {
			return false
		}
		list := make([]json.RawMessage, len(elems))
		for i, e := range elems {
			list[i] = bytes.Clone(e)
		}
		fv.Set(reflect.ValueOf(list))
		return true
	}
	return json.Unmarshal(value, fv.Addr().Interface()) == nil
}

// unquote is the text of a valid JSON string token as encoding/json
// decodes it: a token without escapes in valid UTF-8 is its own bytes;
// any other (escapes, bytes that encoding/json replaces by U+FFFD) is
// decoded by encoding/json.
func unquote(token []byte) (string, bool) {
	body := token[1 : len(token)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body), true
	}
	var s string
	return s, json.Unmarshal(token, &s) == nil
}
