package runner_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// twoDeviations is a scenario whose first Then (a warning) and third (the
// cap) fail against the reference, and whose second passes.
const twoDeviations = `Feature: deviations
  @WIN-3 @CFG-6
  Scenario: a missing warning does not hide the count
    Given a window with max_messages 10, preserve_first_n 3 and preserve_last_n 7
    And a conversation of 12 messages
    When the conversation is trimmed
    Then the warnings do not include "preserve_exceeds_max"
    And the evicted messages are messages 4, 5
    And the trimmed conversation has 9 messages
`

type levels struct {
	target.Target
	levels []string
}

func (l levels) Info() target.Info {
	i := l.Target.Info()
	i.Levels = l.levels
	return i
}

// TestEveryDeviationIsReported: once the When has run, every Then is
// checked and each failing one reported under its clause; a Then of
// diagnostics is not checked for an implementation without them.
func TestEveryDeviationIsReported(t *testing.T) {
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	opts := runner.Options{Seed: 1, Properties: []prop.Property{},
		Features: fstest.MapFS{"d.feature": {Data: []byte(twoDeviations)}}}
	for _, tc := range []struct {
		name    string
		tg      target.Target
		clauses []string
	}{
		{"all levels", ref, []string{"CFG-6", "WIN-3"}},
		{"core only", levels{ref, []string{protocol.LevelCore}}, []string{"WIN-3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := runner.Run(context.Background(), tc.tg, opts)
			require.NoError(t, err)
			require.Len(t, rs, 1, "want one failure")
			require.Equal(t, result.Failed, rs[0].Outcome, "%+v", rs[0])
			r := rs[0]
			var got []string
			for _, d := range r.Deviations {
				got = append(got, d.Clause)
			}
			require.Equal(t, tc.clauses, got, "the clauses of the deviations; detail:\n%s", r.Detail)
			// The detail spans lines: these messages print it as it is.
			if len(tc.clauses) > 1 && !strings.HasPrefix(r.Detail, "2 deviations:") {
				t.Errorf("the detail does not list both deviations:\n%s", r.Detail)
			}
			if !strings.Contains(r.Detail, "the trimmed conversation has 10 messages, want 9") && !strings.Contains(r.Detail, "10") {
				t.Errorf("the count's deviation is missing:\n%s", r.Detail)
			}
		})
	}
}
