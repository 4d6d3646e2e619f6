package gen

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
)

// The provider formats a property may generate (D-42): the one place that
// decides, for every generator that draws a format. The runner puts the
// implementation's declared formats in the context of the rapid.TB
// (WithFormats); every draw of a format reads them from the case's
// t.Context(), so a generator never produces a format the implementation
// does not declare. Without them (go test against the reference), both.

type formatsKey struct{}

// WithFormats returns ctx carrying the formats properties may generate;
// nil means both.
func WithFormats(ctx context.Context, formats []string) context.Context {
	return context.WithValue(ctx, formatsKey{}, formats)
}

// bothFormats is protocol.Formats(), listed once: formatsOf is asked for
// every choice of a format, and nothing changes what it returns.
var bothFormats = protocol.Formats()

// formatsOf lists the formats t's case may use, in protocol order.
func formatsOf(t *rapid.T) []string {
	fs, _ := t.Context().Value(formatsKey{}).([]string)
	if len(fs) == 0 {
		return bothFormats
	}
	return fs
}

// allows reports whether t's case may use format.
func allows(t *rapid.T, format string) bool { return slices.Contains(formatsOf(t), format) }

// onlyFormats keeps the choices whose format t's case may use; format
// names each choice's format ("" for a choice of no provider format, which
// is always kept; "mixed" is kept only when both are allowed).
//
// When every choice is kept — a case that may use both formats, the usual
// one — it returns choices itself, not a copy: callers only draw from it.
func onlyFormats[T any](t *rapid.T, choices []T, format func(T) string) []T {
	fs := formatsOf(t) // once: it reads the case's context
	kept := func(c T) bool {
		switch f := format(c); f {
		case "":
			return true
		case "mixed":
			return slices.Contains(fs, protocol.FormatOpenAI) && slices.Contains(fs, protocol.FormatAnthropic)
		default:
			return slices.Contains(fs, f)
		}
	}
	all := true
	for _, c := range choices {
		if !kept(c) {
			all = false
			break
		}
	}
	if all {
		return choices
	}
	var out []T
	for _, c := range choices {
		if kept(c) {
			out = append(out, c)
		}
	}
	return out
}

// formatChoices are choices some of which belong to a provider format,
// with the generator that draws from all of them, built once (shared.go):
// drawing from it when every choice is kept draws exactly what drawing
// from rapid.SampledFrom(onlyFormats(…)) does.
type formatChoices[T any] struct {
	all    []T
	format func(T) string
	every  *rapid.Generator[T]
}

func newFormatChoices[T any](all []T, format func(T) string) formatChoices[T] {
	return formatChoices[T]{all: all, format: format, every: rapid.SampledFrom(all)}
}

// draw draws one of the choices t's case may use; false, and no draw,
// when it may use none.
func (c formatChoices[T]) draw(t *rapid.T, label string) (T, bool) {
	kept := onlyFormats(t, c.all, c.format)
	switch len(kept) {
	case 0:
		var none T
		return none, false
	case len(c.all):
		return c.every.Draw(t, label), true
	}
	return rapid.SampledFrom(kept).Draw(t, label), true
}

// mustDraw draws one of the choices t's case may use, for choices some of
// which belong to no format and are always kept: none left is a mistake in
// the choices, as rapid.SampledFrom of an empty list is.
func (c formatChoices[T]) mustDraw(t *rapid.T, label string) T {
	v, ok := c.draw(t, label)
	if !ok {
		panic(fmt.Sprintf("gen: no %s is left for the case's formats", label))
	}
	return v
}

// drawAnthropic draws whether one tool message is in Anthropic's format,
// among the formats t's case may use.
func drawAnthropic(t *rapid.T, label string) bool {
	switch {
	case !allows(t, protocol.FormatAnthropic):
		return false
	case !allows(t, protocol.FormatOpenAI):
		return true
	}
	return anyBool.Draw(t, label)
}

// MessageFormat is the provider format a message's tool members show: a
// tool role or tool_calls for OpenAI, a tool_use or tool_result block for
// Anthropic; "" for a message of neither.
func MessageFormat(raw json.RawMessage) string {
	var m struct {
		Role      string          `json:"role"`
		ToolCalls json.RawMessage `json:"tool_calls"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if m.Role == "tool" || len(m.ToolCalls) > 0 && string(m.ToolCalls) != "null" {
		return protocol.FormatOpenAI
	}
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(m.Content, &blocks) == nil {
		for _, b := range blocks {
			if b.Type == "tool_use" || b.Type == "tool_result" {
				return protocol.FormatAnthropic
			}
		}
	}
	return ""
}

// SendsOnly reports whether every message anywhere in v — a request's
// params, a sequence of calls — uses one of formats (nil: both): a fixed
// example in a format the implementation does not declare is not sent
// (D-42).
func SendsOnly(formats []string, v any) bool {
	if len(formats) == 0 {
		return true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return true
	}
	if !bytes.Contains(raw, []byte(`"role"`)) && !bytes.Contains(raw, []byte(`\u`)) {
		return true // no member named role, even spelled with escapes: no message
	}
	// Only an object or an array holds messages: a value is parsed as the
	// one its first byte says it is, not tried as both (D-91).
	var walk func(json.RawMessage) bool
	walk = func(x json.RawMessage) bool {
		var obj map[string]json.RawMessage
		var arr []json.RawMessage
		x = bytes.TrimLeft(x, " \t\r\n")
		switch {
		case len(x) == 0:
		case x[0] == '{' && json.Unmarshal(x, &obj) == nil:
			if _, ok := obj["role"]; ok {
				if f := MessageFormat(x); f != "" && !slices.Contains(formats, f) {
					return false
				}
			}
			for _, y := range obj {
				if !walk(y) {
					return false
				}
			}
		case x[0] == '[' && json.Unmarshal(x, &arr) == nil:
			for _, y := range arr {
				if !walk(y) {
					return false
				}
			}
		}
		return true
	}
	return walk(raw)
}
