package target

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/paramsjson"
	"github.com/convspec/convspec/internal/textsafe"
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
	DefaultStartTimeout = 30 * time.Second
	DefaultCallTimeout  = 10 * time.Second
	DefaultMaxRestarts  = 10
	DefaultMaxLineBytes = protocol.MaxLineBytes
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
	// ledger holds the stray lines seen, each charged to its request.
	ledger strayLedger
	// escapes are the descendants found outside the process group when a
	// child was ended, and killed (D-52): Shutdown fails on any.
	escapes []string
}

// errClosed is returned by calls on a closed Process.
var errClosed = errors.New("the process target is closed")

// closeWait bounds how long Close waits for the shutdown answer and then
// for the implementation to exit by itself before it is killed. Nothing is
// judged by it (the lifecycle/shutdown case judges the exit, with the
// request timeout): it only keeps the end of a run short.
const closeWait = 2 * time.Second

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
	rawParams, err := paramsjson.Marshal(params) // json.Marshal's bytes (D-92)
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
	// A raw line carries its own id; it gets one of the sequence too, so
	// that a second answer after it is charged to it, and to its case.
	p.nextID++
	out, err := s.exchange(ctx, method, append(append([]byte(nil), line...), '\n'), p.cfg.CallTimeout, p.nextID, true, &p.ledger)
	if err != nil {
		return nil, p.end(s, err)
	}
	return bytes.TrimRight(out.line, "\r\n"), nil
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
	if line, id, err := p.request(protocol.MethodShutdown, nil); err == nil {
		_, _ = s.exchange(context.Background(), protocol.MethodShutdown, line, min(p.cfg.CallTimeout, closeWait), id, false, &p.ledger)
	}
	s.stdin.Close()
	select {
	case <-s.exited:
	case <-time.After(closeWait):
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
	if err := SameHandshake(p.info, info, "after a restart"); err != nil {
		return nil, p.end(p.sess, err)
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
	s.escapes = &p.escapes
	p.sess = s
	params, _ := json.Marshal(protocol.InitializeParams{Protocol: protocol.Version, Suite: "convspec"})
	raw, err := p.roundTrip(ctx, s, protocol.MethodInitialize, params, p.cfg.StartTimeout)
	if p.sess != s {
		return Info{}, err // roundTrip ended the session
	}
	var info Info
	if err == nil {
		info, err = DecodeHandshake(raw)
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
	// The params are already encoded, by json.Marshal (compact, with HTML
	// escaped, as Call and the handshake encode them): the line is written
	// around them, as json.Marshal of a protocol.Request would write it,
	// without encoding them a second time.
	name, err := json.Marshal(method)
	if err != nil {
		return nil, 0, fmt.Errorf("encoding request %s: %w", method, err)
	}
	line := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"method":,"params":}`)+20+len(name)+len(params)+1)
	line = append(line, `{"jsonrpc":"2.0","id":`...)
	line = strconv.AppendInt(line, id, 10)
	line = append(line, `,"method":`...)
	line = append(line, name...)
	if len(params) > 0 {
		line = append(line, `,"params":`...)
		line = append(line, params...)
	}
	return append(line, '}', '\n'), id, nil
}

// roundTrip sends one request on s and decodes its response. Unless the
// answer is a result or a *protocol.Error, s is out of step and is ended.
// Called with p.mu held.
func (p *Process) roundTrip(ctx context.Context, s *session, method string, params json.RawMessage, timeout time.Duration) (json.RawMessage, error) {
	line, id, err := p.request(method, params)
	if err != nil {
		return nil, err
	}
	out, err := s.exchange(ctx, method, line, timeout, id, false, &p.ledger)
	if err != nil {
		return nil, p.end(s, err)
	}
	res, err := decodeAnswer(method, out, id)
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

func decodeResponse(method string, line []byte, id int64) (json.RawMessage, error) {
	return decodeAnswer(method, readAnswer(line), id)
}

// decodeAnswer is decodeResponse of a line read once (readAnswer), by the
// wait for the answer that read its id.
func decodeAnswer(method string, a answer, id int64) (json.RawMessage, error) {
	fail := func(format string, args ...any) error {
		return &Failure{Outcome: ProtocolError, Method: method, Detail: fmt.Sprintf(format, args...)}
	}
	// The line is checked once and decoded once, into its members by
	// name: their names are checked exactly (D-40) and each member is then
	// read alone. The members are slices of the line, not copies
	// (jsonscan): a line may be 64 MiB, and a copy of it per worker is
	// what bounds conform's memory (D-52).
	if !a.read {
		a = readAnswer(a.line)
	}
	line := a.line
	if !a.valid {
		var v any
		err := json.Unmarshal(line, &v)
		return nil, fail("stdout line is not a JSON-RPC response (%v): %s", err, abbreviate(line))
	}
	if !a.object {
		return nil, fail("stdout line is not a JSON-RPC response (want an object, got %s): %s", jsonscan.JSONKind(line), abbreviate(line))
	}
	members := make(map[string]json.RawMessage, len(a.members))
	for _, m := range a.members {
		members[string(m.Name)] = m.Value // of a name written twice, the last, as encoding/json keeps it
	}
	if err := inexactMember(members); err != nil {
		return nil, fail("%v: %s", err, abbreviate(line))
	}
	var version string
	if json.Unmarshal(members["jsonrpc"], &version) != nil || version != "2.0" {
		return nil, fail(`response lacks "jsonrpc": "2.0": %s`, abbreviate(line))
	}
	if got := string(bytes.TrimSpace(members["id"])); got != strconv.FormatInt(id, 10) {
		return nil, fail("response has id %s, the request had id %d", orNothing(got), id)
	}
	result := members["result"]
	var rpcErr *protocol.Error
	if raw, ok := members["error"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(clipStrings(raw, MaxErrorTextBytes), &rpcErr); err != nil || rpcErr == nil {
			return nil, fail(`"error" is not a JSON-RPC error object (code, message, data): %s`, abbreviate(line))
		}
	}
	switch {
	case rpcErr != nil && result != nil:
		return nil, fail("response has both result and error: %s", abbreviate(line))
	case rpcErr != nil:
		if !rpcErr.KnownKind() {
			return nil, fail("error response has no known kind (data.kind or code): %s", abbreviate(line))
		}
		tameError(rpcErr)
		return nil, rpcErr
	case result == nil:
		return nil, fail("response has neither result nor error: %s", abbreviate(line))
	}
	return result, nil
}

// MaxErrorTextBytes bounds each text of an error response the harness
// keeps — its message, data.model, data.path (spec/protocol.md, "Limits";
// D-52): a longer one is clipped where it is decoded, with its size said,
// so that what the harness holds is bounded by the cap, not by what the
// implementation sends.
const MaxErrorTextBytes = 4 << 10

// clipStrings copies raw, a valid JSON text, with every string longer than
// limit bytes as written cut to fewer than limit and saying the size it
// had, so that an error object of 64 MiB is decoded into a few KiB: the
// texts are clipped before they are ever held whole (D-52). A cut falls
// between escapes and between the bytes of one character.
func clipStrings(raw []byte, limit int) []byte {
	if len(raw) <= limit {
		return raw
	}
	out := make([]byte, 0, min(len(raw), 4*limit))
	for i := 0; i < len(raw); {
		if raw[i] != '"' {
			out = append(out, raw[i])
			i++
			continue
		}
		end := i + 1 // the closing quote
		for end < len(raw) && raw[end] != '"' {
			if raw[end] == '\\' {
				end++
			}
			end++
		}
		body := raw[i+1 : min(end, len(raw))]
		if len(body) <= limit {
			out = append(out, raw[i:min(end+1, len(raw))]...)
			i = end + 1
			continue
		}
		out = appendClipped(out, body, len(body), limit)
		i = end + 1
	}
	return out
}

// clipRoom is how much of a clipped string's body is kept: the rest of
// the limit is room for the note.
func clipRoom(limit int) int { return limit - 128 }

// appendClipped appends, as a JSON string, the first bytes of body that
// fit clipRoom(limit), whole escapes and whole characters, and a note
// saying that the body had n bytes. body holds at least clipRoom(limit)+6
// bytes of it, or all of it.
func appendClipped(out, body []byte, n, limit int) []byte {
	keep := clipKeep(body, clipRoom(limit))
	out = append(out, '"')
	out = append(out, body[:keep]...)
	return fmt.Appendf(out, "… (clipped: %d bytes in all, the first %d shown)\"", n, keep)
}

// clipKeep is how many bytes of body a clipped string keeps: whole escapes
// and whole characters, at most room.
func clipKeep(body []byte, room int) int {
	keep := 0
	for keep < len(body) {
		step := 1
		switch {
		case body[keep] == '\\' && keep+1 < len(body) && body[keep+1] == 'u':
			step = 6
		case body[keep] == '\\':
			step = 2
		case body[keep] >= 0x80:
			_, step = utf8.DecodeRune(body[keep:])
		}
		if keep+step > room {
			break
		}
		keep += step
	}
	return keep
}

// tameError clips the texts of an error response and writes the control
// characters of its message as visible escapes: the message is shown to
// people, on one line, in every report (D-52).
func tameError(e *protocol.Error) {
	e.Message = textsafe.Controls(textsafe.Clip(e.Message, MaxErrorTextBytes), false)
	if e.Data != nil {
		e.Data.Model = textsafe.Clip(e.Data.Model, MaxErrorTextBytes)
		if e.Data.Path != nil {
			p := textsafe.Clip(*e.Data.Path, MaxErrorTextBytes)
			e.Data.Path = &p
		}
	}
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
		expired, stop := afterAwake(time.Second)
		defer stop()
		select {
		case <-ch:
		case <-expired:
		}
		close(done)
	}()
	return done
}
