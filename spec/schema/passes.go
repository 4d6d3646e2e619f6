package schema

import (
	"reflect"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/convspec/convspec/internal/jsonscan"
)

// ResultPasses reports whether ResultValue would accept the result raw, a
// valid JSON text (json.Valid), decoded by jsonscan.Value: it reads raw in
// place, where ResultValue first needs the whole result decoded into a
// tree, messages and all, and the validator then walks the tree and
// records which items of every array it has evaluated (D-89).
//
// It is not a second description of the protocol: it reads the schemas the
// validator compiled from protocol.schema.json, and it knows only the
// keywords the result schemas use (type, required, properties, items,
// $ref, minimum and maximum of integers, and annotations). A schema with
// any other keyword, and a value it cannot judge cheaply (a number such as
// 3.0 or 1e400 where an integer is wanted), get false. True means
// ResultValue(method, jsonscan.Value(raw)) is nil (FuzzResultPasses);
// false means it may not be, and only ResultValue says what is wrong.
func ResultPasses(method string, raw []byte) bool {
	c := quickResult(method)
	return c != nil && c.passes(trimSpace(raw))
}

// quick reports whether ResultPasses can accept a result of method at all:
// the keywords of its schema are all ones it knows. A test holds every
// method to it, so that a keyword added to protocol.schema.json cannot
// quietly send every result the slow way.
func quick(method string) bool {
	check := quickResult(method)
	return check != nil && check.known()
}

// quickResult is the quickSchema of method's result, or nil for a method
// without a schema or one that does not compile.
func quickResult(method string) *quickSchema {
	checks, err := quickResults()
	if err != nil || checks[method] == nil {
		return nil
	}
	return checks[method]()
}

// quickResults gives a quickSchema of each method's result, made once from
// the validator's own compiled schema when the method is first checked
// (as protocolResults compiles it); the schemas the methods share are made
// once, under mu.
var quickResults = sync.OnceValues(func() (map[string]func() *quickSchema, error) {
	results, err := protocolResults()
	if err != nil {
		return nil, err
	}
	var mu sync.Mutex
	compiled := map[*jsonschema.Schema]*quickSchema{}
	out := make(map[string]func() *quickSchema, len(results))
	for m, schemaOf := range results {
		out[m] = sync.OnceValue(func() *quickSchema {
			sch, err := schemaOf()
			if err != nil {
				return nil
			}
			mu.Lock()
			defer mu.Unlock()
			return quickOf(sch, compiled, nil)
		})
	}
	return out, nil
})

// quickSchema is one compiled schema as ResultPasses checks it.
type quickSchema struct {
	unknown  bool  // a keyword ResultPasses does not know, or a $ref cycle: always false
	never    bool  // the schema false
	types    uint8 // the JSON types allowed; 0 for any
	ref      *quickSchema
	required []string
	props    map[string]*quickSchema
	items    *quickSchema
	min, max *int64
}

