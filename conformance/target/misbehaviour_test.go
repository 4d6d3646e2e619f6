package target

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
)

// A second answer to a request is a protocol error of that request, not of
// the next one (D-50): the next call is answered as if nothing had
// happened, and the stray is charged to the id it repeats.
func TestSecondAnswerIsAProtocolError(t *testing.T) {
	im := newImpl(t, "twice")
	p := im.start(t)
	_, err := Estimate(context.Background(), p, nil)
	require.NoError(t, err)
	estimateID := p.LastRequestID()
	time.Sleep(200 * time.Millisecond) // the second answer is on its way
	_, err = CreateWindow(context.Background(), p, nil)
	require.NoError(t, err, "the next request is not the one that broke the protocol")
	strays := p.Strays()
	require.Len(t, strays, 1)
	require.Equal(t, estimateID, strays[0].ID)
	require.Equal(t, protocol.MethodWindowEstimate, strays[0].Method)
	require.Contains(t, strays[0].Detail, "second answer")
	require.Empty(t, p.Strays(), "taken once")
}

// A second answer that arrives only after the next request was sent is
// still charged to the request it answers twice, by its id, not read as a
// wrong id of the next.
func TestLateSecondAnswerIsNamed(t *testing.T) {
	im := newImpl(t, "twice-late")
	p := im.start(t)
	_, err := Estimate(context.Background(), p, nil)
	require.NoError(t, err)
	estimateID := p.LastRequestID()
	_, err = CreateWindow(context.Background(), p, nil)
	require.NoError(t, err, "the next request is not the one that broke the protocol")
	strays := p.Strays()
	require.Len(t, strays, 1)
	require.Equal(t, estimateID, strays[0].ID)
	require.Equal(t, protocol.MethodWindowEstimate, strays[0].Method)
	require.Contains(t, strays[0].Error(), "protocol_error during window.estimate")
	require.Contains(t, strays[0].Detail, "second answer arrived after window.create was sent")
}

// A restarted implementation that declares something else is a protocol
// error: the cases were chosen by the first handshake.
func TestChangedHandshakeIsAProtocolError(t *testing.T) {
	for _, tc := range []struct{ behaviour, want string }{
		{"rename-once", `name "convspec-reference", now "someone-else"`},
		{"retrim-once", "trimmers "},
		// levels and formats decide which cases are run as much as the
		// capabilities do (D-42)
		{"relevel-once", `levels (absent), now ["core"]; formats (absent), now ["openai"]`},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			im := newImpl(t, tc.behaviour)
			p := im.start(t)
			_, err := Estimate(context.Background(), p, nil)
			requireFailure(t, err, Crash)
			_, err = Estimate(context.Background(), p, nil)
			f := requireFailure(t, err, ProtocolError)
			require.Contains(t, f.Detail, tc.want)
		})
	}
}

// The death of the child is a crash, at once, even when a daemon it left in
// a session of its own still holds stdout.
func TestCrashWithADaemonHoldingThePipe(t *testing.T) {
	im := newImpl(t, "daemon-crash")
	t.Cleanup(func() {
		for _, pid := range processesMarked(t, envDaemon+"="+im.mark) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	p := im.start(t)
	start := time.Now()
	_, err := Estimate(context.Background(), p, nil)
	f := requireFailure(t, err, Crash)
	require.True(t, strings.Contains(f.Detail, "exit status 3"), "%v", f)
	requireWithin(t, start, slack)
}
