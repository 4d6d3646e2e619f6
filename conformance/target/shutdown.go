package target

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
)

// ShutdownProblem names what went wrong in the lifecycle's last step
// (spec/protocol.md, "Lifecycle").
type ShutdownProblem string

// What a shutdown can do wrong.
const (
	// ShutdownGarbage: the answer to shutdown is not a JSON-RPC response
	// with a result and the request's id, or more lines followed it.
	ShutdownGarbage ShutdownProblem = "garbage"
	// ShutdownCrash: the implementation died before answering, or was
	// killed by a signal after it.
	ShutdownCrash ShutdownProblem = "crash"
	// ShutdownNonZeroExit: it exited by itself, with a status other than 0.
	ShutdownNonZeroExit ShutdownProblem = "non_zero_exit"
	// ShutdownTimeout: no answer within the call timeout, or no exit
	// within the grace after stdin was closed.
	ShutdownTimeout ShutdownProblem = "timeout"
	// ShutdownEscaped: during the run or at its end, a descendant of the
	// implementation was found running outside its process group (a
	// setsid daemon); conform killed it (D-52).
	ShutdownEscaped ShutdownProblem = "escaped"
)

// ShutdownError says how the implementation failed to shut down.
type ShutdownError struct {
	Problem    ShutdownProblem
	Detail     string
	StderrTail string
}

func (e *ShutdownError) Error() string {
	return fmt.Sprintf("shutdown: %s: %s", e.Problem, e.Detail)
}

// Shutdown performs the lifecycle's end and checks it: it sends shutdown,
// requires a result answering it and nothing after it, closes stdin, and
// requires the implementation to exit by itself with status 0 within the
// close grace. Whatever happens, nothing of the implementation is left
// running and the Process is closed. The error is a *ShutdownError, or nil
// when the shutdown was clean; a Process with no child running (it failed,
// and none was restarted) shuts down cleanly.
func (p *Process) Shutdown(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	s := p.sess
	p.sess = nil
	var err error
	if s != nil {
		err = p.shutdown(ctx, s)
		s.kill() // finds what escaped the group too
	}
	if len(p.escapes) == 0 {
		return err
	}
	shown := p.escapes
	if len(shown) > 10 {
		shown = append(shown[:10:10], fmt.Sprintf("and %d more", len(p.escapes)-10))
	}
	what := fmt.Sprintf("the implementation left %d %s running outside its process group, which conform ended: %s",
		len(p.escapes), pluralS(len(p.escapes), "process", "processes"), strings.Join(shown, ", "))
	var se *ShutdownError
	if errors.As(err, &se) {
		se.Detail += "; and " + what
		return se
	}
	return &ShutdownError{Problem: ShutdownEscaped, Detail: what}
}

func pluralS(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// shutdown is Shutdown's check of the lifecycle's end on s.
func (p *Process) shutdown(ctx context.Context, s *session) error {
	fail := func(problem ShutdownProblem, format string, args ...any) error {
		return &ShutdownError{Problem: problem, Detail: fmt.Sprintf(format, args...), StderrTail: s.stderr.tail()}
	}
	line, id, err := p.request(protocol.MethodShutdown, nil)
	if err != nil {
		return err
	}
	out, err := s.exchange(ctx, protocol.MethodShutdown, line, p.cfg.CallTimeout, id, false, &p.ledger)
	var f *Failure
	switch {
	case errors.As(err, &f) && f.Outcome == Timeout:
		return fail(ShutdownTimeout, "%s", f.Detail)
	case errors.As(err, &f) && f.Outcome == Crash:
		return fail(ShutdownCrash, "%s", f.Detail)
	case err != nil:
		return fail(ShutdownGarbage, "%v", err)
	}
	if _, err := decodeAnswer(protocol.MethodShutdown, out, id); err != nil {
		return fail(ShutdownGarbage, "the answer to shutdown is not a result: %v", err)
	}
	s.stdin.Close()
	// The exit gets the request timeout, measured in awake time (D-44): an
	// interpreter's teardown on a loaded runner takes seconds, and a fixed
	// two seconds failed it on one run and passed it on the next.
	exitLimit, stopExit := afterAwake(p.cfg.CallTimeout)
	defer stopExit()
	select {
	case <-s.exited:
	case <-exitLimit:
		return fail(ShutdownTimeout, "it did not exit within %v of stdin closing after shutdown", p.cfg.CallTimeout)
	}
	// Whatever it wrote before it exited is read to the end of its stdout,
	// which comes with the exit unless something it left running holds the
	// pipe: a line after the answer is a second answer or stray output.
	// Waiting for the end, not for a fixed time, finds the line however
	// slowly the harness's reader runs. A line that carries the id of an
	// earlier request is a second answer to that request, charged to it,
	// not to the lifecycle's end (D-50).
	drained, stopDrain := afterAwake(time.Second)
	defer stopDrain()
	for more := true; more; {
		select {
		case l, ok := <-s.lines:
			switch {
			case !ok:
				more = false
			case l.err != nil:
				return fail(ShutdownGarbage, "after the answer to shutdown: %v", l.err)
			default:
				if _, earlier := earlierID(l.line, id); !earlier {
					return fail(ShutdownGarbage, "a line after the answer to shutdown: %s", abbreviate(l.line))
				}
				p.ledger.record(l.line, id, id, "after the answer to shutdown")
			}
		case <-drained:
			more = false
		}
	}
	if st := s.cmd.ProcessState; st == nil || !st.Success() {
		if st != nil && st.ExitCode() >= 0 {
			return fail(ShutdownNonZeroExit, "after shutdown %s", s.exitStatus())
		}
		return fail(ShutdownCrash, "after shutdown %s", s.exitStatus())
	}
	return nil
}

// Report is the error with the last lines of stderr, for a report.
func (e *ShutdownError) Report() string {
	if e.StderrTail == "" {
		return e.Error()
	}
	return fmt.Sprintf("%s\nlast lines of stderr:\n%s", e.Error(), indent(e.StderrTail))
}
