package jsoncmp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// jsonValue draws a JSON value as a Go tree: objects, arrays, strings with
// escapes and non-ASCII, numbers in several spellings, booleans and null.
func jsonValue(t *rapid.T, depth int) any {
	kinds := 6
	if depth > 3 {
		kinds = 4 // leaves only
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return nil
	case 1:
		return rapid.Bool().Draw(t, "bool")
	case 2:
		return rapid.SampledFrom([]string{"", "a", "é", "\"", "\\", "\n", "😀", "a\u0000b", "ab"}).Draw(t, "string")
	case 3:
		return rapid.SampledFrom([]float64{0, -0.0, 1, -1, 0.1, 1e3, 1e300, 2.5}).Draw(t, "number")
	case 4:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		a := make([]any, n)
		for i := range a {
			a[i] = jsonValue(t, depth+1)
		}
		return a
	default:
		n := rapid.IntRange(0, 3).Draw(t, "members")
		m := map[string]any{}
		for range n {
			m[rapid.SampledFrom([]string{"a", "b", "role", "é", "with space"}).Draw(t, "name")] = jsonValue(t, depth+1)
		}
		return m
	}
}

// spell writes v as JSON, choosing among equal spellings: member order,
// white space, number forms (1, 1.0, 1e0) and string escapes.
func spell(t *rapid.T, v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case string:
		if rapid.Bool().Draw(t, "escape") {
			var b strings.Builder
			b.WriteByte('"')
			for _, r := range v {
				if r > 0xffff {
					hi, lo := utf16.EncodeRune(r)
					fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
					continue
				}
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			b.WriteByte('"')
			return b.String()
		}
		return string(Marshal(v))
	case float64:
		switch rapid.IntRange(0, 2).Draw(t, "number form") {
		case 0:
			return strconv.FormatFloat(v, 'g', -1, 64)
		case 1:
			return strconv.FormatFloat(v, 'e', -1, 64)
		default:
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = spell(t, e)
		}
		return "[" + strings.Join(parts, rapid.SampledFrom([]string{",", ", "}).Draw(t, "comma")) + "]"
	case map[string]any:
		names := make([]string, 0, len(v))
		for k := range v {
			names = append(names, k)
		}
		slices.Sort(names)
		names = rapid.Permutation(names).Draw(t, "order")
		parts := make([]string, len(names))
		for i, k := range names {
			parts[i] = spell(t, k) + ":" + spell(t, v[k])
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	panic(fmt.Sprintf("spell: %T", v))
}

// perturb returns v changed in one place, or unchanged: a member added or
// removed, an element added or removed, a leaf replaced. It draws values
// one small step apart, where a comparison that skips a check is caught.
func perturb(t *rapid.T, v any) any {
	switch v := v.(type) {
	case []any:
		out := slices.Clone(v)
		switch {
		case len(out) > 0 && rapid.Bool().Draw(t, "into element"):
			i := rapid.IntRange(0, len(out)-1).Draw(t, "element")
			out[i] = perturb(t, out[i])
		case len(out) > 0 && rapid.Bool().Draw(t, "remove element"):
			out = out[:len(out)-1]
		default:
			out = append(out, jsonValue(t, 3))
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v)+1)
		names := make([]string, 0, len(v))
		for k, e := range v {
			out[k] = e
			names = append(names, k)
		}
		slices.Sort(names)
		switch {
		case len(names) > 0 && rapid.Bool().Draw(t, "into member"):
			k := rapid.SampledFrom(names).Draw(t, "member")
			out[k] = perturb(t, out[k])
		case len(names) > 0 && rapid.Bool().Draw(t, "remove member"):
			delete(out, rapid.SampledFrom(names).Draw(t, "member"))
		default:
			out[rapid.SampledFrom([]string{"a", "b", "c", "é"}).Draw(t, "new member")] = jsonValue(t, 3)
		}
		return out
	}
	return jsonValue(t, 3)
}

// TestEqualAgreesWithDiff holds Equal's direct walk to the go-cmp
// comparison Diff makes: on two spellings of one value both say equal, and
// on two values drawn apart they agree on whether they differ.
func TestEqualAgreesWithDiff(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := jsonValue(t, 0)
		a, b := spell(t, v), spell(t, v)
		if !Equal([]byte(a), []byte(b)) {
			t.Fatalf("Equal says two spellings of one value differ:\n  %s\n  %s", a, b)
		}
		if d := DiffJSON("$", []byte(a), []byte(b)); d != nil {
			t.Fatalf("Diff says two spellings of one value differ: %s", d)
		}
		other := jsonValue(t, 0)
		if rapid.Bool().Draw(t, "near") {
			other = perturb(t, v)
		}
		c := spell(t, other)
		eq, d := Equal([]byte(a), []byte(c)), DiffJSON("$", []byte(a), []byte(c))
		if eq != (d == nil) {
			t.Fatalf("Equal(%s, %s) = %v but Diff says %v", a, c, eq, d)
		}
	})
}
