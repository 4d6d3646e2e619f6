package target

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
)

// ProcessConfig says how to run and supervise an external implementation.
type ProcessConfig struct {
	// Command is the program and its arguments.
	Command []string
	// Dir is the working directory; empty means the current one.
	Dir string
	// Env is added to the harness's environment.
	Env []string
	// StartTimeout bounds the start-up and handshake.
	StartTimeout time.Duration
	// CallTimeout bounds each request.
	CallTimeout time.Duration
	// MaxRestarts bounds how often a dead implementation is restarted over
	// the whole session; zero means DefaultMaxRestarts and a negative value
	// means never.
	MaxRestarts int
	// MaxLineBytes bounds one line of output; a longer one is a protocol error.
	MaxLineBytes int
	// Stderr, when set, also receives everything the implementation writes to stderr.
	Stderr io.Writer
}

// Defaults for ProcessConfig's zero fields.
const (
	DefaultStartTimeout = 10 * time.Second
	DefaultCallTimeout  = 10 * time.Second
	DefaultMaxRestarts  = 10
	DefaultMaxLineBytes = 64 << 20
	stderrTailBytes     = 8 << 10
	stderrTailLines     = 20
)

// ErrRestartLimit is wrapped by the failure returned once the implementation
// has died more often than MaxRestarts allows.
var ErrRestartLimit = errors.New("restart limit reached")

// Process is a Target backed by a supervised child process. A child that
// dies, hangs or breaks the protocol is killed with its whole process group;
// the next call starts a new one and replays the handshake.
type Process struct {
	cfg  ProcessConfig
	info Info // set once, by StartProcess

	mu       sync.Mutex
	sess     *session
	restarts int
	// failed says that the last child ended in a Failure, so starting the
	// next one is a restart that counts against MaxRestarts. A child the
	// harness ended (a cancelled call) is not a failed one.
	failed bool
	closed bool
	nextID int64
}

// errClosed is returned by calls on a closed Process.
var errClosed = errors.New("the process target is closed")

// closeGrace bounds how long Close waits for the shutdown answer and then
// for the implementation to exit by itself.
const closeGrace = 2 * time.Second

// StartProcess starts the implementation and performs the handshake.
func StartProcess(ctx context.Context, cfg ProcessConfig) (*Process, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("no command to run")
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = DefaultStartTimeout
	}
	if cfg.CallTimeout <= 0 {
		cfg.CallTimeout = DefaultCallTimeout
	}
	switch {
	case cfg.MaxRestarts == 0:
		cfg.MaxRestarts = DefaultMaxRestarts
	case cfg.MaxRestarts < 0:
		cfg.MaxRestarts = 0
	}
	if cfg.MaxLineBytes <= 0 {
		cfg.MaxLineBytes = DefaultMaxLineBytes
	}
	p := &Process{cfg: cfg}
	p.mu.Lock()
	defer p.mu.Unlock()
	info, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	p.info = info
	return p, nil
}

// Info implements Target.
func (p *Process) Info() Info { return p.info }

// Restarts is how often the implementation was restarted after a failure.
func (p *Process) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Call implements Target.
func (p *Process) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	rawParams, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding params of %s: %w", method, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.session(ctx, method)
	if err != nil {
		return nil, err
	}
	return p.roundTrip(ctx, s, method, rawParams, p.cfg.CallTimeout)
}

// SendLine implements LineSender: it writes a raw line and returns the
// response line (without its newline), whatever its id.
func (p *Process) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	const method = "(raw line)"
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := p.session(ctx, method)
	if err != nil {
		return nil, err
	}
	out, err := s.exchange(ctx, method, append(append([]byte(nil), line...), '\n'), p.cfg.CallTimeout)
	if err != nil {
		return nil, p.end(s, err)
	}
	return bytes.TrimRight(out, "\r\n"), nil
}

// Close asks the implementation to shut down, then makes sure that nothing
// of its process group is left running. A closed Process starts no child
// again.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	if p.sess == nil {
		return nil
	}
	s := p.sess
	p.sess = nil
	if line, _, err := p.request(protocol.MethodShutdown, nil); err == nil {
		_, _ = s.exchange(context.Background(), protocol.MethodShutdown, line, min(p.cfg.CallTimeout, closeGrace))
	}
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(closeGrace):
	}
	s.kill()
	return nil
}

