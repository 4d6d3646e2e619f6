package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/convspec/convspec/internal/jsoneq"
)

// Where two JSON values or lists first differ.

// firstDiff is the first position where got is not JSON-equal to the input
// messages at positions want, -1 when there is none.
func firstDiff(got []json.RawMessage, want []int, in []msg) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoneq.Equal(got[i], in[want[i]].Raw) {
			return i
		}
	}
	return -1
}

func firstDiffRaw(got, want []json.RawMessage) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoneq.Equal(got[i], want[i]) {
			return i
		}
	}
	return -1
}

// jsonDiff finds where two JSON texts first differ: a path such as
// $.content[0].input.city and what each holds there.
func jsonDiff(want, got []byte) (path, w, g string) {
	a, errA := decodeJSON(want)
	b, errB := decodeJSON(got)
	if errA != nil || errB != nil {
		return "$", abbreviate(want, 80), abbreviate(got, 80)
	}
	path, w, g, _ = diffValues("$", a, b)
	return path, w, g
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func diffValues(path string, a, b any) (string, string, string, bool) {
	show := func(v any) string { return abbreviate(mustJSON(v), 80) }
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			return path, show(a), show(b), true
		}
		names := make([]string, 0, len(x)+len(y))
		for k := range x {
			names = append(names, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			p := path + memberPath(k)
			xv, inX := x[k]
			yv, inY := y[k]
			switch {
			case !inY:
				return p, show(xv), "nothing (the member is missing)", true
			case !inX:
				return p, "nothing (no such member)", show(yv), true
			}
			if p, w, g, differ := diffValues(p, xv, yv); differ {
				return p, w, g, true
			}
		}
		return "", "", "", false
	case []any:
		y, ok := b.([]any)
		if !ok {
			return path, show(a), show(b), true
		}
		for i := range max(len(x), len(y)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(y):
				return p, show(x[i]), "nothing (the array is shorter)", true
			case i >= len(x):
				return p, "nothing (the array is longer)", show(y[i]), true
			}
			if p, w, g, differ := diffValues(p, x[i], y[i]); differ {
				return p, w, g, true
			}
		}
		return "", "", "", false
	default:
		if !jsoneq.Equal(mustJSON(a), mustJSON(b)) {
			return path, show(a), show(b), true
		}
		return "", "", "", false
	}
}

func memberPath(name string) string {
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return "[" + string(mustJSON(name)) + "]"
		}
	}
	return "." + name
}
