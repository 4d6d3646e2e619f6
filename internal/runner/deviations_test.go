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

// wrongMetrics is a scenario whose one Then names the metrics it wants:
// they are wrong for every implementation.
const wrongMetrics = `Feature: parts
  @MET-1
  Scenario: the metrics are not these
    Given a window with max_messages 10, preserve_first_n 3 and preserve_last_n 3
    And a conversation of 12 messages
    When the conversation is trimmed
    Then the metrics are total 99, preserved 9, evicted 3, estimated tokens 1
`

// TestDeviationParts: a deviation carries what was sent, what came back and
// what was wanted as the step that found it said them (D-72), not as a
// report would read them from its detail: the last request, and the values
// a Then compares where it names them, else the answer.
func TestDeviationParts(t *testing.T) {
	ref, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	run := func(feature string) result.Result {
		rs, err := runner.Run(context.Background(), ref, runner.Options{Seed: 1, Properties: []prop.Property{},
			Features: fstest.MapFS{"d.feature": {Data: []byte(feature)}}})
		require.NoError(t, err)
		require.Len(t, rs, 1, "want one failure")
		return rs[0]
	}
	r := run(twoDeviations)
	require.Len(t, r.Deviations, 2, r.Detail)
	for _, d := range r.Deviations {
		require.True(t, strings.HasPrefix(d.Sent, "window.trim {"), "sent %q", d.Sent)
		require.True(t, strings.HasPrefix(d.Got, `{"trimmed":`), "got %q", d.Got)
		require.Empty(t, d.Want, "these Thens name no value")
	}
	r = run(wrongMetrics)
	require.Len(t, r.Deviations, 1, r.Detail)
	d := r.Deviations[0]
	require.True(t, strings.HasPrefix(d.Sent, "window.trim {"), "sent %q", d.Sent)
	require.Equal(t, "{TotalMessages:99 PreservedMessages:9 EvictedMessages:3 EstimatedTokens:1}", d.Want)
	require.True(t, strings.HasPrefix(d.Got, "{TotalMessages:12 "), "got %q", d.Got)
}
