package protocol

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec/schema"
)

// The JSON Schema (spec/schema/protocol.schema.json) is the one description
// of the wire shape (D-63); the Go types of this package are checked
// against it here, member by member and both ways, so that a member added,
// renamed, retyped or made optional on one side only fails a test instead
// of going unchecked.

// wire pairs every method with the Go types of its params and its result;
// nil is "none" (shutdown's params, and its result null).
var wire = map[string]struct{ params, result any }{
	MethodInitialize:      {InitializeParams{}, InitializeResult{}},
	MethodShutdown:        {nil, nil},
	MethodWindowCreate:    {WindowCreateParams{}, WindowCreateResult{}},
	MethodWindowTrim:      {WindowTrimParams{}, WindowTrimResult{}},
	MethodWindowEstimate:  {WindowEstimateParams{}, WindowEstimateResult{}},
	MethodWindowSummarize: {WindowSummarizeParams{}, WindowSummarizeResult{}},
	MethodTokensEncode:    {TokensEncodeParams{}, TokensEncodeResult{}},
	MethodBudgetCount:     {BudgetCountParams{}, BudgetCountResult{}},
	MethodBudgetCheck:     {BudgetCheckParams{}, BudgetCheckResult{}},
	MethodBudgetPrune:     {BudgetPruneParams{}, BudgetPruneResult{}},
	MethodBudgetCompress:  {BudgetCompressParams{}, BudgetCompressResult{}},
	MethodBudgetPrepare:   {BudgetPrepareParams{}, BudgetPrepareResult{}},
	MethodHistoryClassify: {HistoryClassifyParams{}, HistoryClassifyResult{}},
	MethodHistoryPrune:    {HistoryPruneParams{}, HistoryPruneResult{}},
	MethodHistoryBuild:    {HistoryBuildParams{}, HistoryBuildResult{}},
	MethodConfigResolve:   {ConfigResolveParams{}, ConfigResolveResult{}},
	MethodLoopRun:         {LoopRunParams{}, LoopRunResult{}},
	MethodTrimmerTrim:     {TrimmerTrimParams{}, TrimmerTrimResult{}},
	MethodTrimmerCount:    {TrimmerCountParams{}, TrimmerCountResult{}},
}

// lines are the shapes of a line and of an error, by their schema names.
var lines = map[string]any{"Request": Request{}, "Response": Response{}, "Error": Error{}}

// TestEveryMethodHasItsWireShapes: the schema describes the params and the
// result of exactly the methods of the protocol, and this test knows the Go
// types of each.
func TestEveryMethodHasItsWireShapes(t *testing.T) {
	doc := loadSchema(t)
	results, err := schema.Methods()
	require.NoError(t, err)
	assert.ElementsMatch(t, Methods(), results, "the methods with a result schema")
	params, _ := doc.def("Params")["$defs"].(map[string]any)
	assert.ElementsMatch(t, Methods(), keys(params), "the methods with a params schema")
	assert.ElementsMatch(t, Methods(), keys(wire), "the methods this test pairs with Go types")
}

// TestWireTypesMatchTheSchema walks every wire type of the package against
// the schema both ways: every member of a Go type is described with a
// compatible type, every member described is one of the Go type's, a
// required member is one the Go type always writes, and every shape the
// schema describes is reached by some Go type.
func TestWireTypesMatchTheSchema(t *testing.T) {
	doc := loadSchema(t)
	c := &comparer{doc: doc, seen: map[string]bool{}}
	for _, m := range slices.Sorted(maps.Keys(wire)) {
		w := wire[m]
		c.method(m+" params", doc.param(m), w.params, false)
		c.method(m+" result", doc.def(m), w.result, true)
	}
	for _, name := range slices.Sorted(maps.Keys(lines)) {
		c.seen["#/$defs/"+name] = true
		c.method(name, doc.def(name), lines[name], false)
	}
	for _, problem := range c.problems {
		t.Error(problem)
	}
	for name := range doc.defs {
		if name != "Params" && !c.seen["#/$defs/"+name] && !slices.Contains(Methods(), name) {
			t.Errorf("the schema describes %s, which no wire type of package protocol has", name)
		}
	}
}