// session returns the running child, starting one if need be. Called with
// p.mu held.
func (p *Process) session(ctx context.Context, method string) (*session, error) {
	if p.closed {
		return nil, errClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.sess != nil {
		return p.sess, nil
	}
	if p.failed {
		if p.restarts >= p.cfg.MaxRestarts {
			return nil, &Failure{Outcome: Crash, Method: method, Err: ErrRestartLimit,
				Detail: fmt.Sprintf("%v: the implementation failed %d times (it was restarted %d times)", ErrRestartLimit, p.restarts+1, p.restarts)}
		}
		p.restarts++
	}
	info, err := p.start(ctx)
	if err != nil {
		return nil, err
	}
	if !sameHandshake(info, p.info) {
		return nil, p.end(p.sess, &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize,
			Detail: fmt.Sprintf("the handshake after a restart differs from the first: %s", describeHandshakeChange(p.info, info))})
	}
	return p.sess, nil
}

// start starts a child and performs the handshake. Called with p.mu held.
func (p *Process) start(ctx context.Context) (Info, error) {
	s, err := startSession(p.cfg)
	if err != nil {
		p.failed = true
		return Info{}, err
	}
	p.sess = s
	params, _ := json.Marshal(protocol.InitializeParams{Protocol: protocol.Version, Suite: "convspec"})
	raw, err := p.roundTrip(ctx, s, protocol.MethodInitialize, params, p.cfg.StartTimeout)
	if p.sess != s {
		return Info{}, err // roundTrip ended the session
	}
	var info Info
	if err == nil {
		info, err = decodeHandshake(raw)
	} else {
		// An error response to initialize is a failed handshake too.
		err = &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize, Detail: "handshake refused: " + err.Error()}
	}
	if err != nil {
		return Info{}, p.end(s, err)
	}
	return info, nil
}

// request encodes a request line with a fresh id. Called with p.mu held.
func (p *Process) request(method string, params json.RawMessage) ([]byte, int64, error) {
	p.nextID++
	id := p.nextID
	line, err := json.Marshal(protocol.Request{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: method, Params: params})
	if err != nil {
		return nil, 0, fmt.Errorf("encoding request %s: %w", method, err)
	}
	return append(line, '\n'), id, nil
}

// roundTrip sends one request on s and decodes its response. Unless the
// answer is a result or a *protocol.Error, s is out of step and is ended.
// Called with p.mu held.
func (p *Process) roundTrip(ctx context.Context, s *session, method string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	line, id, err := p.request(method, params)
	if err != nil {
		return nil, err
	}
	out, err := s.exchange(ctx, method, line, timeout)
	if err != nil {
		return nil, p.end(s, err)
	}
	res, err := decodeResponse(method, out, id)
	var f *Failure
	if errors.As(err, &f) {
		return nil, p.end(s, err)
	}
	return res, err
}

// end kills s after a failure or an abandoned request and completes a
// failure with the last lines of stderr. Called with p.mu held.
func (p *Process) end(s *session, err error) error {
	s.kill()
	var f *Failure
	failed := errors.As(err, &f)
	if p.sess == s {
		p.sess = nil
		p.failed = failed
	}
	if failed && f.StderrTail == "" {
		f.StderrTail = s.stderr.tail()
	}
	return err
}

