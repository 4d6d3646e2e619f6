package result_test

import (
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
