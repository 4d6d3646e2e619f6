package properties

import (
	"encoding/json"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// Where two JSON values or lists first differ.

// firstDiff is the first position where got is not JSON-equal to the input
// messages at positions want, -1 when there is none.
func firstDiff(got []json.RawMessage, want []int, in []gen.Message) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoncmp.Equal(got[i], in[want[i]].Raw) {
			return i
		}
	}
	return -1
}

func firstDiffRaw(got, want []json.RawMessage) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoncmp.Equal(got[i], want[i]) {
			return i
		}
	}
	return -1
}

// jsonDiff finds where two JSON texts first differ: a path such as
// $.content[0].input.city and what each holds there ("" when they agree).
func jsonDiff(want, got []byte) (path, w, g string) {
	d := jsoncmp.DiffJSON("$", want, got)
	if d == nil {
		return "", "", ""
	}
	return d.Path, d.Want, d.Got
}
