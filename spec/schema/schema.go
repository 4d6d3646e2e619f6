// Package schema publishes the JSON Schemas (draft 2020-12) of what
// conform writes for machines — the JSON report and the baseline file — and
// checks a document against them structurally: type, required, properties,
// additionalProperties, items, enum, const, minimum, minLength and local
// $ref, the keywords the schemas use. It is no general validator: a schema
// keyword it does not know is reported, never ignored.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Report is report.schema.json, the schema of `conform -json`.
//
//go:embed report.schema.json
var Report []byte

// Baseline is baseline.schema.json, the schema of a baseline file.
//
//go:embed baseline.schema.json
var Baseline []byte

// Validate checks the JSON document doc against the schema and returns
// every violation, each naming where it is ($.cases[3].outcome).
func Validate(schemaJSON, doc []byte) ([]error, error) {
	root, err := decode(schemaJSON)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	m, ok := root.(map[string]any)
	if !ok || m["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		return nil, fmt.Errorf("schema: not a draft 2020-12 schema")
	}
	v, err := decode(doc)
	if err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	return ValidateValue(m, v), nil
}

// ValidateValue checks a decoded document (numbers as json.Number) against
// a decoded schema.
func ValidateValue(root map[string]any, v any) []error {
	s := &schema{root: root}
	var errs []error
	s.check(root, v, "$", &errs)
	return errs
}

func decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

type schema struct {
	root map[string]any
}

// annotations are the keywords that constrain nothing.
var annotations = []string{"$schema", "$id", "title", "description", "format", "$defs"}

func (s *schema) check(sc map[string]any, v any, at string, errs *[]error) {
	fail := func(format string, args ...any) {
		*errs = append(*errs, fmt.Errorf("%s: %s", at, fmt.Sprintf(format, args...)))
	}
	keys := make([]string, 0, len(sc))
	for k := range sc {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	obj, isObj := v.(map[string]any)
	for _, k := range keys {
		kv := sc[k]
		switch k {
		case "$ref":
			ref := kv.(string)
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			def, found := s.root["$defs"].(map[string]any)[name].(map[string]any)
			if !ok || !found {
				fail("unresolvable $ref %q", ref)
				continue
			}
			s.check(def, v, at, errs)
		case "type":
			var types []string
			switch tv := kv.(type) {
			case string:
				types = []string{tv}
			case []any:
				for _, x := range tv {
					types = append(types, x.(string))
				}
			}
			if !slices.ContainsFunc(types, func(ty string) bool { return hasType(v, ty) }) {
				fail("want type %v, got %s", types, typeName(v))
			}
		case "required":
			if !isObj {
				continue
			}
			for _, r := range kv.([]any) {
				if _, ok := obj[r.(string)]; !ok {
					fail("missing required member %q", r)
				}
			}
		case "properties":
			if !isObj {
				continue
			}
			for name, sub := range kv.(map[string]any) {
				if mv, ok := obj[name]; ok {
					s.check(sub.(map[string]any), mv, at+"."+name, errs)
				}
			}
		case "additionalProperties":
			if !isObj {
				continue
			}
			props, _ := sc["properties"].(map[string]any)
			for name, mv := range obj {
				if _, ok := props[name]; ok {
					continue
				}
				switch ap := kv.(type) {
				case bool:
					if !ap {
						fail("member %q is not in the schema", name)
					}
				case map[string]any:
					s.check(ap, mv, at+"."+name, errs)
				}
			}
		case "items":
			if arr, ok := v.([]any); ok {
				for i, item := range arr {
					s.check(kv.(map[string]any), item, fmt.Sprintf("%s[%d]", at, i), errs)
				}
			}
		case "enum":
			if !slices.ContainsFunc(kv.([]any), func(e any) bool { return jsonEqual(e, v) }) {
				fail("%v is not one of %v", v, kv)
			}
		case "const":
			if !jsonEqual(kv, v) {
				fail("%v is not %v", v, kv)
			}
		case "minimum":
			if n, ok := v.(json.Number); ok {
				x, _ := n.Float64()
				m, _ := kv.(json.Number).Float64()
				if x < m {
					fail("%v is below the minimum %v", n, m)
				}
			}
		case "minLength":
			if str, ok := v.(string); ok {
				m, _ := kv.(json.Number).Int64()
				if int64(len([]rune(str))) < m {
					fail("%q is shorter than %d", str, m)
				}
			}
		default:
			if !slices.Contains(annotations, k) {
				fail("the schema uses the keyword %q, which this check does not know", k)
			}
		}
	}
}

func hasType(v any, ty string) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		if _, err := n.Int64(); err == nil {
			return true
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f) && !strings.ContainsAny(n.String(), ".eE") // a uint64 beyond int64
	}
	return false
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

func jsonEqual(a, b any) bool {
	if an, ok := a.(json.Number); ok {
		bn, ok := b.(json.Number)
		if !ok {
			return false
		}
		x, _ := an.Float64()
		y, _ := bn.Float64()
		return x == y
	}
	return reflect.DeepEqual(a, b)
}
