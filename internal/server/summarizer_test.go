package server

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
)

// A script's outcome is decided by its numbers, never by which of two
// timers fires first (D-44): every call below has the same outcome however
// often it is played. The close pairs (a delay equal to the timeout, or one
// millisecond over it) are where a reply timer and a timeout timer used to
// race: both had fired by the time the waiting goroutine ran, and the
// select picked one at random.
func TestScriptOutcomeIsDecidedByItsNumbers(t *testing.T) {
	reply, failure := "the summary", "upstream 503"
	for _, tc := range []struct {
		name        string
		script      protocol.SummarizerScript
		want        string // the reply, when the call answers
		wantErr     string // part of the error, when it fails
		repetitions int
	}{
		{name: "no delay", script: protocol.SummarizerScript{Reply: &reply}, want: reply, repetitions: 1},
		{name: "a delay within the timeout", script: protocol.SummarizerScript{Reply: &reply, DelayMS: 1, TimeoutMS: 1000}, want: reply, repetitions: 1},
		{name: "an error within the timeout", script: protocol.SummarizerScript{Error: &failure, DelayMS: 1, TimeoutMS: 1000}, wantErr: failure, repetitions: 1},
		{name: "a delay one millisecond short of the timeout", script: protocol.SummarizerScript{Reply: &reply, DelayMS: 1, TimeoutMS: 2}, want: reply, repetitions: 200},
		{name: "a delay equal to the timeout", script: protocol.SummarizerScript{Reply: &reply, DelayMS: 1, TimeoutMS: 1}, wantErr: "did not answer within 1ms", repetitions: 200},
		{name: "a delay just past the timeout", script: protocol.SummarizerScript{Reply: &reply, DelayMS: 2, TimeoutMS: 1}, wantErr: "did not answer within 1ms", repetitions: 200},
		{name: "an error past the timeout is a timeout", script: protocol.SummarizerScript{Error: &failure, DelayMS: 300, TimeoutMS: 5}, wantErr: "did not answer within 5ms", repetitions: 3},
		{name: "a delay past the default timeout", script: protocol.SummarizerScript{Reply: &reply, DelayMS: 30000}, wantErr: "did not answer within 30s", repetitions: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scripted(&tc.script, true)
			require.NoError(t, err)
			if tc.repetitions == 0 { // too long to play: the decision alone
				assert.False(t, s.answersInTime())
				return
			}
			for i := range tc.repetitions {
				got, err := s.Call(context.Background(), "p", 10)
				if tc.wantErr != "" {
					require.Error(t, err, "play %d answered %q", i+1, got)
					require.Contains(t, err.Error(), tc.wantErr, "play %d", i+1)
					continue
				}
				require.NoError(t, err, "play %d", i+1)
				require.Equal(t, tc.want, got, "play %d", i+1)
			}
			assert.Len(t, s.calls, tc.repetitions, "every call is recorded, answered or not")
		})
	}
}

// A call that does not answer in time ends when its caller gives up: the
// caller's cancellation, not the script's timeout, is then the error.
func TestLateScriptEndsWithItsCaller(t *testing.T) {
	reply := "late"
	s, err := scripted(&protocol.SummarizerScript{Reply: &reply, DelayMS: 60000, TimeoutMS: 60000}, true)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = s.Call(ctx, "p", 10)
	require.ErrorIs(t, err, context.Canceled)
}
