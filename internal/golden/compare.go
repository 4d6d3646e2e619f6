package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/freetext"
	"github.com/convspec/convspec/internal/jsoneq"
)

// Response is what an implementation answered to one step: a result or an
// error, and for a raw line the response's id.
type Response struct {
	Result json.RawMessage
	Error  *protocol.Error
	ID     json.RawMessage
	// None says that a raw line got no response at all.
	None bool
}

// Compare decides whether got answers step as the reference did, by the
// rules of spec/golden.md: every member of the golden result JSON-equal
// (package jsoneq) to the same member of the response, free text and the
// handle of window.create left out (compareResults); for an error, the
// kind and every data member, never the message. It returns "" when they
// agree and otherwise where they first differ.
func Compare(step Step, got Response) string {
	var b strings.Builder
	if step.IsLine() {
		if step.Result == nil && step.Error == nil && step.ID == nil {
			if !got.None {
				return "want no response to this line, got one"
			}
			return ""
		}
		if got.None {
			return "want a response to this line, got none"
		}
		if !jsoneq.Equal(nonNull(step.ID), nonNull(got.ID)) {
			fmt.Fprintf(&b, "response id: want %s, got %s", clip(step.ID), clip(got.ID))
			return b.String()
		}
	}
	switch {
	case step.Error != nil && got.Error == nil:
		return fmt.Sprintf("want an error of kind %q, got the result %s", step.Error.Kind(), clip(got.Result))
	case step.Error == nil && got.Error != nil:
		return fmt.Sprintf("want a result, got the error %s", got.Error.Error())
	case step.Error != nil:
		return compareErrors(step.Error, got.Error)
	}
	return compareResults(step.Method, step.Result, got.Result)
}

func nonNull(b json.RawMessage) []byte {
	if b == nil {
		return []byte("null")
	}
	return b
}

// compareErrors compares the kinds and every data member but kind.
func compareErrors(want, got *protocol.Error) string {
	if want.Kind() != got.Kind() {
		return fmt.Sprintf("want an error of kind %q, got %q (%s)", want.Kind(), got.Kind(), got.Message)
	}
	w, _ := json.Marshal(want.Data)
	g, _ := json.Marshal(got.Data)
	w, g = withoutMember(w, "kind"), withoutMember(g, "kind")
	g = withoutAllowed(w, g, want.Kind())
	if jsoneq.Equal(w, g) {
		return ""
	}
	if where := firstDifference("error.data", w, g); where != "" {
		return where
	}
	return fmt.Sprintf("error.data: want %s, got %s", w, g)
}

// dataMembers are the members of error.data protocol.md gives a kind
// besides kind itself: an implementation may send them even where the
// reference does not (data.path of invalid_config from window.create).
var dataMembers = map[string][]string{
	protocol.KindInvalidConfig:   {"path"},
	protocol.KindWindowExhausted: {"tokenCount", "limit", "model", "summarizer_calls"},
}

// withoutAllowed drops from got's data the members the protocol allows
// for kind that the golden data does not have.
func withoutAllowed(want, got []byte, kind string) []byte {
	var w map[string]json.RawMessage
	_ = json.Unmarshal(want, &w)
	for _, m := range dataMembers[kind] {
		if _, ok := w[m]; !ok {
			got = withoutMember(got, m)
		}
	}
	return got
}

func withoutMember(b []byte, name string) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return []byte("{}")
	}
	delete(m, name)
	out, _ := json.Marshal(m)
	return out
}

// compareResults compares two results member by member: every member of
// the golden result must be in got and JSON-equal to it, except the handle
// of window.create (any non-empty string) and free text; a golden member
// that is null may be absent; members the golden result does not have are
// ignored.
func compareResults(method string, want, got json.RawMessage) string {
	w, ok := decode(want)
	if !ok {
		return "the golden file's result is not JSON"
	}
	g, ok := decode(got)
	if !ok {
		return fmt.Sprintf("the result is not JSON: %s", clip(got))
	}
	wm, ok1 := w.(map[string]any)
	gm, ok2 := g.(map[string]any)
	if !ok1 || !ok2 {
		return walk("result", w, g)
	}
	keys := make([]string, 0, len(wm))
	for k := range wm {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		wv := wm[k]
		gv, present := gm[k]
		switch {
		case method == protocol.MethodWindowCreate && k == "window":
			if h, ok := gv.(string); !ok || h == "" {
				return fmt.Sprintf("result.window: want a handle (a non-empty string), got %s", clip(mustMarshal(gv)))
			}
			continue
		case !present && wv == nil:
			continue
		case !present:
			return fmt.Sprintf("result.%s: missing (want %s)", k, clip(mustMarshal(wv)))
		}
		freetext.Drop(k, wv)
		freetext.Drop(k, gv)
		if method == protocol.MethodLoopRun && k == "iterations" {
			freetext.DropLoop(wv)
			freetext.DropLoop(gv)
		}
		if d := walk("result."+k, wv, gv); d != "" {
			return d
		}
	}
	return ""
}

func decode(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	return v, true
}

func mustMarshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf("%q", fmt.Sprint(v)))
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// firstDifference walks two JSON texts and describes the first place where
// they differ (members in sorted order, elements in order), deciding each
// leaf with jsoneq. It returns "" when it finds none.
func firstDifference(path string, want, got []byte) string {
	w, ok1 := decode(want)
	g, ok2 := decode(got)
	if !ok1 || !ok2 {
		return ""
	}
	return walk(path, w, g)
}

func walk(path string, w, g any) string {
	switch x := w.(type) {
	case map[string]any:
		y, ok := g.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			xv, inW := x[k]
			yv, inG := y[k]
			switch {
			case !inG:
				return fmt.Sprintf("%s.%s: missing (want %s)", path, k, clip(mustMarshal(xv)))
			case !inW:
				return fmt.Sprintf("%s.%s: not expected (got %s)", path, k, clip(mustMarshal(yv)))
			}
			if d := walk(path+"."+k, xv, yv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := g.([]any)
		if !ok {
			break
		}
		for i := range min(len(x), len(y)) {
			if d := walk(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		if len(x) != len(y) {
			return fmt.Sprintf("%s: want %d elements, got %d: want %s, got %s", path, len(x), len(y), clip(mustMarshal(x)), clip(mustMarshal(y)))
		}
		return ""
	}
	wb, gb := mustMarshal(w), mustMarshal(g)
	if jsoneq.Equal(wb, gb) {
		return ""
	}
	return fmt.Sprintf("%s: want %s, got %s", path, clip(wb), clip(gb))
}

func clip(b []byte) string {
	const limit = 400
	if len(b) > limit {
		return fmt.Sprintf("%s… (%d bytes)", strings.ToValidUTF8(string(b[:limit]), ""), len(b))
	}
	return string(b)
}
