package result_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/convspec/convspec/conformance/result"
)

func TestFailingClauses(t *testing.T) {
	own := result.Case{ID: "prop/diff-window-trim", Clauses: []string{"WIN-1", "WIN-2", "WIN-3"}}
	for _, tc := range []struct {
		name       string
		deviations []result.Deviation
		want       []string
	}{
		{"no deviation: the case's own clauses", nil, []string{"WIN-1", "WIN-2", "WIN-3"}},
		{"a deviation without a clause", []result.Deviation{{Detail: "x"}}, []string{"WIN-1", "WIN-2", "WIN-3"}},
		{"the clause of the differing member only", []result.Deviation{{Clause: "WIN-2"}}, []string{"WIN-2"}},
		{"in order, without repeats", []result.Deviation{{Clause: "WIN-3"}, {Clause: "WIN-1"}, {Clause: "WIN-3"}}, []string{"WIN-3", "WIN-1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := result.Result{Case: own, Outcome: result.Failed, Deviations: tc.deviations}
			assert.Equal(t, tc.want, r.FailingClauses())
		})
	}
}

// TestClippedParts: the cap on a deviation (D-52) holds for what was sent,
// what came back and what was wanted as for its detail (D-72).
func TestClippedParts(t *testing.T) {
	big := strings.Repeat("x", 4*result.MaxDeviationBytes)
	r := result.Result{Outcome: result.Failed, Deviations: []result.Deviation{{Detail: big, Sent: big, Got: big, Want: big}}}.Clipped()
	d := r.Deviations[0]
	for name, s := range map[string]string{"detail": d.Detail, "sent": d.Sent, "got": d.Got, "want": d.Want} {
		assert.Less(t, len(s), result.MaxDeviationBytes+100, name)
		assert.Contains(t, s, "clipped", name)
	}
}