// TestTheWalkFindsOneSidedChanges: the comparison is not vacuous — a
// member, a type or a requiredness changed on one side only is found.
func TestTheWalkFindsOneSidedChanges(t *testing.T) {
	doc := loadSchema(t)
	metrics := doc.def("Metrics")
	type extra struct {
		Metrics
		Added int `json:"added"`
	}
	for _, tc := range []struct {
		name string
		def  map[string]any
		typ  reflect.Type
		want string
	}{
		{"a Go member the schema lacks", metrics, reflect.TypeFor[struct {
			TotalMessages     int `json:"totalMessages"`
			PreservedMessages int `json:"preservedMessages"`
			EvictedMessages   int `json:"evictedMessages"`
			EstimatedTokens   int `json:"estimatedTokens"`
			Added             int `json:"added"`
		}](), `has member "added", which the schema does not describe`},
		{"a schema member the Go type lacks", metrics, reflect.TypeFor[struct {
			TotalMessages     int `json:"totalMessages"`
			PreservedMessages int `json:"preservedMessages"`
			EvictedMessages   int `json:"evictedMessages"`
		}](), `describes member "estimatedTokens", which`},
		{"a type changed", metrics, reflect.TypeFor[struct {
			TotalMessages     string `json:"totalMessages"`
			PreservedMessages int    `json:"preservedMessages"`
			EvictedMessages   int    `json:"evictedMessages"`
			EstimatedTokens   int    `json:"estimatedTokens"`
		}](), `totalMessages: the schema says integer, the Go type string`},
		{"a required member made optional in Go", metrics, reflect.TypeFor[struct {
			TotalMessages     int `json:"totalMessages,omitempty"`
			PreservedMessages int `json:"preservedMessages"`
			EvictedMessages   int `json:"evictedMessages"`
			EstimatedTokens   int `json:"estimatedTokens"`
		}](), `totalMessages is required, but the Go type omits it when empty`},
		{"a count that may be negative", map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer"}}},
			reflect.TypeFor[struct {
				N int `json:"n"`
			}](), `n: the member rule is a non-negative integer, the schema has no "minimum": 0`},
		{"an embedded struct is not a wire shape", metrics, reflect.TypeFor[extra](), `embeds`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &comparer{doc: doc, seen: map[string]bool{}}
			c.compare("Metrics", tc.def, tc.typ, true)
			assert.Contains(t, strings.Join(c.problems, "\n"), tc.want)
		})
	}
}

type schemaDoc struct{ defs map[string]any }