const (
	typeNull uint8 = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var typeBits = map[string]uint8{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// quickFields are the members of jsonschema.Schema that quickOf reads or
// that do not change what is valid (identities, anchors and annotations).
// Every other exported member must be zero for ResultPasses to judge a
// schema: a keyword it does not know, now or in a later version of the
// validator, makes it answer false, never a verdict of its own.
var quickFields = map[string]bool{
	"DraftVersion": true, "Location": true, "ID": true, "Anchor": true, "DynamicAnchor": true, "RecursiveAnchor": true,
	"Bool": true, "Ref": true, "Types": true, "Required": true, "Properties": true, "Items2020": true,
	"Minimum": true, "Maximum": true,
	"Title": true, "Description": true, "Default": true, "Comment": true, "ReadOnly": true, "WriteOnly": true,
	"Examples": true, "Deprecated": true,
}

// quickOf compiles s; path holds the schemas that refer to s without a
// value between them ($ref), so that a cycle of them, which the validator
// reports as an error of its own, is unknown here.
func quickOf(s *jsonschema.Schema, compiled map[*jsonschema.Schema]*quickSchema, path []*jsonschema.Schema) *quickSchema {
	for _, p := range path {
		if p == s {
			return &quickSchema{unknown: true}
		}
	}
	if q, ok := compiled[s]; ok {
		return q
	}
	q := &quickSchema{}
	compiled[s] = q
	rv := reflect.ValueOf(s).Elem()
	for i := range rv.NumField() {
		f := rv.Type().Field(i)
		if f.IsExported() && !quickFields[f.Name] && !rv.Field(i).IsZero() {
			q.unknown = true
			return q
		}
	}
	if s.Bool != nil {
		q.never = !*s.Bool
	}
	if s.Types != nil {
		for _, name := range s.Types.ToStrings() {
			bit, ok := typeBits[name]
			if !ok {
				q.unknown = true
				return q
			}
			q.types |= bit
		}
	}
	for _, name := range s.Required {
		if !plainName(name) {
			q.unknown = true
			return q
		}
	}
	q.required = s.Required
	if s.Ref != nil {
		q.ref = quickOf(s.Ref, compiled, append(path, s))
	}
	if len(s.Properties) > 0 {
		q.props = make(map[string]*quickSchema, len(s.Properties))
		for name, p := range s.Properties {
			if !plainName(name) {
				q.unknown = true
				return q
			}
			q.props[name] = quickOf(p, compiled, nil)
		}
	}
	if s.Items2020 != nil {
		q.items = quickOf(s.Items2020, compiled, nil)
	}
	if s.Minimum != nil {
		if !s.Minimum.IsInt() || !s.Minimum.Num().IsInt64() {
			q.unknown = true
			return q
		}
		n := s.Minimum.Num().Int64()
		q.min = &n
	}
	if s.Maximum != nil {
		if !s.Maximum.IsInt() || !s.Maximum.Num().IsInt64() {
			q.unknown = true
			return q
		}
		n := s.Maximum.Num().Int64()
		q.max = &n
	}
	return q
}

// plainName is a member name the text and the tree spell alike: valid
// UTF-8 without U+FFFD. (Of a name written with bytes that are not UTF-8,
// the tree holds U+FFFD where the text holds the bytes; neither equals a
// plain name.)
func plainName(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError {
			return false
		}
	}
	return true
}

// known reports whether every schema q reaches is one ResultPasses judges.
func (q *quickSchema) known() bool {
	return q.knownFrom(map[*quickSchema]bool{})
}

func (q *quickSchema) knownFrom(seen map[*quickSchema]bool) bool {
	if seen[q] {
		return true
	}
	seen[q] = true
	if q.unknown {
		return false
	}
	for _, sub := range q.props {
		if !sub.knownFrom(seen) {
			return false
		}
	}
	return (q.ref == nil || q.ref.knownFrom(seen)) && (q.items == nil || q.items.knownFrom(seen))
}

// passes is the validator's verdict on v, one valid JSON value as written,
// or false. The value's JSON type is its first byte's; an object's members
// are each checked, every one of a name written twice (the tree keeps the
// last: stricter, never more lenient); a required member is present when
// any member has its name.
func (q *quickSchema) passes(v []byte) bool {
	if q.unknown || q.never || len(v) == 0 {
		return false
	}
	var t uint8
	switch v[0] {
	case '{':
		t = typeObject
	case '[':
		t = typeArray
	case '"':
		t = typeString
	case 't', 'f':
		t = typeBoolean
	case 'n':
		t = typeNull
	default:
		t = typeNumber
	}
	if q.types != 0 && q.types&t == 0 {
		if t != typeNumber || q.types&typeInteger == 0 {
			return false
		}
		if _, ok := plainInteger(v); !ok {
			return false // an integer perhaps (3.0), but not one judged here
		}
	}
	if q.ref != nil && !q.ref.passes(v) {
		return false
	}
	switch t {
	case typeObject:
		if len(q.required) == 0 && q.props == nil {
			return true
		}
		members, _ := jsonscan.SplitObject(v)
		for _, name := range q.required {
			if _, ok := members.Get(name); !ok {
				return false
			}
		}
		for _, m := range members {
			if p := q.props[string(m.Name)]; p != nil && !p.passes(m.Value) {
				return false
			}
		}
	case typeArray:
		if q.items == nil {
			return true // the messages of a result: not looked into
		}
		elems, _ := jsonscan.SplitArray(v)
		for _, e := range elems {
			if !q.items.passes(e) {
				return false
			}
		}
	case typeNumber:
		if q.min == nil && q.max == nil {
			return true
		}
		n, ok := plainInteger(v)
		return ok && (q.min == nil || n >= *q.min) && (q.max == nil || n <= *q.max)
	}
	return true
}

// plainInteger is a number token written as an integer without fraction
// or exponent that an int64 holds (3, -0; not 3.0, 3e0 or 2^63).
func plainInteger(token []byte) (int64, bool) {
	for i, c := range token {
		if (c < '0' || c > '9') && (i > 0 || c != '-') {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(token), 10, 64)
	return n, err == nil
}

func trimSpace(v []byte) []byte {
	for len(v) > 0 && (v[0] == ' ' || v[0] == '\t' || v[0] == '\n' || v[0] == '\r') {
		v = v[1:]
	}
	for len(v) > 0 && (v[len(v)-1] == ' ' || v[len(v)-1] == '\t' || v[len(v)-1] == '\n' || v[len(v)-1] == '\r') {
		v = v[:len(v)-1]
	}
	return v
}
