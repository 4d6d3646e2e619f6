package target

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// slack is how much longer than its timeout a call may take to return
// before the test calls it a hang. These tests check that a call ends, never
// how fast (D-44): the bound is one that only a hang reaches, on a runner
// stopped or loaded as CI runners are.
const slack = 2 * time.Minute

// requireFailure asserts that err is a *Failure with outcome o.
func requireFailure(t *testing.T, err error, o Outcome) *Failure {
	t.Helper()
	require.Error(t, err)
	var f *Failure
	require.True(t, errors.As(err, &f), "want a *Failure (%s), got %T: %v", o, err, err)
	require.Equal(t, o, f.Outcome, "failure: %v", f)
	return f
}

// requireWithin asserts that what began at start ended before limit, a
// bound only a hang reaches.
func requireWithin(t *testing.T, start time.Time, limit time.Duration) time.Duration {
	t.Helper()
	elapsed := time.Since(start)
	require.Less(t, elapsed, limit, "took %v, the limit is %v", elapsed, limit)
	return elapsed
}

// pid is the process id of p's current child.
func pid(t *testing.T, p *Process) int {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	require.NotNil(t, p.sess, "no child running")
	return p.sess.cmd.Process.Pid
}

// lastID is the id of the last request p sent.
func lastID(p *Process) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nextID
}