func loadSchema(t *testing.T) schemaDoc {
	t.Helper()
	var doc struct {
		Defs map[string]any `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(schema.Protocol, &doc))
	return schemaDoc{defs: doc.Defs}
}

// def is the shape the schema names name; nil if it names none.
func (d schemaDoc) def(name string) map[string]any {
	def, _ := d.defs[name].(map[string]any)
	return def
}

// param is the params schema of a method; nil if there is none.
func (d schemaDoc) param(method string) map[string]any {
	params, _ := d.def("Params")["$defs"].(map[string]any)
	def, _ := params[method].(map[string]any)
	return def
}

// resolve follows a node's $ref ("#/$defs/Count") to what it names.
func (d schemaDoc) resolve(node map[string]any) (map[string]any, string) {
	ref, ok := node["$ref"].(string)
	if !ok {
		return node, ""
	}
	name, found := strings.CutPrefix(ref, "#/$defs/")
	def, _ := d.defs[name].(map[string]any)
	if !found || def == nil {
		return nil, ref
	}
	return def, ref
}

type comparer struct {
	doc      schemaDoc
	seen     map[string]bool // the $refs reached
	problems []string
}

func (c *comparer) fail(at, format string, args ...any) {
	c.problems = append(c.problems, at+": "+fmt.Sprintf(format, args...))
}

// method compares a method's params or result; v nil is "none".
func (c *comparer) method(at string, def map[string]any, v any, result bool) {
	if def == nil {
		c.fail(at, "the schema does not describe it")
		return
	}
	if v == nil {
		if props, ok := def["properties"]; ok {
			c.fail(at, "the schema describes members %v; the protocol has none", props)
		}
		return
	}
	c.compare(at, def, reflect.TypeOf(v), result)
}

var (
	rawType = reflect.TypeFor[json.RawMessage]()
	anyType = reflect.TypeFor[any]()
	// countType is a count however the Go side names it.
	countType = reflect.TypeFor[Count]()
)

// types is the set of JSON types a node allows besides null; empty for
// any value.
func types(node map[string]any) []string {
	var out []string
	switch ty := node["type"].(type) {
	case string:
		out = append(out, ty)
	case []any:
		for _, x := range ty {
			if s, _ := x.(string); s != "null" {
				out = append(out, s)
			}
		}
	}
	if _, ok := node["const"].(string); ok && len(out) == 0 {
		out = append(out, "string")
	}
	return out
}

// compare walks the Go type ty against the schema node. inResult says the
// node is read by internal/membercheck, whose rule for a Go integer is "a
// non-negative integer": the schema must say so too.
func (c *comparer) compare(at string, node map[string]any, ty reflect.Type, inResult bool) {
	node, ref := c.doc.resolve(node)
	if node == nil {
		c.fail(at, "$ref %s names no shape of the schema", ref)
		return
	}
	if ref != "" {
		c.seen[ref] = true
	}
	for ty.Kind() == reflect.Pointer {
		ty = ty.Elem()
	}
	if ty == rawType || ty == anyType {
		return // any JSON value: the schema may narrow it, the Go side reads it as sent
	}
	want := map[reflect.Kind]string{
		reflect.String: "string", reflect.Bool: "boolean", reflect.Float64: "number",
		reflect.Int: "integer", reflect.Int64: "integer", reflect.Int32: "integer",
		reflect.Slice: "array", reflect.Array: "array", reflect.Map: "object", reflect.Struct: "object",
	}[ty.Kind()]
	got := types(node)
	switch {
	case want == "":
		c.fail(at, "the Go type %s has no JSON counterpart", ty)
		return
	case len(got) == 0:
		c.fail(at, "the schema allows any value, the Go type %s only %s", ty, want)
		return
	case len(got) != 1 || got[0] != want:
		c.fail(at, "the schema says %s, the Go type %s", strings.Join(got, " or "), ty)
		return
	}
	switch ty.Kind() {
	case reflect.Int, reflect.Int64, reflect.Int32:
		if (inResult || ty == countType) && node["minimum"] != float64(0) {
			c.fail(at, `the member rule is a non-negative integer, the schema has no "minimum": 0`)
		}
	case reflect.Slice, reflect.Array:
		if items, ok := node["items"].(map[string]any); ok {
			c.compare(at+"[]", items, ty.Elem(), inResult)
		} else if ty.Elem() != rawType {
			c.fail(at, "the schema allows any element, the Go type %s only its own", ty)
		}
	case reflect.Map:
		if extra, ok := node["additionalProperties"].(map[string]any); ok {
			c.compare(at+"{}", extra, ty.Elem(), inResult)
		} else if ty.Elem() != rawType {
			c.fail(at, "the schema allows any member, the Go type %s only its own", ty)
		}
	case reflect.Struct:
		c.members(at, node, ty, inResult)
	}
}

// members compares an object's members both ways, and its required ones
// with what the Go type always writes (D-63).
func (c *comparer) members(at string, node map[string]any, ty reflect.Type, inResult bool) {
	props, _ := node["properties"].(map[string]any)
	var required []string
	if req, ok := node["required"].([]any); ok {
		for _, r := range req {
			required = append(required, r.(string))
		}
	}
	fields := map[string]bool{}
	for i := range ty.NumField() {
		f := ty.Field(i)
		if f.Anonymous {
			c.fail(at, "%s embeds %s: a wire shape spells its members out", ty, f.Type)
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = true
		sub, ok := props[name].(map[string]any)
		if !ok {
			c.fail(at, "%s has member %q, which the schema does not describe", ty, name)
			continue
		}
		if slices.Contains(required, name) && strings.Contains(opts, "omitempty") {
			c.fail(at+"."+name, "%s is required, but the Go type omits it when empty", name)
		}
		c.compare(at+"."+name, sub, f.Type, inResult)
	}
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if !fields[name] {
			c.fail(at, "the schema describes member %q, which %s does not have", name, ty)
		}
	}
	for _, r := range required {
		if _, ok := props[r]; !ok {
			c.fail(at, "required %q is not described", r)
		}
	}
}

func keys[V any](m map[string]V) []string { return slices.Collect(maps.Keys(m)) }
