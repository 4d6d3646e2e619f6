package jsoncmp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// Response is one answer to a request: a result or an error.
type Response struct {
	Result json.RawMessage
	Error  *protocol.Error
}

// Rules are the members left out of a comparison, besides the free text
// every comparison leaves out (FreeText).
type Rules struct {
	// Open lists further members the spec leaves open, as patterns
	// (Pattern).
	Open []Pattern
}

// Pattern names members of a result: member names and [*] for any element
// of an array, joined by dots — "iterations[*].events[*].message". When
// is nil or says whether the member's parent object, as decoded on the
// expected side, falls under the pattern.
type Pattern struct {
	Method string // "" for every method
	Path   string
	When   func(parent map[string]any) bool
	// Why says, for the documentation and the failure messages, which
	// clause leaves the member open.
	Why string
}

// FreeText are the members whose text is written for people
// (spec/golden.md, "Comparing a response"): never compared.
var FreeText = []Pattern{
	{Path: "warnings[*].message", Why: "a warning's message is for people; its code counts"},
	{Path: "events[*].error", Why: "the error of context_compression_failed is for people (PREP-3)"},
	{Method: protocol.MethodLoopRun, Path: "iterations[*].events[*].message", When: func(ev map[string]any) bool {
		code, _ := ev["code"].(string)
		return !slices.Contains(LoopFixedTexts, code)
	}, Why: "a loop event other than those of LOOP-4 and LOOP-5 is a warning passed on, whose message is for people"},
}

// Diagnostics are the members that level diagnostics checks (D-42):
// warnings, the exact bytes of summarizer prompts and a loop's events. An
// implementation that does not declare the level is not compared on them,
// by the differential properties and by golden replay alike.
var Diagnostics = []Pattern{
	{Path: "warnings", Why: "warnings are diagnostics (D-42)"},
	{Path: "summarizer_calls[*].prompt", Why: "a prompt's exact bytes are diagnostics (D-42, SUM-1)"},
	{Path: "iterations[*].events", Why: "a loop's events are diagnostics (D-42)"},
}

