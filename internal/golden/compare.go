package golden

import (
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
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
// rules of spec/golden.md (package jsoncmp: free text and the handle of
// window.create left out; for an error, the kind and every data member,
// never the message); a line step compares the response's id as well. It
// returns "" when they agree and otherwise where they first differ.
func Compare(step Step, got Response) string {
	d, _ := compare(step, got, jsoncmp.Rules{})
	return d
}

// compareFor is Compare for an implementation that declared info: the
// members of level diagnostics are left out unless it declared the level
// (D-42), as the differential properties leave them out.
// It also returns what came back and what was wanted where they first
// differ, as a deviation's Got and Want (D-72).
func compareFor(info target.Info, step Step, got Response) (string, deviation.Parts) {
	var rules jsoncmp.Rules
	if !info.HasLevel(protocol.LevelDiagnostics) {
		rules.Open = jsoncmp.Diagnostics
	}
	return compare(step, got, rules)
}

func compare(step Step, got Response, rules jsoncmp.Rules) (string, deviation.Parts) {
	if step.IsLine() {
		if step.Result == nil && step.Error == nil && step.ID == nil {
			if !got.None {
				return "want no response to this line, got one", deviation.Parts{Got: "a response", Want: "no response"}
			}
			return "", deviation.Parts{}
		}
		if got.None {
			return "want a response to this line, got none", deviation.Parts{Got: "no response", Want: "a response"}
		}
		if !jsoncmp.Equal(nonNull(step.ID), nonNull(got.ID)) {
			return fmt.Sprintf("response id: want %s, got %s", clip(step.ID), clip(got.ID)),
				deviation.Parts{Got: "id: " + clip(got.ID), Want: "id: " + clip(step.ID)}
		}
	}
	want := jsoncmp.Response{Result: step.Result, Error: step.Error}
	d := jsoncmp.Compare(step.Method, want, jsoncmp.Response{Result: got.Result, Error: got.Error}, rules)
	if d == nil {
		return "", deviation.Parts{}
	}
	return d.String(), deviation.Parts{Got: d.Path + ": " + d.Got, Want: d.Path + ": " + d.Want}
}

func nonNull(b json.RawMessage) []byte {
	if b == nil {
		return []byte("null")
	}
	return b
}

func clip(b []byte) string { return jsoncmp.Clip(b) }
