package steps

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// Lists of message positions in steps, and how a returned message is
// named in a failure.

// compareInput checks got against the input messages at the 1-based
// positions list names (see parseList).
func (w *world) compareInput(what string, got []json.RawMessage, list string) error {
	want, err := parseList(list, len(w.input))
	if err != nil {
		return err
	}
	return w.compareList(what, got, w.input, want)
}

// compareList checks got against the input messages at the 1-based
// positions want, and reports the first difference by index, role and
// which input message it was.
func (w *world) compareList(what string, got, input []json.RawMessage, want []int) error {
	// The summary names every returned message by its input position,
	// which costs a search of the input per message: it is written only
	// for a failure.
	labels := func() (wantList, gotList string) {
		wantLabels := make([]string, len(want))
		for i, p := range want {
			wantLabels[i] = strconv.Itoa(p)
		}
		gotLabels := make([]string, len(got))
		for i, g := range got {
			gotLabels[i] = identify(g, input)
		}
		return "messages [" + strings.Join(wantLabels, " ") + "]", "messages [" + strings.Join(gotLabels, " ") + "]"
	}
	summary := func() string {
		wl, gl := labels()
		return fmt.Sprintf("\n  wanted %s = %s\n  got    %s = %s", what, wl, what, gl)
	}
	// parts are the two lists as the failure's Want and Got (D-72).
	parts := func() deviation.Parts {
		wl, gl := labels()
		return deviation.Parts{Want: wl, Got: gl}
	}
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return w.differs(parts(), "%s is missing message %d at index %d (%s)%s", what, want[i], i, describe(input[want[i]-1]), summary())
		case i >= len(want):
			return w.differs(parts(), "%s has an extra message at index %d: %s%s", what, i, describe(got[i]), summary())
		case !jsoncmp.Equal(got[i], input[want[i]-1]):
			return w.differs(parts(), "%s differs at index %d: got %s, want message %d (%s)%s", what, i, describe(got[i]), want[i], describe(input[want[i]-1]), summary())
		}
	}
	return nil
}

// identify names a returned message by its 1-based input position, or "?"
// when it matches no input message (it was rewritten).
func identify(m json.RawMessage, input []json.RawMessage) string {
	for i, in := range input {
		if jsoncmp.Equal(m, in) {
			return strconv.Itoa(i + 1)
		}
	}
	return "?"
}

// describe summarizes a message: role, tool ids and a clipped text.
func describe(m json.RawMessage) string {
	var v struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	}
	if err := json.Unmarshal(m, &v); err != nil {
		return "not a message: " + clip(m)
	}
	s := "role " + v.Role
	if v.ToolCallID != "" {
		s += ", tool_call_id " + v.ToolCallID
	}
	c := string(v.Content)
	if len(c) > 60 {
		c = c[:57] + "..."
	}
	if c != "" {
		s += ", content " + c
	}
	return s
}

var rangeRe = regexp.MustCompile(`^(\d+)(?:-(\d+))?$`)

// parseList reads "1, 4-6, 9" or "none" as 1-based positions.
func parseList(list string, n int) ([]int, error) {
	if strings.TrimSpace(list) == "none" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(list, ",") {
		m := rangeRe.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return nil, fmt.Errorf("scenario error: %q is not a message position or range", part)
		}
		lo, hi := bounds(m)
		for p := lo; p <= hi; p++ {
			if p < 1 || p > n {
				return nil, fmt.Errorf("scenario error: message %d is outside the conversation of %d", p, n)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// bounds reads a range the scenarios write as K or K-L (messages) or mK
// or mK-mL (labels), matched by a pattern whose groups 1 and 2 are K and
// L: from K to L, or K alone.
func bounds(m []string) (lo, hi int) {
	lo, _ = strconv.Atoi(m[1])
	hi = lo
	if m[2] != "" {
		hi, _ = strconv.Atoi(m[2])
	}
	return lo, hi
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}
