package target

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
)

// One run of the supervised child process: starting it, exchanging lines
// with it, reading its output within bounds, and killing it.

// session is one run of the child process.
type session struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	stdout  *os.File
	lines   chan lineResult
	exited  chan struct{}
	waitErr error
	stderr  *tailBuffer
	// stderrR is the read end of stderr; stderrDone is closed once
	// everything written to it has been copied.
	stderrR    *os.File
	stderrDone chan struct{}
	dead       chan struct{} // closed by kill
	// escapes collects the descendants found outside the process group
	// when the child is ended (the Process's list; D-52).
	escapes *[]string
	// lastMethod and lastID are the method and id of the last request
	// sent (id 0: a raw line), which a stray line that carries no earlier
	// id is charged to.
	lastMethod string
	lastID     int64
	once       sync.Once
}

type lineResult struct {
	line []byte
	err  error
}

func startSession(cfg ProcessConfig) (*session, error) {
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	// Its own process group, so that a timeout kills a wrapper script and
	// everything it started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}

	var files []*os.File // all six ends, for closing on failure
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	stdinR, stdinW, err := pipe()
	if err != nil {
		return nil, &Failure{Outcome: Crash, Method: protocol.MethodInitialize, Detail: fmt.Sprintf("cannot start %q: %v", cfg.Command[0], err)}
	}
	stdoutR, stdoutW, err := pipe()
	if err != nil {
		closeAll()
		return nil, &Failure{Outcome: Crash, Method: protocol.MethodInitialize, Detail: fmt.Sprintf("cannot start %q: %v", cfg.Command[0], err)}
	}
	stderrR, stderrW, err := pipe()
	if err != nil {
		closeAll()
		return nil, &Failure{Outcome: Crash, Method: protocol.MethodInitialize, Detail: fmt.Sprintf("cannot start %q: %v", cfg.Command[0], err)}
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	s := &session{cmd: cmd, stdin: stdinW, stdout: stdoutR, lines: make(chan lineResult, 1), exited: make(chan struct{}),
		dead: make(chan struct{}), stderr: &tailBuffer{}, stderrR: stderrR, stderrDone: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, &Failure{Outcome: Crash, Method: protocol.MethodInitialize, Detail: fmt.Sprintf("cannot start %q: %v", cfg.Command[0], err)}
	}
	trackChild(cmd.Process.Pid)
	// The child holds its own copies now.
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()

	go func() {
		defer close(s.stderrDone)
		var w io.Writer = s.stderr
		if cfg.Stderr != nil {
			// A failing cfg.Stderr must not stop the copy: the child
			// would block on a full stderr pipe.
			w = io.MultiWriter(s.stderr, ignoreErrors{cfg.Stderr})
		}
		io.Copy(w, stderrR)
	}()
	go s.readLines(cfg.MaxLineBytes)
	go func() {
		s.waitErr = cmd.Wait()
		untrackChild(cmd.Process.Pid)
		close(s.exited)
	}()
	return s, nil
}

// readLines delivers stdout lines, never holding more than max bytes, and
// the strings of an error response clipped as they are read (errorClipper).
func (s *session) readLines(max int) {
	defer close(s.lines)
	r := bufio.NewReaderSize(s.stdout, 64<<10)
	clip := newErrorClipper(MaxErrorTextBytes)
	var scratch []byte
	for {
		var line []byte
		read := 0 // bytes of the line as written
		clip.reset()
		for {
			chunk, err := r.ReadSlice('\n')
			if read += len(chunk); read > max {
				s.deliver(lineResult{err: fmt.Errorf("output line longer than %d bytes (an output flood?)", max)})
				return
			}
			scratch = clip.piece(scratch[:0], chunk, read == len(chunk), !errors.Is(err, bufio.ErrBufferFull))
			line = appendBounded(line, scratch, max)
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil {
				if len(bytes.TrimSpace(line)) > 0 {
					s.deliver(lineResult{err: fmt.Errorf("output ended in the middle of a line: %s", abbreviate(line))})
				}
				return
			}
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !s.deliver(lineResult{line: line}) {
			return
		}
	}
}

// appendBounded appends chunk to line, growing it by doubling but never
// beyond limit bytes: a line that floods towards the limit costs at most
// the limit and half of it again while it is copied, not the 1.25× steps
// (and their garbage) of append.
func appendBounded(line, chunk []byte, limit int) []byte {
	if need := len(line) + len(chunk); need > cap(line) {
		grown := make([]byte, len(line), min(max(2*cap(line), need), limit))
		copy(grown, line)
		line = grown
	}
	return append(line, chunk...)
}

// deliver hands a line to the caller unless the session was killed.
func (s *session) deliver(l lineResult) bool {
	select {
	case s.lines <- l:
		return true
	case <-s.dead:
		return false
	}
}

// exitStatus says how the child ended, as far as is known yet.
func (s *session) exitStatus() string {
	select {
	case <-s.exited:
	default:
		return "it is still running"
	}
	st := s.cmd.ProcessState
	if st == nil {
		return fmt.Sprintf("it could not be waited for: %v", s.waitErr)
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("it was killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("it ended with exit status %d", st.ExitCode())
}

// kill ends the whole process group and releases the pipes. Once it has
// returned, stderr has been read to its end (unless something that escaped
// the process group still holds it).
func (s *session) kill() {
	s.once.Do(func() {
		close(s.dead)
		var escaped []string
		if s.cmd.Process != nil {
			// Those that left the group first, while the child still
			// holds them in its tree; then the group.
			escaped = killEscaped(s.cmd.Process.Pid, s.cmd.Process.Pid)
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		}
		s.stdin.Close()
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
		}
		if s.cmd.Process != nil {
			escaped = append(escaped, sweepOrphans(s.cmd.Process.Pid)...)
		}
		if s.escapes != nil {
			*s.escapes = append(*s.escapes, escaped...)
		}
		// The last words on stderr come in after the exit.
		select {
		case <-s.stderrDone:
		case <-time.After(time.Second):
		}
		// Unblock the readers even if an escaped grandchild holds the pipes.
		s.stdout.Close()
		s.stderrR.Close()
	})
}

// ignoreErrors is a writer that never fails.
type ignoreErrors struct{ w io.Writer }

func (w ignoreErrors) Write(p []byte) (int, error) {
	_, _ = w.w.Write(p)
	return len(p), nil
}

// tailBuffer keeps the last bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > stderrTailBytes {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-stderrTailBytes:]...)
	}
	return len(p), nil
}

// tail is the last few lines written.
func (t *tailBuffer) tail() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := bytes.Split(bytes.TrimRight(t.buf, "\n"), []byte("\n"))
	if len(lines) > stderrTailLines {
		lines = lines[len(lines)-stderrTailLines:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}

// exchange writes line, the request of id, and waits for its answer,
// within timeout; a raw line carries an id of its own, and its answer is
// taken whatever id it has (id then only names it for the ledger). A line that comes
// before the request is sent, or that carries the id of an earlier request,
// answers no outstanding request: it is recorded in ledger, charged to the
// request it repeats or follows (D-50), and the wait goes on. An error is a
// *Failure (without the stderr tail) or the context's error; either way s
// is out of step.
func (s *session) exchange(ctx context.Context, method string, line []byte, timeout time.Duration, id int64, raw bool, ledger *strayLedger) (answer, error) {
	fail := func(o Outcome, format string, args ...any) error {
		return &Failure{Outcome: o, Method: method, Detail: fmt.Sprintf(format, args...)}
	}
	timeout = scaledTimeout(timeout, len(line))
	expired, stop := afterAwake(timeout)
	defer stop()

	// Lines waiting before the request is sent answer no request: second
	// answers to the last one, or output of its own.
	next := id
drain:
	for {
		select {
		case out, ok := <-s.lines:
			if !ok {
				break drain // the read below says how the output ended
			}
			if out.err != nil {
				return answer{}, &Failure{Outcome: ProtocolError, Method: s.lastMethod,
					Detail: fmt.Sprintf("after the answer to %s, before %s was sent: %v", s.lastMethod, method, out.err)}
			}
			ledger.record(out.line, next, s.lastID, fmt.Sprintf("after the answer to %s, before %s was sent", orUnknown(s.lastMethod), method))
		default:
			break drain
		}
	}
	s.lastMethod, s.lastID = method, id
	ledger.sent(id, method)

	if rest := writeNow(s.stdin, line); len(rest) > 0 {
		// The write may block on a full pipe when the child does not
		// read; the goroutine ends once kill closes stdin.
		written := make(chan error, 1)
		go func() { _, err := s.stdin.Write(rest); written <- err }()
		select {
		case err := <-written:
			if err != nil {
				<-waitBriefly(s.exited)
				return answer{}, fail(Crash, "could not send the request (%v); %s", err, s.exitStatus())
			}
		case <-expired:
			return answer{}, fail(Timeout, "the request was not read within %v", timeout)
		case <-ctx.Done():
			return answer{}, ctx.Err()
		}
	}
	for {
		select {
		case out, ok := <-s.lines:
			if !ok {
				<-waitBriefly(s.exited)
				return answer{}, fail(Crash, "stdout closed without a response; %s", s.exitStatus())
			}
			if out.err != nil {
				return answer{}, fail(ProtocolError, "%v", out.err)
			}
			if a, ok := s.answers(out.line, method, id, raw, ledger); ok {
				return a, nil
			}
		case <-s.exited:
			// The child's death is a crash whoever still holds the pipe (a
			// daemon it left behind): take the lines it wrote before dying,
			// if they come at once — a second answer to an earlier request
			// charged to it as above, whichever of the lines and the exit
			// is noticed first — and report the crash otherwise.
			grace, stopGrace := afterAwake(exitedLineGrace)
			defer stopGrace()
			for {
				select {
				case out, ok := <-s.lines:
					if !ok || out.err != nil {
						return answer{}, fail(Crash, "it exited without a response; %s", s.exitStatus())
					}
					if a, ok := s.answers(out.line, method, id, raw, ledger); ok {
						return a, nil
					}
				case <-grace:
					return answer{}, fail(Crash, "it exited without a response; %s", s.exitStatus())
				}
			}
		case <-expired:
			return answer{}, fail(Timeout, "no response within %v", timeout)
		case <-ctx.Done():
			return answer{}, ctx.Err()
		}
	}
}

// writeNow writes what of line the pipe w takes at once, without waiting,
// and returns the rest. A request line usually fits in the pipe, whose
// reader has read everything before it; writing it from the caller spares
// the harness a goroutine and a wake-up per request. Whatever does not
// go at once, or fails, is left to w.Write, which waits (within the
// request's limit) and says why it failed.
func writeNow(w io.Writer, line []byte) (rest []byte) {
	f, ok := w.(*os.File)
	if !ok {
		return line
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return line
	}
	n := 0
	_ = rc.Write(func(fd uintptr) bool {
		for {
			wrote, err := syscall.Write(int(fd), line[n:])
			if wrote > 0 {
				n += wrote
			}
			if errors.Is(err, syscall.EINTR) || (err == nil && wrote > 0 && n < len(line)) {
				continue
			}
			return true // done, or the pipe is full (EAGAIN), or an error
		}
	})
	return line[n:]
}

// answers reads a line that came after request id was sent: the answer to
// it, or a second answer to an earlier request, which is charged to that
// one (D-50) and is not an answer (false). A raw line's answer is taken
// unread.
func (s *session) answers(line []byte, method string, id int64, raw bool, ledger *strayLedger) (answer, bool) {
	if raw {
		return answer{line: line}, true
	}
	// Read once: for its id here, for its members by decodeAnswer.
	a := readAnswer(line)
	if _, earlier := a.earlier(id); earlier {
		ledger.record(line, id, s.lastID, "after "+method+" was sent")
		return answer{}, false
	}
	return a, true
}
