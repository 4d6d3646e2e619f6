package membercheck

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/convspec/convspec/internal/jsonscan"
)

// Passes reports whether CheckValue would find no member at fault in the
// result raw, a valid JSON text (json.Valid), decoded into v: it reads raw
// in place, where CheckValue first needs the whole result decoded into a
// tree (DecodeValue), messages and all, which the rules never look into
// (D-89). It is the same walk as checkMembers', over the text: true means
// CheckValue(DecodeValue(raw), v) is nil (FuzzPassesAsCheckValue); false
// means it may not be, and only CheckValue says which member and rule.
func Passes(raw []byte, v any) bool {
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return false // CheckValue's own to refuse
	}
	p := planOf(t.Elem())
	return p != nil && p.passes(bytes.Trim(raw, " \t\r\n"))
}

// A memberPlan is checkMembers' walk of one Go type, worked out once.
type memberPlan struct {
	kind   planKind
	elem   *memberPlan   // of a pointer, a slice, a map
	fields []memberField // of a struct
}

type planKind int

const (
	planAny     planKind = iota // any value: json.RawMessage, or a kind checkMembers does not check
	planPointer                 // null, or the element's
	planInteger                 // a non-negative integer
	planBool
	planString
	planSlice
	planMap
	planStruct
)

type memberField struct {
	name      string
	omitempty bool
	plan      *memberPlan
}

// memberPlans is a cache of what Passes makes of each Go type it is asked
// about, as encoding/json keeps its fields: a type's plan never changes.
var memberPlans sync.Map // reflect.Type → *memberPlan; nil when Passes cannot tell

func planOf(t reflect.Type) *memberPlan {
	if p, ok := memberPlans.Load(t); ok {
		return p.(*memberPlan)
	}
	p, ok := compilePlan(t, map[reflect.Type]*memberPlan{})
	if !ok {
		p = nil
	}
	memberPlans.Store(t, p)
	return p
}

// compilePlan follows checkMembers case by case; seen ends a type that
// holds itself. It reports false for a type whose walk over the text could
// differ from the tree's: a member name that is not ASCII, which the tree
// and the text may spell differently.
func compilePlan(t reflect.Type, seen map[reflect.Type]*memberPlan) (*memberPlan, bool) {
	if p, ok := seen[t]; ok {
		return p, true
	}
	p := &memberPlan{}
	seen[t] = p
	if t == reflect.TypeFor[json.RawMessage]() {
		return p, true
	}
	var ok bool
	switch t.Kind() {
	case reflect.Pointer:
		p.kind = planPointer
		p.elem, ok = compilePlan(t.Elem(), seen)
		return p, ok
	case reflect.Int, reflect.Int64, reflect.Int32:
		p.kind = planInteger
	case reflect.Bool:
		p.kind = planBool
	case reflect.String:
		p.kind = planString
	case reflect.Slice, reflect.Map:
		p.kind = planSlice
		if t.Kind() == reflect.Map {
			p.kind = planMap
		}
		p.elem, ok = compilePlan(t.Elem(), seen)
		return p, ok
	case reflect.Struct:
		p.kind = planStruct
		for i := range t.NumField() {
			f := t.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" || name == "-" {
				continue
			}
			if !isASCII(name) {
				return nil, false
			}
			fp, ok := compilePlan(f.Type, seen)
			if !ok {
				return nil, false
			}
			p.fields = append(p.fields, memberField{name: name, omitempty: strings.Contains(opts, "omitempty"), plan: fp})
		}
	}
	return p, true
}

// passes is checkMembers over v, one valid JSON value as written: the
// tree's objects, arrays, strings, booleans, null and numbers are the
// text's, told by their first byte; an object's member is its last of that
// name (jsonscan.Object.Get, as DecodeValue keeps it).
func (p *memberPlan) passes(v []byte) bool {
	if len(v) == 0 {
		return false // not JSON
	}
	switch p.kind {
	case planPointer:
		return v[0] == 'n' || p.elem.passes(v)
	case planInteger:
		return (v[0] == '-' || v[0] >= '0' && v[0] <= '9') && nonNegativeInteger(v)
	case planBool:
		return v[0] == 't' || v[0] == 'f'
	case planString:
		return v[0] == '"'
	case planSlice:
		if v[0] != '[' {
			return false
		}
		if p.elem.kind == planAny {
			return true // the elements are messages: any value
		}
		elems, _ := jsonscan.SplitArray(v)
		for _, e := range elems {
			if !p.elem.passes(e) {
				return false
			}
		}
	case planMap:
		if v[0] != '{' {
			return false
		}
		// Every member, where the tree keeps the last of a name written
		// twice: stricter, never more lenient.
		members, _ := jsonscan.SplitObject(v)
		for _, m := range members {
			if !p.elem.passes(m.Value) {
				return false
			}
		}
	case planStruct:
		if v[0] != '{' {
			return false
		}
		members, _ := jsonscan.SplitObject(v)
		for _, f := range p.fields {
			mv, ok := members.Get(f.name)
			if !ok || f.omitempty && len(mv) > 0 && mv[0] == 'n' {
				continue
			}
			if !f.plan.passes(mv) {
				return false
			}
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
