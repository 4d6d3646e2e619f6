package target

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The lifecycle's end is checked: each way of getting it wrong is a
// *ShutdownError naming the problem; a clean one is nil.
func TestShutdown(t *testing.T) {
	for _, tc := range []struct {
		behaviour string
		want      ShutdownProblem // "" for a clean shutdown
	}{
		{"good", ""},
		{"shutdown-garbage", ShutdownGarbage},
		{"shutdown-crash", ShutdownCrash},
		{"shutdown-exit", ShutdownNonZeroExit},
		{"shutdown-signal", ShutdownCrash},
		{"shutdown-twice", ShutdownGarbage},
		{"shutdown-stays", ShutdownTimeout},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, tc.behaviour)
			if tc.want == ShutdownTimeout {
				// the exit is waited for the request timeout; this one
				// stays far longer
				im.cfg.CallTimeout = time.Second
			}
			p := im.start(t)
			_, err := Estimate(context.Background(), p, nil)
			require.NoError(t, err)
			err = p.Shutdown(context.Background())
			if tc.want == "" {
				require.NoError(t, err)
			} else {
				var se *ShutdownError
				require.True(t, errors.As(err, &se), "want a *ShutdownError (%s), got %T: %v", tc.want, err, err)
				require.Equal(t, tc.want, se.Problem, "%v", se)
			}
			_, err = Estimate(context.Background(), p, nil)
			require.Error(t, err, "a shut-down Process starts no child again")
		})
	}
}
