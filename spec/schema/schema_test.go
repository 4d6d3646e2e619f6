package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// known are the keywords check understands; anything else in a published
// schema would be silently unchecked.
var known = append([]string{"$ref", "type", "required", "properties", "additionalProperties", "items", "enum", "const", "minimum", "minLength"}, annotations...)

// TestSchemasUseOnlyCheckedKeywords walks both schemas: every keyword of
// every subschema is one Validate checks (or an annotation), and every
// $ref resolves.
func TestSchemasUseOnlyCheckedKeywords(t *testing.T) {
	for name, data := range map[string][]byte{"report": Report, "baseline": Baseline} {
		var root map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&root); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var walk func(sc map[string]any, at string)
		walk = func(sc map[string]any, at string) {
			for k, v := range sc {
				if !slices.Contains(known, k) {
					t.Errorf("%s %s: keyword %q is not checked", name, at, k)
				}
				switch k {
				case "properties", "$defs":
					for p, sub := range v.(map[string]any) {
						walk(sub.(map[string]any), at+"/"+k+"/"+p)
					}
				case "items":
					walk(v.(map[string]any), at+"/items")
				case "additionalProperties":
					if sub, ok := v.(map[string]any); ok {
						walk(sub, at+"/additionalProperties")
					}
				case "$ref":
					def := strings.TrimPrefix(v.(string), "#/$defs/")
					if _, ok := root["$defs"].(map[string]any)[def]; !ok {
						t.Errorf("%s %s: $ref %v does not resolve", name, at, v)
					}
				}
			}
		}
		walk(root, "#")
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		errs []string
	}{
		{`{"version":1,"implementation":"x","entries":[{"id":"A/b","reason":"r"}]}`, nil},
		{`{"version":2,"implementation":"x","entries":[]}`, []string{"$.version: 2 is not 1"}},
		{`{"implementation":"x","entries":[]}`, []string{`$: missing required member "version"`}},
		{`{"version":1,"implementation":"x","entries":[{"id":"","reason":"r","x":1}]}`, []string{`$.entries[0].id: "" is shorter than 1`, `$.entries[0]: member "x" is not in the schema`}},
		{`{"version":1,"implementation":7,"entries":{}}`, []string{"$.entries: want type [array], got object", "$.implementation: want type [string], got number"}},
	} {
		errs, err := Validate(Baseline, []byte(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(errs))
		for i, e := range errs {
			got[i] = e.Error()
		}
		slices.Sort(got)
		slices.Sort(tc.errs)
		if fmt.Sprint(got) != fmt.Sprint(tc.errs) {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.doc, got, tc.errs)
		}
	}
}