func TestProcess(t *testing.T) {
	ctx := context.Background()

	t.Run("good", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "good")
		p := im.start(t)
		// What travels over the wire is what the reference declares.
		assert.Equal(t, server.Reference{}.Name(), p.Info().Name)
		assert.Equal(t, server.Reference{}.Capabilities(), p.Info().Capabilities)
		assert.True(t, p.Info().Has(protocol.CapWindow))

		w, err := CreateWindow(ctx, p, nil)
		require.NoError(t, err)
		assert.NotEmpty(t, w.Window)
		_, err = Estimate(ctx, p, nil)
		require.NoError(t, err)
		assert.Len(t, im.running(t), 1)

		p.mu.Lock()
		s := p.sess
		p.mu.Unlock()
		start := time.Now()
		require.NoError(t, p.Close())
		requireWithin(t, start, 2*closeWait+slack)
		select {
		case <-s.exited:
		default:
			t.Fatal("Close returned before the implementation exited")
		}
		assert.True(t, s.cmd.ProcessState.Success(), "the implementation should exit by itself on shutdown: %v", s.cmd.ProcessState)
		assert.Equal(t, []string{"initialize", "window.create", "window.estimate", "shutdown"}, im.methods(t))
		im.assertNoneLeft(t)

		// A closed Process stays closed: no call starts a new child.
		require.NoError(t, p.Close())
		_, err = p.Call(ctx, protocol.MethodWindowEstimate, protocol.WindowEstimateParams{Messages: []json.RawMessage{}})
		require.Error(t, err)
		_, err = p.SendLine(ctx, []byte(`{}`))
		require.Error(t, err)
		assert.Equal(t, []string{"initialize", "window.create", "window.estimate", "shutdown"}, im.methods(t))
		assert.Empty(t, im.running(t))
	})

	t.Run("hang", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "hang")
		im.cfg.CallTimeout = 500 * time.Millisecond
		p := im.start(t)
		child := pid(t, p)

		start := time.Now()
		_, err := CreateWindow(ctx, p, nil)
		elapsed := requireWithin(t, start, im.cfg.CallTimeout+slack)
		f := requireFailure(t, err, Timeout)
		assert.GreaterOrEqual(t, elapsed, im.cfg.CallTimeout)
		assert.Equal(t, protocol.MethodWindowCreate, f.Method)
		assert.Contains(t, f.Detail, "no response within 500ms")
		assert.False(t, alive(child), "the hung child was not killed")
		im.assertNoneLeft(t)
	})

	t.Run("hang-at-start", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "hang-at-start")
		im.cfg.StartTimeout = 300 * time.Millisecond
		start := time.Now()
		p, err := StartProcess(ctx, im.cfg)
		elapsed := requireWithin(t, start, im.cfg.StartTimeout+slack)
		assert.Nil(t, p)
		f := requireFailure(t, err, Timeout)
		assert.GreaterOrEqual(t, elapsed, im.cfg.StartTimeout)
		assert.Equal(t, protocol.MethodInitialize, f.Method)
		assert.Contains(t, f.Detail, "300ms")
		im.assertNoneLeft(t)
	})

	t.Run("crash", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "crash")
		stderr := &lockedBuffer{}
		im.cfg.Stderr = stderr
		p := im.start(t)
		child := pid(t, p)

		start := time.Now()
		_, err := CreateWindow(ctx, p, nil)
		requireWithin(t, start, im.cfg.CallTimeout+slack)
		f := requireFailure(t, err, Crash)
		assert.Equal(t, protocol.MethodWindowCreate, f.Method)
		assert.Contains(t, f.Detail, "exit status 3")
		lines := strings.Split(f.StderrTail, "\n")
		assert.Equal(t, "boom", lines[len(lines)-1], "stderr tail:\n%s", f.StderrTail)
		assert.Len(t, lines, stderrTailLines)
		assert.Contains(t, f.Report(), "last lines of stderr:\n  | ")
		assert.Contains(t, f.Report(), "  | boom")
		assert.NotContains(t, f.Error(), "boom", "Error is one line; Report adds the stderr tail")
		assert.Contains(t, stderr.String(), "working on it (0)\n")
		assert.Contains(t, stderr.String(), "boom\n")
		assert.False(t, alive(child))
		im.assertNoneLeft(t)
	})

	// Answers that break the protocol: each is a protocol error and costs
	// the child its life.
	for _, tc := range []struct {
		behaviour string
		detail    []string
	}{
		{"garbage", []string{"not a JSON-RPC response", `"this is not JSON`}},
		{"wrong-id", []string{"id 4242", "the request had id %d"}},
		{"no-result", []string{"neither result nor error"}},
	} {
		t.Run(tc.behaviour, func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, tc.behaviour)
			p := im.start(t)
			child := pid(t, p)

			start := time.Now()
			_, err := CreateWindow(ctx, p, nil)
			requireWithin(t, start, im.cfg.CallTimeout+slack)
			f := requireFailure(t, err, ProtocolError)
			assert.Equal(t, protocol.MethodWindowCreate, f.Method)
			for _, d := range tc.detail {
				if strings.Contains(d, "%d") {
					d = fmt.Sprintf(d, lastID(p))
				}
				assert.Contains(t, f.Detail, d)
			}
			assert.False(t, alive(child), "a child that broke the protocol should be killed")
			im.assertNoneLeft(t)
		})
	}

	// Not parallel, so that nothing else allocates while it measures.
	t.Run("flood", func(t *testing.T) {
		im := newImpl(t, "flood")
		im.cfg.MaxLineBytes = 1 << 20
		im.cfg.CallTimeout = 5 * time.Second
		p := im.start(t)

		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		_, err := CreateWindow(ctx, p, nil)
		requireWithin(t, start, im.cfg.CallTimeout+slack)
		runtime.ReadMemStats(&after)
		f := requireFailure(t, err, ProtocolError)
		assert.Contains(t, f.Detail, "longer than 1048576 bytes")
		// Reading at most one line of 1 MiB allocates a few MiB; an
		// unbounded reader would have taken in far more.
		allocated := after.TotalAlloc - before.TotalAlloc
		assert.Less(t, allocated, uint64(64<<20), "allocated %d bytes during a flood", allocated)
		im.assertNoneLeft(t)
	})

	t.Run("error-no-kind", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "error-no-kind")
		p := im.start(t)
		child := pid(t, p)

		// A typed error is an answer: the child lives on.
		_, err := CreateWindow(ctx, p, nil)
		var pe *protocol.Error
		require.True(t, errors.As(err, &pe), "want a *protocol.Error, got %T: %v", err, err)
		var f *Failure
		assert.False(t, errors.As(err, &f))
		assert.Equal(t, protocol.KindInvalidConfig, pe.Kind())
		assert.Equal(t, -32001, pe.Code)
		assert.Equal(t, "x", pe.Message)
		assert.Equal(t, child, pid(t, p))
		_, err = Estimate(ctx, p, nil)
		require.NoError(t, err)
		assert.Equal(t, child, pid(t, p))

		// An error without a known kind breaks the protocol.
		_, err = Trim(ctx, p, "w1", nil)
		f = requireFailure(t, err, ProtocolError)
		assert.Equal(t, protocol.MethodWindowTrim, f.Method)
		assert.Contains(t, f.Detail, "no known kind")
		assert.Contains(t, f.Detail, "-31999")
		assert.False(t, alive(child))
		assert.Equal(t, 0, p.Restarts())

		// So does one whose data.kind is not a kind of the table either
		// (protocol.md, "Errors"): it is not an answer to be judged.
		_, err = p.Call(ctx, protocol.MethodWindowSummarize, map[string]any{})
		f = requireFailure(t, err, ProtocolError)
		assert.Contains(t, f.Detail, "no known kind")
		assert.Contains(t, f.Detail, "made_up")
		im.assertNoneLeft(t)
	})

	t.Run("wrapper-hang", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "hang")
		// A wrapper script whose child does the work. A non-interactive
		// shell gives a background job /dev/null as stdin, hence fd 3.
		im.cfg.Command = []string{"sh", "-c", `exec 3<&0; "$0" <&3 3<&- & wait`, os.Args[0]}
		im.cfg.CallTimeout = 500 * time.Millisecond
		p := im.start(t)
		require.Len(t, im.running(t), 2, "want the shell and its child")

		start := time.Now()
		_, err := CreateWindow(ctx, p, nil)
		requireWithin(t, start, im.cfg.CallTimeout+slack)
		requireFailure(t, err, Timeout)
		im.assertNoneLeft(t)
	})

	t.Run("restart-after-crash", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "crash-once")
		p := im.start(t)
		first := pid(t, p)

		_, err := CreateWindow(ctx, p, nil)
		requireFailure(t, err, Crash)
		assert.False(t, alive(first))

		w, err := CreateWindow(ctx, p, nil)
		require.NoError(t, err)
		assert.NotEmpty(t, w.Window)
		assert.NotEqual(t, first, pid(t, p))
		assert.Equal(t, 1, p.Restarts())
		assert.Equal(t, []string{"initialize", "window.create", "initialize", "window.create"}, im.methods(t),
			"the handshake should be replayed before the call")
		assert.Equal(t, server.Reference{}.Name(), p.Info().Name)
	})

	t.Run("restart-after-timeout", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "hang-once")
		im.cfg.CallTimeout = time.Second
		p := im.start(t)
		first := pid(t, p)

		_, err := CreateWindow(ctx, p, nil)
		requireFailure(t, err, Timeout)
		assert.False(t, alive(first))

		w, err := CreateWindow(ctx, p, nil)
		require.NoError(t, err)
		assert.NotEmpty(t, w.Window)
		assert.Equal(t, 1, p.Restarts())
		assert.Equal(t, []string{"initialize", "window.create", "initialize", "window.create"}, im.methods(t))
	})

	t.Run("restart-limit", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "crash")
		im.cfg.MaxRestarts = 2
		p := im.start(t)

		for life := 1; life <= 1+im.cfg.MaxRestarts; life++ {
			_, err := CreateWindow(ctx, p, nil)
			f := requireFailure(t, err, Crash)
			assert.NotErrorIs(t, err, ErrRestartLimit, "life %d", life)
			assert.Contains(t, f.StderrTail, "boom")
		}
		assert.Equal(t, im.cfg.MaxRestarts, p.Restarts())

		_, err := CreateWindow(ctx, p, nil)
		f := requireFailure(t, err, Crash)
		assert.ErrorIs(t, err, ErrRestartLimit)
		assert.Contains(t, f.Detail, "restart limit reached")
		assert.Contains(t, f.Detail, "3 times")
		// It is not started once more.
		initializes := 0
		for _, m := range im.methods(t) {
			if m == protocol.MethodInitialize {
				initializes++
			}
		}
		assert.Equal(t, 1+im.cfg.MaxRestarts, initializes)
		_, err = p.SendLine(ctx, []byte(`{}`))
		assert.ErrorIs(t, err, ErrRestartLimit)
		assert.Equal(t, im.cfg.MaxRestarts, p.Restarts())
		im.assertNoneLeft(t)
	})

	t.Run("slow-start", func(t *testing.T) {
		t.Parallel()
		const delay = 600 * time.Millisecond
		t.Run("in-time", func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, "slow-start")
			im.cfg.Env = append(im.cfg.Env, envDelay+"="+delay.String())
			im.cfg.StartTimeout = 10 * time.Second
			start := time.Now()
			p := im.start(t)
			elapsed := requireWithin(t, start, im.cfg.StartTimeout+slack)
			assert.GreaterOrEqual(t, elapsed, delay)
			_, err := CreateWindow(ctx, p, nil)
			require.NoError(t, err)
		})
		t.Run("too-late", func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, "slow-start")
			im.cfg.Env = append(im.cfg.Env, envDelay+"="+delay.String())
			im.cfg.StartTimeout = 150 * time.Millisecond
			start := time.Now()
			_, err := StartProcess(ctx, im.cfg)
			requireWithin(t, start, im.cfg.StartTimeout+slack)
			f := requireFailure(t, err, Timeout)
			assert.Equal(t, protocol.MethodInitialize, f.Method)
			im.assertNoneLeft(t)
		})
	})

	t.Run("command-not-found", func(t *testing.T) {
		t.Parallel()
		for _, cmd := range []string{"convspec-no-such-command", filepath.Join(t.TempDir(), "missing")} {
			start := time.Now()
			p, err := StartProcess(ctx, ProcessConfig{Command: []string{cmd, "--flag"}})
			requireWithin(t, start, slack)
			assert.Nil(t, p)
			f := requireFailure(t, err, Crash)
			assert.Contains(t, f.Detail, cmd)
		}
	})

	t.Run("no-command", func(t *testing.T) {
		t.Parallel()
		_, err := StartProcess(ctx, ProcessConfig{})
		require.Error(t, err)
	})

	// A call abandoned through its context must not leave its answer behind
	// for the next call to read.
	t.Run("cancelled-call", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "slow")
		im.cfg.Env = append(im.cfg.Env, envDelay+"=300ms")
		p := im.start(t)
		first := pid(t, p)

		// Cancel once the child has read the request and works on it.
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			defer cancel()
			for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
				data, _ := os.ReadFile(filepath.Join(im.dir, "requests.log"))
				if bytes.Contains(data, []byte(`"method":"window.create"`)) {
					return
				}
			}
		}()
		_, err := CreateWindow(cctx, p, nil)
		require.ErrorIs(t, err, context.Canceled)
		var f *Failure
		assert.False(t, errors.As(err, &f), "a cancelled call is not the implementation's failure: %v", err)

		_, err = Estimate(ctx, p, nil)
		require.NoError(t, err, "the answer to the abandoned call must not be taken for this one's")
		assert.False(t, alive(first), "the child working on the abandoned request should be gone")

		// A context that is done before the call sends nothing.
		done, cancel2 := context.WithCancel(ctx)
		cancel2()
		before := im.methods(t)
		_, err = CreateWindow(done, p, nil)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, before, im.methods(t))
	})

	t.Run("concurrent-calls", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "good")
		p := im.start(t)
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 10 {
					_ = p.Info()
					if _, err := Estimate(ctx, p, nil); err != nil {
						errs <- err
					}
					_ = p.Restarts()
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		assert.Equal(t, 0, p.Restarts())
	})

	t.Run("send-line", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "good")
		p := im.start(t)
		out, err := p.SendLine(ctx, []byte(`this is not JSON`))
		require.NoError(t, err)
		var resp protocol.Response
		require.NoError(t, json.Unmarshal(out, &resp))
		require.NotNil(t, resp.Error)
		assert.Equal(t, protocol.KindParseError, resp.Error.Kind())
		// The session is still in step.
		_, err = CreateWindow(ctx, p, nil)
		require.NoError(t, err)
	})

	// A request larger than a pipe's buffer, to a child that does not read:
	// the write itself must be bounded by the timeout, for a call and for
	// a raw line alike. Each waits for its bound on a child of its own,
	// side by side (D-86).
	t.Run("deaf", func(t *testing.T) {
		t.Parallel()
		big := strings.Repeat("y", 4<<20)
		t.Run("call", func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, "deaf")
			im.cfg.CallTimeout = 500 * time.Millisecond
			p := im.start(t)
			start := time.Now()
			_, err := p.Call(ctx, protocol.MethodWindowCreate, map[string]string{"big": big})
			requireWithin(t, start, im.cfg.CallTimeout+slack)
			f := requireFailure(t, err, Timeout)
			// four MiB more of line, four times the timeout more (D-44)
			assert.Contains(t, f.Detail, "not read within 2.5s")
			// the next request goes to a new life: the deaf one was killed
			_, err = p.Call(ctx, protocol.MethodWindowCreate, nil)
			requireFailure(t, err, Timeout)
			assert.Equal(t, 1, p.Restarts())
			im.assertNoneLeft(t)
		})
		t.Run("raw-line", func(t *testing.T) {
			t.Parallel()
			im := newImpl(t, "deaf")
			im.cfg.CallTimeout = 500 * time.Millisecond
			p := im.start(t)
			line := []byte(`{"jsonrpc":"2.0","id":1,"method":"window.create","params":{"big":"` + big + `"}}`)
			start := time.Now()
			_, err := p.SendLine(ctx, line)
			requireWithin(t, start, im.cfg.CallTimeout+slack)
			f := requireFailure(t, err, Timeout)
			assert.Equal(t, "(raw line)", f.Method)
			assert.Contains(t, f.Detail, "not read within 2.5s")
			im.assertNoneLeft(t)
		})
	})

	// Close must not depend on the implementation's cooperation.
	t.Run("close-unresponsive", func(t *testing.T) {
		t.Parallel()
		im := newImpl(t, "deaf")
		im.cfg.CallTimeout = 300 * time.Millisecond
		p := im.start(t)
		p.mu.Lock()
		s := p.sess
		p.mu.Unlock()

		start := time.Now()
		require.NoError(t, p.Close())
		requireWithin(t, start, im.cfg.CallTimeout+closeWait+slack)
		assert.Contains(t, s.exitStatus(), "killed by signal 9")
		im.assertNoneLeft(t)
	})
}

