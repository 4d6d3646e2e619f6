package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
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

// freeText are the members whose text is for people (spec/protocol.md):
// they are left out of the comparison. Warning and repair messages, and
// the error of a context_compression_failed event.
var freeText = map[string][]string{
	"warnings": {"message"},
	"events":   {"error"},
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
	if jsoneq.Equal(w, g) {
		return ""
	}
	if where := firstDifference("error.data", w, g); where != "" {
		return where
	}
	return fmt.Sprintf("error.data: want %s, got %s", w, g)
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
	w, ok := jsoneq.Decode(want)
	if !ok {
		return "the golden file's result is not JSON"
	}
	g, ok := jsoneq.Decode(got)
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
		dropFreeText(k, wv)
		dropFreeText(k, gv)
		if method == protocol.MethodLoopRun && k == "iterations" {
			dropLoopFreeText(wv)
			dropLoopFreeText(gv)
		}
		if d := walk("result."+k, wv, gv); d != "" {
			return d
		}
	}
	return ""
}

// dropFreeText removes the free text from the elements of a result
// member named name.
func dropFreeText(name string, v any) {
	members := freeText[name]
	list, ok := v.([]any)
	if !ok || len(members) == 0 {
		return
	}
	for _, e := range list {
		if obj, ok := e.(map[string]any); ok {
			for _, member := range members {
				delete(obj, member)
			}
		}
	}
}

// loopTexts are the loop events whose message the spec fixes (LOOP-4,
// LOOP-5); every other event of loop.run is a warning passed on, whose
// message is for people.
var loopTexts = []string{"conversation_trimmed", "conversation_metrics", "conversation_approaching_limit"}

// dropLoopFreeText removes the free messages from loop.run's
// iterations[*].events.
func dropLoopFreeText(v any) {
	its, _ := v.([]any)
	for _, it := range its {
		obj, _ := it.(map[string]any)
		events, _ := obj["events"].([]any)
		for _, e := range events {
			if ev, ok := e.(map[string]any); ok {
				if code, _ := ev["code"].(string); !slices.Contains(loopTexts, code) {
					delete(ev, "message")
				}
			}
		}
	}
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
	w, ok1 := jsoneq.Decode(want)
	g, ok2 := jsoneq.Decode(got)
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