// WithoutFreeText is raw, the JSON of the result member named member (an
// array of objects: "warnings", "events"), without the free text FreeText
// names in its elements — what the steps compare outside a whole result;
// raw itself when it is not JSON.
func WithoutFreeText(member string, raw []byte) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	list, _ := v.([]any)
	for _, p := range FreeText {
		inner, ok := strings.CutPrefix(p.Path, member+"[*].")
		if !ok || p.Method != "" || strings.ContainsAny(inner, ".[") {
			continue
		}
		for _, e := range list {
			if obj, ok := e.(map[string]any); ok && (p.When == nil || p.When(obj)) {
				delete(obj, inner)
			}
		}
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// LoopFixedTexts are the loop events whose message LOOP-4 and LOOP-5 fix.
var LoopFixedTexts = []string{"conversation_trimmed", "conversation_metrics", "conversation_approaching_limit"}

// Compare decides whether got answers a request as want did, by the rules
// of spec/golden.md: for a result, every member of want present in got and
// JSON-equal to it, except free text, the handle of window.create (any
// non-empty string) and the patterns of rules; a member of want that is
// null may be absent; members want does not have are ignored at the top
// level only. For an error, the same kind and every data member but kind,
// never the message. It returns nil when they agree.
func Compare(method string, want, got Response, rules Rules) *Difference {
	switch {
	case want.Error != nil && got.Error == nil:
		return &Difference{Path: "error", Want: fmt.Sprintf("an error of kind %q", want.Error.Kind()), Got: "the result " + Clip(got.Result)}
	case want.Error == nil && got.Error != nil:
		return &Difference{Path: "result", Want: "a result " + Clip(want.Result), Got: "the error " + strconv.Quote(got.Error.Error())}
	case want.Error != nil:
		return compareErrors(want.Error, got.Error)
	}
	if bytes.Equal(want.Result, got.Result) && method != protocol.MethodWindowCreate && jsonscan.Valid(got.Result) {
		return nil // the same text: nothing is left out of an equality
	}
	w, err := Decode(want.Result)
	if err != nil {
		return &Difference{Path: "result", Want: "JSON", Got: Clip(want.Result)}
	}
	g, err := Decode(got.Result)
	if err != nil {
		return &Difference{Path: "result", Want: "JSON", Got: Clip(got.Result)}
	}
	if method == protocol.MethodWindowCreate {
		if gm, ok := g.(map[string]any); ok {
			if h, ok := gm["window"].(string); !ok || h == "" {
				return &Difference{Path: "result.window", Want: "a handle (a non-empty string)", Got: show(reflect.ValueOf(gm["window"]), "nothing: the member is missing")}
			}
		}
	}
	if bytes.Equal(want.Result, got.Result) {
		return nil // a window.create whose handle is checked: the same text
	}
	rs := compile(method, slices.Concat(FreeText, rules.Open))
	ignore := cmp.FilterPath(func(p cmp.Path) bool { return rs.left(method, p) }, cmp.Ignore())
	return Diff("result", w, g, ignore)
}

// compiled are the patterns of one method, split into their segments, and
// the member names the patterns end in: a path that ends elsewhere below
// the top level is never left out, which the filter decides without
// building the path.
type compiled struct {
	patterns []Pattern
	segments [][]string
	last     map[string]bool
}

func compile(method string, patterns []Pattern) compiled {
	c := compiled{last: map[string]bool{}}
	for _, pt := range patterns {
		if pt.Method != "" && pt.Method != method {
			continue
		}
		segs := segments(pt.Path)
		c.patterns = append(c.patterns, pt)
		c.segments = append(c.segments, segs)
		c.last[segs[len(segs)-1]] = true
	}
	return c
}

// left says whether the member at p is left out of the comparison.
func (c compiled) left(method string, p cmp.Path) bool {
	last, ok := p.Last().(cmp.MapIndex)
	if !ok || isIndex(last) {
		return false
	}
	depth := 0
	for _, s := range p {
		if _, ok := s.(cmp.MapIndex); ok {
			depth++
		}
	}
	if depth > 1 && !c.last[last.Key().String()] {
		return false
	}
	keys, parents := jsonPath(p)
	if len(keys) == 1 {
		name, _ := keys[0].(string)
		vx, vy := p.Last().Values()
		switch {
		case method == protocol.MethodWindowCreate && name == "window":
			return true // checked above: any non-empty string
		case !vx.IsValid():
			return true // results are open to additions
		case !vy.IsValid() && vx.IsNil():
			return true // an expected null may be absent
		}
	}
	for i, pt := range c.patterns {
		if !matches(c.segments[i], keys) {
			continue
		}
		if pt.When == nil {
			return true
		}
		if parent, ok := parents[len(parents)-1].(map[string]any); ok && pt.When(parent) {
			return true
		}
	}
	return false
}

// jsonPath is the member names and element indexes of p, and for each the
// expected value holding it (nil where there is none).
func jsonPath(p cmp.Path) (keys []any, parents []any) {
	var holder any
	for i, s := range p {
		switch s := s.(type) {
		case cmp.MapIndex:
			if isIndex(s) {
				keys = append(keys, int(s.Key().Int()))
			} else {
				keys = append(keys, s.Key().String())
			}
			parents = append(parents, holder)
		}
		if vx, _ := p.Index(i).Values(); vx.IsValid() && vx.CanInterface() {
			holder = vx.Interface()
		}
	}
	return keys, parents
}

// segments splits a pattern such as "iterations[*].events[*].message" into
// member names and "[*]".
func segments(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name != "" {
			out = append(out, name)
		}
		for range strings.Count("["+rest, "[*]") {
			out = append(out, "[*]")
		}
	}
	return out
}

// matches reports whether a pattern's segments name the path keys.
func matches(want []string, keys []any) bool {
	if len(want) != len(keys) {
		return false
	}
	for i, k := range keys {
		switch k := k.(type) {
		case string:
			if want[i] != k {
				return false
			}
		case int:
			if want[i] != "[*]" {
				return false
			}
		}
	}
	return true
}

// compareErrors compares the kinds and every data member of want but kind.
func compareErrors(want, got *protocol.Error) *Difference {
	if want.Kind() != got.Kind() {
		return &Difference{Path: "error.kind", Want: strconv.Quote(want.Kind()), Got: fmt.Sprintf("%q (%s)", got.Kind(), got.Message)}
	}
	w, g := errorData(want), errorData(got)
	// Only the members the expected data has are compared (golden.md):
	// an implementation may say more.
	extra := cmp.FilterPath(func(p cmp.Path) bool {
		keys, _ := jsonPath(p)
		vx, _ := p.Last().Values()
		return len(keys) == 1 && !vx.IsValid()
	}, cmp.Ignore())
	return Diff("error.data", w, g, extra)
}

func errorData(e *protocol.Error) any {
	b, _ := json.Marshal(e.Data)
	v, err := Decode(b)
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		return map[string]any{}
	}
	delete(m, "kind")
	return m
}