// TestAppendBounded: a line grows by doubling, never past the limit.
func TestAppendBounded(t *testing.T) {
	chunk := bytes.Repeat([]byte("x"), 1000)
	const limit = 10_500
	var line []byte
	for len(line)+len(chunk) <= limit {
		line = appendBounded(line, chunk, limit)
		if cap(line) > limit {
			t.Fatalf("cap %d over the limit %d at len %d", cap(line), limit, len(line))
		}
	}
	if len(line) != 10_000 || !bytes.Equal(line, bytes.Repeat([]byte("x"), 10_000)) {
		t.Fatalf("line of %d bytes", len(line))
	}
}

// TestWriteNow: what a pipe takes at once is written, in order, and the
// rest is returned for the write that waits; a writer that is not a pipe
// is left whole to it.
func TestWriteNow(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()

	small := []byte("{\"id\":1}\n")
	assert.Empty(t, writeNow(w, small))

	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB, over a pipe's buffer
	rest := writeNow(w, big)
	require.NotEmpty(t, rest, "a pipe nobody reads took a whole MiB")
	require.Less(t, len(rest), len(big), "a pipe with room took nothing")

	got := make(chan []byte)
	go func() { b, _ := io.ReadAll(r); got <- b }()
	_, err = w.Write(rest)
	require.NoError(t, err)
	w.Close()
	assert.Equal(t, append(small, big...), <-got)

	var buf bytes.Buffer
	assert.Equal(t, small, writeNow(&buf, small))
	assert.Zero(t, buf.Len())
}
