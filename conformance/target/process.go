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
	// MaxRestarts bounds how often a dead implementation is restarted.
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
	cfg ProcessConfig

	mu       sync.Mutex
	sess     *session
	info     Info
	restarts int
	nextID   int64
}

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
	if cfg.MaxRestarts <= 0 {
		cfg.MaxRestarts = DefaultMaxRestarts
	}
	if cfg.MaxLineBytes <= 0 {
		cfg.MaxLineBytes = DefaultMaxLineBytes
	}
	p := &Process{cfg: cfg}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.start(ctx); err != nil {
		return nil, err
	}
	return p, nil
}

// Info implements Target.
func (p *Process) Info() Info { return p.info }

// Restarts is how often the implementation was restarted.
func (p *Process) Restarts() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.restarts
}

// Call implements Target.
func (p *Process) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sess == nil {
		if p.restarts >= p.cfg.MaxRestarts {
			return nil, &Failure{Outcome: Crash, Method: method,
				Detail: fmt.Sprintf("%v: the implementation died %d times", ErrRestartLimit, p.restarts)}
		}
		p.restarts++
		if err := p.start(ctx); err != nil {
			return nil, err
		}
	}
	res, err := p.call(ctx, method, params, p.cfg.CallTimeout)
	var f *Failure
	if errors.As(err, &f) {
		p.sess.kill()
		p.sess = nil
	}
	return res, err
}

// Close asks the implementation to shut down, then makes sure that nothing
// of its process group is left running.
func (p *Process) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sess == nil {
		return nil
	}
	s := p.sess
	p.sess = nil
	_, _ = p.callOn(context.Background(), s, protocol.MethodShutdown, nil, 2*time.Second)
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(2 * time.Second):
	}
	s.kill()
	return nil
}

func (p *Process) start(ctx context.Context) error {
	s, err := startSession(p.cfg)
	if err != nil {
		return err
	}
	p.sess = s
	raw, err := p.call(ctx, protocol.MethodInitialize, protocol.InitializeParams{Protocol: protocol.Version, Suite: "convspec"}, p.cfg.StartTimeout)
	if err == nil {
		var info Info
		info, err = decodeHandshake(raw)
		if err == nil {
			if p.info.Name == "" {
				p.info = info
			}
			return nil
		}
	}
	s.kill()
	p.sess = nil
	var f *Failure
	if !errors.As(err, &f) {
		// An error response to initialize is a failed handshake too.
		err = &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize, Detail: "handshake refused: " + err.Error(), StderrTail: s.stderr.tail()}
	}
	return err
}

func (p *Process) call(ctx context.Context, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	return p.callOn(ctx, p.sess, method, params, timeout)
}

func (p *Process) callOn(ctx context.Context, s *session, method string, params any, timeout time.Duration) (json.RawMessage, error) {
	p.nextID++
	id := p.nextID
	rawParams, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding params of %s: %w", method, err)
	}
	line, err := json.Marshal(protocol.Request{JSONRPC: "2.0", ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: method, Params: rawParams})
	if err != nil {
		return nil, fmt.Errorf("encoding request %s: %w", method, err)
	}
	line = append(line, '\n')

	fail := func(o Outcome, format string, args ...any) error {
		return &Failure{Outcome: o, Method: method, Detail: fmt.Sprintf(format, args...), StderrTail: s.stderr.tail()}
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()

	written := make(chan error, 1)
	go func() { _, err := s.stdin.Write(line); written <- err }()
	for written != nil {
		select {
		case err := <-written:
			if err != nil {
				<-waitBriefly(s.exited)
				return nil, fail(Crash, "could not send the request (%v); %s", err, s.exitStatus())
			}
			written = nil
		case <-s.exited:
			return nil, fail(Crash, "the implementation exited before reading the request; %s", s.exitStatus())
		case <-timer.C:
			return nil, fail(Timeout, "the request was not read within %v", timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
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
		return decodeResponse(out.line, id, fail)
	case <-timer.C:
		return nil, fail(Timeout, "no response within %v", timeout)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func decodeResponse(line []byte, id int64, fail func(Outcome, string, ...any) error) (json.RawMessage, error) {
	var resp protocol.Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return nil, fail(ProtocolError, "stdout line is not a JSON-RPC response (%v): %s", err, abbreviate(line))
	}
	if resp.JSONRPC != "2.0" {
		return nil, fail(ProtocolError, `response lacks "jsonrpc": "2.0": %s`, abbreviate(line))
	}
	if got := string(bytes.TrimSpace(resp.ID)); got != strconv.FormatInt(id, 10) {
		return nil, fail(ProtocolError, "response has id %s, the request had id %d", orNothing(got), id)
	}
	switch {
	case resp.Error != nil && resp.Result != nil:
		return nil, fail(ProtocolError, "response has both result and error: %s", abbreviate(line))
	case resp.Error != nil:
		if resp.Error.Kind() == "" {
			return nil, fail(ProtocolError, "error response has no known kind (data.kind or code): %s", abbreviate(line))
		}
		return nil, resp.Error
	case resp.Result == nil:
		return nil, fail(ProtocolError, "response has neither result nor error: %s", abbreviate(line))
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
	dead    chan struct{} // closed by kill
	once    sync.Once
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

	stdinR, stdinW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdinR, stdoutW, stderrW
	s := &session{cmd: cmd, stdin: stdinW, stdout: stdoutR, lines: make(chan lineResult, 1), exited: make(chan struct{}), dead: make(chan struct{}), stderr: &tailBuffer{}}
	if err := cmd.Start(); err != nil {
		for _, f := range []*os.File{stdinR, stdinW, stdoutR, stdoutW, stderrR, stderrW} {
			f.Close()
		}
		return nil, &Failure{Outcome: Crash, Method: protocol.MethodInitialize, Detail: fmt.Sprintf("cannot start %q: %v", cfg.Command[0], err)}
	}
	// The child holds its own copies now.
	stdinR.Close()
	stdoutW.Close()
	stderrW.Close()

	go func() {
		var w io.Writer = s.stderr
		if cfg.Stderr != nil {
			w = io.MultiWriter(s.stderr, cfg.Stderr)
		}
		io.Copy(w, stderrR)
		stderrR.Close()
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
			line = append(line, chunk...)
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

// deliver hands a line to the caller unless the session was killed.
func (s *session) deliver(l lineResult) bool {
	select {
	case s.lines <- l:
		return true
	case <-s.dead:
		return false
	}
}

func (s *session) exitStatus() string {
	select {
	case <-s.exited:
		if s.waitErr == nil {
			return "it exited with status 0"
		}
		return "it " + s.waitErr.Error()
	default:
		return "it is still running"
	}
}

// kill ends the whole process group and releases the pipes.
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
		// Unblock the reader even if an escaped grandchild holds stdout.
		s.stdout.Close()
	})
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
