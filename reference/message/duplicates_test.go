package message

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// nestedDuplicates is depth objects, each naming "a" twice, the second
// holding the next, around a payload of n bytes: {"a":0,"a":{"a":0,"a":…"x…x"…}}.
func nestedDuplicates(depth, n int) []byte {
	var b strings.Builder
	for range depth {
		b.WriteString(`{"a":0,"a":`)
	}
	b.WriteString(`"` + strings.Repeat("x", n) + `"`)
	b.WriteString(strings.Repeat("}", depth))
	return []byte(b.String())
}

// BenchmarkCompactNestedDuplicates: merging repeated names costs time
// linear in the text, whatever the depth (it cost depth × payload: 8,000
// levels around 4 MiB took 9 s). Compare the depths with benchstat.
func BenchmarkCompactNestedDuplicates(b *testing.B) {
	for _, depth := range []int{1, 100, 1000} {
		text := nestedDuplicates(depth, 1<<20)
		b.Run(strconv.Itoa(depth), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for range b.N {
				if _, err := Compact(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Repeated names merge as JSON.parse merges them, at every depth: the
// first position, the last value.
func TestCompactMergesNestedDuplicates(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1,"b":{"x":1,"x":{"y":1,"y":2}},"a":{"c":1,"c":2}}`: `{"a":{"c":2},"b":{"x":{"y":2}}}`,
		`[{"a":0,"a":[{"b":1,"b":2}]},{"c":3}]`:                   `[{"a":[{"b":2}]},{"c":3}]`,
		`{"a":{"a":{"a":1,"a":2},"a":3},"z":0}`:                   `{"a":{"a":3},"z":0}`,
		`{"k":{"p":1,"p":2,"q":3,"p":4}}`:                         `{"k":{"p":4,"q":3}}`,
	} {
		got, err := Compact([]byte(in))
		if err != nil || got != want {
			t.Errorf("Compact(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
}

// Merging costs what the text costs, not the text once per level: 1,000
// nested objects with a repeated name around 1 MiB allocate a few MiB (they
// allocated a copy of the payload per level, 1 GiB).
func TestCompactNestedDuplicatesIsLinear(t *testing.T) {
	text := nestedDuplicates(1000, 1<<20)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := Compact(text); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 32<<20 {
		t.Errorf("compacting %d bytes allocated %d bytes", len(text), allocated)
	}
}

// mergedOracle is JSON.parse's merge of repeated names, written plainly: a
// tree read token by token, each object keeping a name at its first
// position with its last value, written back with Compact's leaves.
func mergedOracle(t *testing.T, dec *json.Decoder) string {
	tok, err := dec.Token()
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	leaf := func(v any) string {
		raw, _ := json.Marshal(v)
		if n, ok := v.(json.Number); ok {
			raw = []byte(n)
		}
		s, err := Compact(raw)
		if err != nil {
			t.Fatalf("oracle: leaf %s: %v", raw, err)
		}
		return s
	}
	switch d := tok.(type) {
	case json.Delim:
		if d == '[' {
			var parts []string
			for dec.More() {
				parts = append(parts, mergedOracle(t, dec))
			}
			dec.Token()
			return "[" + strings.Join(parts, ",") + "]"
		}
		var names []string
		values := map[string]string{}
		for dec.More() {
			name, _ := dec.Token()
			n := name.(string)
			if _, ok := values[n]; !ok {
				names = append(names, n)
			}
			values[n] = mergedOracle(t, dec)
		}
		dec.Token()
		parts := make([]string, len(names))
		for i, n := range names {
			parts[i] = leaf(n) + ":" + values[n]
		}
		return "{" + strings.Join(parts, ",") + "}"
	case nil:
		return "null"
	}
	return leaf(tok)
}

// FuzzCompactMergesAsJSONParse: Compact's merge of repeated names is the
// plain one, at every depth.
func FuzzCompactMergesAsJSONParse(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":{"b":2,"b":[{"c":3,"c":4}]}}`, `[{"x":{"y":1,"y":{"y":2,"y":3}}}]`, `{"a":{},"a":{"a":1},"b":0,"a":[]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Compact(data)
		if err != nil || !utf8.Valid(data) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if want := mergedOracle(t, dec); got != want {
			t.Fatalf("Compact(%s) = %s, want %s", data, got, want)
		}
	})
}
