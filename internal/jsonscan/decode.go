package jsonscan

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Decoding valid JSON without checking it again. encoding/json checks
// every text it decodes before decoding it, and its Decoder copies the
// text first: a reader that has checked a line whole (the server its
// request, the harness a response) would have each payload checked two or
// three times more. Value and Fields give what encoding/json gives on
// valid text (FuzzValueAsDecoder, FuzzFieldsAsUnmarshal); on other text
// their results mean nothing, though they end and never panic.

// Value decodes v, a valid JSON text, as a json.Decoder with UseNumber
// decodes it into an any: objects as map[string]any (of a name written
// twice, the last), arrays as []any, numbers as json.Number, strings as
// encoding/json reads them (a byte that is not UTF-8, or an unpaired
// surrogate escape, as U+FFFD).
func Value(v []byte) any {
	x, _ := value(v, skipSpace(v, 0))
	return x
}

// value decodes the value that starts at i and returns the index after it.
func value(v []byte, i int) (any, int) {
	if i >= len(v) {
		return nil, i
	}
	switch v[i] {
	case '{':
		obj := map[string]any{}
		i = skipSpace(v, i+1)
		for i < len(v) && v[i] == '"' {
			end := skipString(v, i)
			name := unquote(v[i:end])
			i = skipSpace(v, end)
			if i < len(v) {
				i = skipSpace(v, i+1) // the colon
			}
			var x any
			x, i = value(v, i)
			obj[name] = x
			i = skipSpace(v, i)
			if i < len(v) && v[i] == ',' {
				i = skipSpace(v, i+1)
			}
		}
		return obj, i + 1
	case '[':
		arr := []any{}
		i = skipSpace(v, i+1)
		for i < len(v) && v[i] != ']' {
			var x any
			start := i
			x, i = value(v, i)
			if i <= start {
				i = start + 1 // a stray delimiter, in text that is not JSON
			}
			arr = append(arr, x)
			i = skipSpace(v, i)
			if i < len(v) && v[i] == ',' {
				i = skipSpace(v, i+1)
			}
		}
		return arr, i + 1
	case '"':
		end := skipString(v, i)
		return unquote(v[i:end]), end
	case 't':
		return true, min(i+4, len(v))
	case 'f':
		return false, min(i+5, len(v))
	case 'n':
		return nil, min(i+4, len(v))
	}
	end := skipValue(v, i)
	return json.Number(v[i:end]), end
}

// unquote is the text of a valid JSON string token as encoding/json
// decodes it: a token without escapes in valid UTF-8 is its own bytes;
// any other is decoded by encoding/json, which writes U+FFFD for a byte
// that is not UTF-8 and for an unpaired surrogate.
func unquote(token []byte) string {
	if len(token) < 2 {
		return "" // not a token: text that is not valid JSON
	}
	body := token[1 : len(token)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	s, _ := unescaped(token) // no error for a valid token
	return s
}

// Fields decodes members, the members of a valid JSON object, into v, a
// pointer to a struct whose fields hold their zero values, as
// json.Unmarshal decodes the object: each member into the field of its
// exact name or else of its name folding case, the last of a name written
// twice winning, other members ignored. Fields of type string,
// json.RawMessage and []json.RawMessage are read as slices of the text
// (copied), *string, int, []int, bool and []string from their tokens, a struct
// that does not decode itself, and a list of them, by the struct's own
// fields, recursively; a field of any other type is decoded alone by
// encoding/json.
// It returns false when json.Unmarshal would fail (a member of the wrong
// type), when v has a field it does not read as encoding/json would (an
// embedded struct, a ",string" option, two fields of one name), or when a
// list is written twice (encoding/json decodes the second into the first's
// elements); v is then to be zeroed and decoded by json.Unmarshal, whose
// error names the member at fault.
func Fields(members Object, v any) bool {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return false
	}
	s := rv.Elem()
	plan := planFor(s.Type())
	return plan != nil && plan.decode(members, s)
}

// decode reads members into s, a struct of p's type.
func (p plan) decode(members Object, s reflect.Value) bool {
	for _, m := range members {
		f, ok := p.field(m.Name)
		if ok && !decodeField(s.Field(f.index), f, m.Value) {
			return false
		}
	}
	return true
}