// exchange writes line and waits for the next output line, within timeout.
// An error is a *Failure (without the stderr tail) or the context's error;
// either way s is out of step.
func (s *session) exchange(ctx context.Context, method string, line []byte, timeout time.Duration) ([]byte, error) {
	fail := func(o Outcome, format string, args ...any) error {
		return &Failure{Outcome: o, Method: method, Detail: fmt.Sprintf(format, args...)}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	// The write may block on a full pipe when the child does not read; the
	// goroutine ends once kill closes stdin.
	// A line waiting before the request is sent answers no request: a
	// second answer to the last one, or output of its own.
	select {
	case out, ok := <-s.lines:
		if ok {
			what := abbreviate(out.line)
			if out.err != nil {
				what = out.err.Error()
			}
			return nil, &Failure{Outcome: ProtocolError, Method: s.lastMethod,
				Detail: fmt.Sprintf("a line arrived after the answer to %s, before %s was sent (a second answer?): %s", s.lastMethod, method, what)}
		}
	default:
	}
	s.lastMethod = method

	written := make(chan error, 1)
	go func() { _, err := s.stdin.Write(line); written <- err }()
	select {
	case err := <-written:
		if err != nil {
			<-waitBriefly(s.exited)
			return nil, fail(Crash, "could not send the request (%v); %s", err, s.exitStatus())
		}
	case <-timer.C:
		return nil, fail(Timeout, "the request was not read within %v", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case out, ok := <-s.lines:
		if !ok {
			<-waitBriefly(s.exited)
			return nil, fail(Crash, "stdout closed without a response; %s", s.exitStatus())
		}
		if out.err != nil {
			return nil, fail(ProtocolError, "%v", out.err)
		}
		return out.line, nil
	case <-s.exited:
		// The child's death is a crash whoever still holds the pipe (a
		// daemon it left behind): take a line it wrote before dying, if
		// one comes at once, and report the crash otherwise.
		select {
		case out, ok := <-s.lines:
			if ok && out.err == nil {
				return out.line, nil
			}
		case <-time.After(exitedLineGrace):
		}
		return nil, fail(Crash, "it exited without a response; %s", s.exitStatus())
	case <-timer.C:
		return nil, fail(Timeout, "no response within %v", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func decodeResponse(method string, line []byte, id int64) (json.RawMessage, error) {
	fail := func(format string, args ...any) error {
		return &Failure{Outcome: ProtocolError, Method: method, Detail: fmt.Sprintf(format, args...)}
	}
	var resp protocol.Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fail("stdout line is not a JSON-RPC response (%v): %s", err, abbreviate(line))
	}
	if err := inexactMember(line); err != nil {
		return nil, fail("%v: %s", err, abbreviate(line))
	}
	if resp.JSONRPC != "2.0" {
		return nil, fail(`response lacks "jsonrpc": "2.0": %s`, abbreviate(line))
	}
	if got := string(bytes.TrimSpace(resp.ID)); got != strconv.FormatInt(id, 10) {
		return nil, fail("response has id %s, the request had id %d", orNothing(got), id)
	}
	switch {
	case resp.Error != nil && resp.Result != nil:
		return nil, fail("response has both result and error: %s", abbreviate(line))
	case resp.Error != nil:
		if resp.Error.Kind() == "" {
			return nil, fail("error response has no known kind (data.kind or code): %s", abbreviate(line))
		}
		return nil, resp.Error
	case resp.Result == nil:
		return nil, fail("response has neither result nor error: %s", abbreviate(line))
	}
	return resp.Result, nil
}

func orNothing(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func abbreviate(b []byte) string {
	const limit = 300
	if len(b) > limit {
		return fmt.Sprintf("%q… (%d bytes)", b[:limit], len(b))
	}
	return fmt.Sprintf("%q", b)
}

func waitBriefly(ch <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
		case <-time.After(time.Second):
		}
		close(done)
	}()
	return done
}

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
	// lastMethod is the method of the last request sent, which a stray
	// line is blamed on.
	lastMethod string
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
		close(s.exited)
	}()
	return s, nil
}

// readLines delivers stdout lines, never holding more than max bytes.
func (s *session) readLines(max int) {
	defer close(s.lines)
	r := bufio.NewReaderSize(s.stdout, 64<<10)
	for {
		var line []byte
		for {
			chunk, err := r.ReadSlice('\n')
			if len(line)+len(chunk) > max {
				s.deliver(lineResult{err: fmt.Errorf("output line longer than %d bytes (an output flood?)", max)})
				return
			}
			line = appendBounded(line, chunk, max)
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
		if s.cmd.Process != nil {
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		}
		s.stdin.Close()
		select {
		case <-s.exited:
		case <-time.After(5 * time.Second):
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
