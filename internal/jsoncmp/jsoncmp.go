// Package jsoncmp is the suite's one comparison of JSON values, built on
// go-cmp. Equality is JSON equality as MSG-2 defines it: same type; numbers
// equal as IEEE-754 doubles (1, 1.0 and 1e0 are equal); strings equal after
// unescaping; arrays element by element; objects with the same members in
// any order. Diff says where two values first differ, as a JSON path with
// both values; Responses applies the rules of spec/golden.md to a whole
// response (free text and the window handle left out, errors by kind).
// The steps, the properties, golden replay and the differential properties
// all compare through this package.
package jsoncmp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/membercheck"
)

// Decode parses one JSON text, keeping numbers as written (json.Number) so
// that the comparison, not the decoder, decides what equal numbers are. It
// is the protocol's own decoding of a value (membercheck.DecodeValue), which
// the harness checks results with.
func Decode(b []byte) (any, error) {
	v, err := membercheck.DecodeValue(b)
	if err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}

// Equal reports whether two JSON texts are JSON-equal (MSG-2). Invalid JSON
// is equal to nothing.
//
// Equal is the suite's hottest comparison (every returned message is traced
// back to the input through it), so it does not go through go-cmp: the same
// text is equal once it is known to be JSON, and two decoded values are
// walked directly by equalValues, which agrees with Diff (a rapid property
// in the tests holds them to it).
func Equal(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return jsonscan.Valid(a)
	}
	va, err := Decode(a)
	if err != nil {
		return false
	}
	vb, err := Decode(b)
	if err != nil {
		return false
	}
	return equalValues(va, vb)
}

// equalValues is JSON equality (MSG-2) on two values from Decode: what Diff
// finds no difference in.
func equalValues(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case json.Number:
		bn, ok := b.(json.Number)
		return ok && equalNumbers(a, bn)
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equalValues(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

// equalNumbers compares JSON numbers as IEEE-754 doubles; a number outside
// the doubles' range is compared as written.
func equalNumbers(x, y json.Number) bool {
	fx, errX := strconv.ParseFloat(string(x), 64)
	fy, errY := strconv.ParseFloat(string(y), 64)
	if errX != nil || errY != nil {
		return x == y
	}
	return fx == fy
}

// numbers is equalNumbers for go-cmp.
var numbers = cmp.Comparer(equalNumbers)

// elements compares arrays position by position, not along go-cmp's edit
// script: [m2] against [m3] is a difference at [0], not m2 deleted and m3
// inserted. An array becomes a map from index to element; the paths show
// those indexes as [i].
var elements = cmp.Transformer("elements", func(a []any) map[int]any {
	m := make(map[int]any, len(a))
	for i, v := range a {
		m[i] = v
	}
	return m
})

// Difference is where two JSON values first differ.
type Difference struct {
	// Path is a JSON path such as result.trimmed[3].content or
	// $["with space"][0].
	Path string
	// Want and Got are the values there as compact JSON, or a phrase
	// ("nothing: the member is missing") when one side has none.
	Want, Got string
}

// String is "PATH: want W, got G".
func (d *Difference) String() string {
	if d == nil {
		return ""
	}
	return fmt.Sprintf("%s: want %s, got %s", d.Path, d.Want, d.Got)
}

// Diff compares two decoded JSON values (from Decode) and returns the first
// difference, or nil when they are JSON-equal. root names the values in the
// path ("$", "result").
func Diff(root string, want, got any, opts ...cmp.Option) *Difference {
	r := &firstDiff{root: root}
	cmp.Equal(want, got, append([]cmp.Option{numbers, elements, cmp.Reporter(r)}, opts...)...)
	return r.diff
}

// DiffJSON is Diff on two JSON texts; a text that is not JSON differs from
// everything at the root.
func DiffJSON(root string, want, got []byte) *Difference {
	w, errW := Decode(want)
	g, errG := Decode(got)
	if errW != nil || errG != nil {
		if bytes.Equal(want, got) {
			return nil
		}
		return &Difference{Path: root, Want: Clip(want), Got: Clip(got)}
	}
	return Diff(root, w, g)
}

// firstDiff is a cmp.Reporter that keeps the first difference reported.
// go-cmp walks maps in sorted key order, and arrays are maps by index
// (elements), so "first" is stable.
type firstDiff struct {
	root string
	path cmp.Path
	diff *Difference
}

func (r *firstDiff) PushStep(ps cmp.PathStep) { r.path = append(r.path, ps) }
func (r *firstDiff) PopStep()                 { r.path = r.path[:len(r.path)-1] }

func (r *firstDiff) Report(rs cmp.Result) {
	if rs.Equal() || r.diff != nil {
		return
	}
	vx, vy := r.path.Last().Values()
	r.diff = &Difference{Path: FormatPath(r.root, r.path), Want: show(vx, "nothing: no such member"), Got: show(vy, "nothing: the member is missing")}
	if isIndex(r.path.Last()) {
		if !vx.IsValid() {
			r.diff.Want = "nothing: the array is shorter"
		}
		if !vy.IsValid() {
			r.diff.Got = "nothing: the array is shorter"
		}
	}
}

func show(v reflect.Value, missing string) string {
	if !v.IsValid() {
		return missing
	}
	return Clip(Marshal(v.Interface()))
}

// FormatPath writes a go-cmp path over decoded JSON as a JSON path: members
// as .name (or ["name"] when the name is not an identifier), elements as
// [i]; type assertions and other steps of the interface values are left
// out.
func FormatPath(root string, p cmp.Path) string {
	var b strings.Builder
	b.WriteString(root)
	for _, s := range p {
		switch s := s.(type) {
		case cmp.MapIndex:
			if isIndex(s) {
				fmt.Fprintf(&b, "[%d]", s.Key().Int())
			} else {
				b.WriteString(Member(s.Key().String()))
			}
		}
	}
	return b.String()
}

// isIndex says whether a step is an element of an array (see elements).
func isIndex(s cmp.PathStep) bool {
	m, ok := s.(cmp.MapIndex)
	return ok && m.Key().Kind() == reflect.Int
}

// Member is how a member name extends a path: .name, or ["name"].
func Member(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "[" + string(Marshal(name)) + "]"
		}
	}
	if name == "" {
		return `[""]`
	}
	return "." + name
}

// Marshal encodes v compactly without HTML escaping.
func Marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(strconv.Quote(fmt.Sprint(v)))
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// Clip shortens a long JSON text for a message: at most 400 bytes, then
// how long it was.
func Clip(b []byte) string {
	const limit = 400
	if len(b) > limit {
		return fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(string(b[:limit]), ""), len(b))
	}
	return string(b)
}