// fieldKind is how Fields reads a member into a field.
type fieldKind int

const (
	fieldOther      fieldKind = iota // decoded alone by encoding/json
	fieldString                      // a JSON string, or null (no change)
	fieldStringPtr                   // a JSON string, or null (nil)
	fieldRaw                         // the value as written
	fieldRawList                     // an array's elements as written, or null (nil)
	fieldInt                         // an integer written without fraction or exponent, or null (no change)
	fieldIntList                     // an array of such integers (null elements 0), or null (nil)
	fieldBool                        // true or false, or null (no change)
	fieldStringList                  // an array of strings (null elements ""), or null (nil)
	fieldStruct                      // an object read by the struct's own plan, or null (no change)
	fieldStructList                  // an array of such objects (null elements zero), or null (nil)
)

type planField struct {
	name  string
	index int
	kind  fieldKind
	plan  plan // of fieldStruct and fieldStructList: the struct's
}

// plan is the fields of a struct type as encoding/json matches members to
// them; nil when Fields cannot read the type.
type plan []planField

var plans sync.Map // reflect.Type → plan

var (
	rawType     = reflect.TypeFor[json.RawMessage]()
	rawListType = reflect.TypeFor[[]json.RawMessage]()
	intType     = reflect.TypeFor[int]()
	intListType = reflect.TypeFor[[]int]()
	boolType    = reflect.TypeFor[bool]()
	stringPtr   = reflect.TypeFor[*string]()

	stringListType      = reflect.TypeFor[[]string]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func planFor(t reflect.Type) plan {
	return planWithin(t, map[reflect.Type]bool{})
}

// planWithin is planFor(t) inside the plans of the types in making: a
// struct that holds itself is left to encoding/json where it recurs.
func planWithin(t reflect.Type, making map[reflect.Type]bool) plan {
	if p, ok := plans.Load(t); ok {
		return p.(plan)
	}
	making[t] = true
	defer delete(making, t)
	p := plan{}
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous || strings.Contains(","+opts+",", ",string,") {
			p = nil
			break
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if names[name] {
			p = nil // two fields of a name: encoding/json's rules of dominance, not read here
			break
		}
		names[name] = true
		pf := planField{name: name, index: i, kind: fieldOther}
		switch {
		case f.Type == rawType:
			pf.kind = fieldRaw
		case f.Type == rawListType:
			pf.kind = fieldRawList
		case f.Type == reflect.TypeFor[string]():
			pf.kind = fieldString
		case f.Type == stringPtr:
			pf.kind = fieldStringPtr
		case f.Type == intType:
			pf.kind = fieldInt
		case f.Type == intListType:
			pf.kind = fieldIntList
		case f.Type == boolType:
			pf.kind = fieldBool
		case f.Type == stringListType:
			pf.kind = fieldStringList
		case plainStruct(f.Type) && !making[f.Type]:
			if pf.plan = planWithin(f.Type, making); pf.plan != nil {
				pf.kind = fieldStruct
			}
		case f.Type.Kind() == reflect.Slice && plainStruct(f.Type.Elem()) && !making[f.Type.Elem()]:
			if pf.plan = planWithin(f.Type.Elem(), making); pf.plan != nil {
				pf.kind = fieldStructList
			}
		}
		p = append(p, pf)
	}
	plans.Store(t, p)
	return p
}

// plainStruct reports whether encoding/json decodes an object into t
// member by member: a struct that does not decode itself.
func plainStruct(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	pt := reflect.PointerTo(t)
	return !t.Implements(unmarshalerType) && !pt.Implements(unmarshalerType) &&
		!t.Implements(textUnmarshalerType) && !pt.Implements(textUnmarshalerType)
}

// field is the field a member named name is decoded into: the one of that
// exact name, or else one whose name equals it folding case.
func (p plan) field(name []byte) (planField, bool) {
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
	return planField{}, false
}

func decodeField(fv reflect.Value, f planField, value []byte) bool {
	if len(value) == 0 {
		return false // not JSON
	}
	if fv.Kind() == reflect.Slice && !fv.IsNil() {
		// A list written twice: encoding/json decodes the second array
		// into the elements of the first, where a null element leaves
		// one as it was and an object is merged into one.
		return false
	}
	switch f.kind {
	case fieldString:
		switch value[0] {
		case 'n':
			return true // null leaves a string as it is
		case '"':
			fv.SetString(unquote(value))
			return true
		}
		return false
	case fieldStringPtr:
		switch value[0] {
		case 'n':
			fv.SetZero() // null makes a pointer nil
			return true
		case '"':
			s := unquote(value)
			fv.Set(reflect.ValueOf(&s))
			return true
		}
		return false
	case fieldRaw:
		fv.SetBytes(bytes.Clone(value))
		return true
	case fieldRawList:
		// One copy of the array for all its elements, each a slice of it
		// whose capacity ends where the element does, so that an append to
		// one cannot write over the next: a result's messages are one
		// allocation, not one a message (D-89).
		var own []byte
		return setList(fv, value, func(e []byte) (json.RawMessage, bool) {
			if own == nil {
				own = bytes.Clone(value)
			}
			at := cap(value) - cap(e) // e is a slice of value
			return own[at : at+len(e) : at+len(e)], true
		})
	case fieldInt:
		if value[0] == 'n' {
			return true // null leaves a number as it is
		}
		n, ok := integer(value)
		fv.SetInt(int64(n))
		return ok
	case fieldIntList:
		return setList(fv, value, func(e []byte) (int, bool) {
			if e[0] == 'n' {
				return 0, true // a null element is 0
			}
			return integer(e)
		})
	case fieldBool:
		switch value[0] {
		case 'n':
			return true // null leaves a boolean as it is
		case 't', 'f':
			fv.SetBool(value[0] == 't')
			return true
		}
		return false
	case fieldStringList:
		return setList(fv, value, func(e []byte) (string, bool) {
			switch e[0] {
			case 'n':
				return "", true // a null element is ""
			case '"':
				return unquote(e), true
			}
			return "", false
		})
	case fieldStruct:
		switch value[0] {
		case 'n':
			return true // null leaves a struct as it is
		case '{':
			// Into the struct as it is: of an object written twice,
			// encoding/json keeps the members of the first the second
			// lacks, and so does this.
			members, _ := SplitObject(value)
			return f.plan.decode(members, fv)
		}
		return false
	case fieldStructList:
		if value[0] == 'n' {
			fv.SetZero()
			return true
		}
		elems, ok := SplitArray(value)
		if !ok {
			return false
		}
		list := reflect.MakeSlice(fv.Type(), len(elems), len(elems))
		for i, e := range elems {
			switch e[0] {
			case 'n': // a null element is the zero struct
			case '{':
				members, _ := SplitObject(e)
				if !f.plan.decode(members, list.Index(i)) {
					return false
				}
			default:
				return false
			}
		}
		fv.Set(list)
		return true
	}
	return json.Unmarshal(value, fv.Addr().Interface()) == nil
}

// setList sets the slice fv to value's elements, each read by read, as
// encoding/json does: null is a nil slice. It reports whether value is an
// array whose every element read does.
func setList[T any](fv reflect.Value, value []byte, read func([]byte) (T, bool)) bool {
	if value[0] == 'n' {
		fv.SetZero()
		return true
	}
	// The elements are split into a buffer on the stack, then read into a
	// list of their number: a result's list of messages is not grown and
	// copied again and again, twice.
	var buf [64][]byte
	elems, ok := appendElements(buf[:0], value)
	if !ok {
		return false
	}
	list := make([]T, len(elems))
	for i, e := range elems {
		if list[i], ok = read(e); !ok {
			return false
		}
	}
	fv.Set(reflect.ValueOf(list))
	return true
}

// integer is a JSON number token as encoding/json puts it in an int:
// written as an integer (3, not 3.0 or 3e0) that an int holds.
func integer(token []byte) (int, bool) {
	if token[0] != '-' && (token[0] < '0' || token[0] > '9') {
		return 0, false
	}
	n, err := strconv.ParseInt(string(token), 10, strconv.IntSize)
	return int(n), err == nil
}
