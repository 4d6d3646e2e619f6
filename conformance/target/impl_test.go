package target

// The misbehaving "implementations" that process_test.go supervises are this
// test binary itself: TestMain runs one of them instead of the tests when
// envImpl names a behaviour.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/testflags"
)

const (
	// envImpl names the behaviour the test binary plays.
	envImpl = "CONVSPEC_TEST_IMPL"
	// envMark is set to a unique value per test, so that its processes can
	// be found in /proc.
	envMark = "CONVSPEC_TEST_MARK"
	// envState is a file whose existence says "this is not the first life".
	envState = "CONVSPEC_TEST_STATE"
	// envDaemon marks the daemons a test implementation leaves behind.
	envDaemon = "CONVSPEC_TEST_DAEMON"
	// envLog is a file every request line is appended to.
	envLog = "CONVSPEC_TEST_LOG"
	// envDelay is a time.Duration for slow-start and slow.
	envDelay = "CONVSPEC_TEST_DELAY"

	// hangFor is how long a hanging behaviour hangs: far longer than any
	// test, but short enough that the children of a test binary that was
	// itself killed (by -timeout, say) do not linger.
	hangFor = time.Minute
)

func TestMain(m *testing.M) {
	if b := os.Getenv(envImpl); b != "" {
		os.Exit(runImpl(b))
	}
	testflags.WaitersInParallel()
	os.Exit(m.Run())
}

// runImpl plays behaviour b on stdin and stdout and returns the exit status.
//
//	good          the reference server
//	hang-at-start never answers initialize
//	slow-start    sleeps envDelay, then is the reference server
//	slow          handshakes, then answers each request after envDelay
//	hang          handshakes, then never answers
//	deaf          handshakes, then never reads stdin again
//	crash         handshakes, then writes "boom" to stderr and exits with 3
//	garbage       handshakes, then answers with a line that is not JSON
//	wrong-id      handshakes, then answers with another id
//	flood         handshakes, then writes output without a newline, forever
//	no-result     handshakes, then answers with neither result nor error
//	error-no-kind handshakes; window.create gets a typed invalid_config error,
//	              window.trim an error of unknown code without data.kind,
//	              window.summarize one of unknown code and data.kind,
//	              anything else a correct answer
//	rename-once, retrim-once
//	              crash in the first life, then are the reference server
//	              under another name, or declaring one trimmer fewer
//	relevel-once  crashes in the first life, then is the reference server
//	              declaring only level core and format openai
//	hang-once, crash-once
//	              hang or crash in the first life (envState does not exist),
//	              then are the reference server
func runImpl(b string) int {
	var in io.Reader = os.Stdin
	if path := os.Getenv(envLog); path != "" {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer f.Close()
		in = io.TeeReader(os.Stdin, f)
	}
	delay, _ := time.ParseDuration(os.Getenv(envDelay))
	h := server.NewHandler(server.Reference{})
	serve := func() int {
		if err := server.Serve(context.Background(), h, in, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return 0
	}
	switch b {
	case "good":
		return serve()
	case "daemon-sleep":
		time.Sleep(5 * time.Second)
		return 0
	case "rename-once", "retrim-once":
		f, err := os.OpenFile(os.Getenv(envState), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil { // not the first life: another name, or a trimmer less
			h = server.NewHandler(renamed{})
			if b == "retrim-once" {
				h = server.NewHandler(retrimmed{})
			}
			return serve()
		}
		f.Close()
		b = "crash"
	case "relevel-once":
		f, err := os.OpenFile(os.Getenv(envState), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			b = "crash"
		} else {
			b = "relevel"
		}
	case "hang-at-start":
		fmt.Fprintln(os.Stderr, "hanging at start")
		time.Sleep(hangFor)
		return 0
	case "slow-start":
		time.Sleep(delay)
		return serve()
	case "hang-once", "crash-once":
		f, err := os.OpenFile(os.Getenv(envState), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return serve() // not the first life
		}
		f.Close()
		b = strings.TrimSuffix(b, "-once")
	}

	out := bufio.NewWriter(os.Stdout)
	send := func(line string) {
		out.WriteString(line)
		out.WriteByte('\n')
		out.Flush()
	}
	respond := func(id json.RawMessage, result any, err error) {
		resp := protocol.Response{JSONRPC: "2.0", ID: id}
		if err != nil {
			var pe *protocol.Error
			if !errors.As(err, &pe) {
				pe = protocol.NewError(protocol.KindInternalError, "%v", err)
			}
			resp.Error = pe
		} else {
			resp.Result, _ = json.Marshal(result)
		}
		line, _ := json.Marshal(resp)
		send(string(line))
	}
	// answer(id)(h.Handle(...)) sends what the reference would.
	answer := func(id json.RawMessage) func(any, error) {
		return func(result any, err error) { respond(id, result, err) }
	}
	r := bufio.NewReader(in)
	var previous *protocol.Request // twice-late: the request to answer again
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req protocol.Request
		if err := json.Unmarshal(line, &req); err != nil {
			continue
		}
		if req.Method == protocol.MethodShutdown {
			switch b {
			case "shutdown-garbage":
				send("bye!")
				return 0
			case "shutdown-crash":
				return 3
			case "shutdown-exit":
				answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
				return 4
			case "shutdown-signal":
				answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			case "shutdown-twice", "twice":
				answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
			case "shutdown-stays":
				answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
				time.Sleep(hangFor)
			}
		}
		if req.Method == protocol.MethodInitialize && b == "relevel" {
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			if init, ok := res.(protocol.InitializeResult); ok {
				init.Levels, init.Formats = []string{"core"}, []string{"openai"}
				res = init
			}
			respond(req.ID, res, err)
			continue
		}
		if req.Method == protocol.MethodInitialize || req.Method == protocol.MethodShutdown {
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
			if req.Method == protocol.MethodShutdown {
				return 0
			}
			if b == "deaf" {
				time.Sleep(hangFor)
			}
			continue
		}
		switch b {
		case "slow":
			time.Sleep(delay)
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
		case "hang":
			time.Sleep(hangFor)
		case "daemon-crash":
			// leave a daemon in a session of its own holding stdout, then die
			d := exec.Command(os.Args[0])
			d.Env = append(slices.DeleteFunc(os.Environ(), func(e string) bool { return strings.HasPrefix(e, envMark+"=") }),
				envImpl+"=daemon-sleep", envDaemon+"="+os.Getenv(envMark))
			d.Stdout = os.Stdout
			d.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			if err := d.Start(); err != nil {
				fmt.Fprintln(os.Stderr, err)
			}
			return 3
		case "crash":
			for i := range 50 {
				fmt.Fprintf(os.Stderr, "working on it (%d)\n", i)
			}
			fmt.Fprintln(os.Stderr, "boom")
			return 3
		case "garbage":
			send("this is not JSON")
		case "twice":
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
		case "twice-late":
			// the second answer to a request comes once the next one is read
			if previous != nil {
				answer(previous.ID)(h.Handle(context.Background(), previous.Method, previous.Params))
			}
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
			previous = &req
		case "shutdown-garbage", "shutdown-crash", "shutdown-exit", "shutdown-signal", "shutdown-twice", "shutdown-stays":
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
		case "wrong-id":
			send(`{"jsonrpc":"2.0","id":4242,"result":{}}`)
		case "flood":
			chunk := bytes.Repeat([]byte("x"), 64<<10)
			for {
				if _, err := os.Stdout.Write(chunk); err != nil {
					return 0
				}
			}
		case "relevel":
			answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
		case "no-result":
			send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s}`, req.ID))
		case "error-no-kind":
			switch req.Method {
			case protocol.MethodWindowCreate:
				send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"x","data":{"kind":"invalid_config"}}}`, req.ID))
			case protocol.MethodWindowTrim:
				send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-31999,"message":"something went wrong"}}`, req.ID))
			case protocol.MethodWindowSummarize:
				send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-31999,"message":"odd","data":{"kind":"made_up"}}}`, req.ID))
			default:
				answer(req.ID)(h.Handle(context.Background(), req.Method, req.Params))
			}
		default:
			fmt.Fprintf(os.Stderr, "unknown behaviour %q\n", b)
			return 2
		}
	}
}

// impl describes one supervised test implementation.
type impl struct {
	cfg  ProcessConfig
	mark string
	dir  string
}

// newImpl configures the test binary to play behaviour, marked uniquely so
// that the test can find every process it leaves behind; the test fails if
// any is still running when it ends.
func newImpl(t *testing.T, behaviour string) *impl {
	t.Helper()
	var b [8]byte
	_, err := rand.Read(b[:])
	require.NoError(t, err)
	im := &impl{mark: hex.EncodeToString(b[:]), dir: t.TempDir()}
	im.cfg = ProcessConfig{
		Command: []string{os.Args[0]},
		Env: []string{
			envImpl + "=" + behaviour,
			envMark + "=" + im.mark,
			envState + "=" + filepath.Join(im.dir, "state"),
			envLog + "=" + filepath.Join(im.dir, "requests.log"),
			// Under -race, a child would otherwise sleep 1 s when it exits.
			"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"),
		},
		// bounds only a hang reaches; a test of a timeout sets its own
		StartTimeout: slack,
		CallTimeout:  slack,
	}
	t.Cleanup(func() { im.assertNoneLeft(t) })
	return im
}

// start starts the implementation, which must succeed, and closes it when
// the test ends.
func (im *impl) start(t *testing.T) *Process {
	t.Helper()
	p, err := StartProcess(context.Background(), im.cfg)
	require.NoError(t, err, "StartProcess")
	t.Cleanup(func() { p.Close() })
	return p
}

// methods lists the methods of the request lines the implementation read,
// over all its lives.
func (im *impl) methods(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(im.dir, "requests.log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var ms []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		var req protocol.Request
		if json.Unmarshal(line, &req) == nil {
			ms = append(ms, req.Method)
		}
	}
	return ms
}

// running lists the processes carrying the mark.
func (im *impl) running(t *testing.T) []int {
	t.Helper()
	return processesMarked(t, envMark+"="+im.mark)
}

// assertNoneLeft fails the test if a process carrying the mark is still
// running after a grace period for the kernel to reap it, and kills it.
func (im *impl) assertNoneLeft(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for {
		pids := im.running(t)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range pids {
				t.Errorf("process %d (%s) was left running", pid, cmdline(pid))
				// It is ours (it carries this test's mark): clean up.
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// processesMarked scans /proc for live processes whose environment holds
// the entry env (NAME=value). Zombies have an empty environment, so they do
// not count.
func processesMarked(t *testing.T, env string) []int {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("finding left-over processes needs Linux's /proc")
	}
	if _, err := os.ReadFile("/proc/self/environ"); err != nil {
		t.Skipf("cannot read /proc: %v", err)
	}
	entries, err := os.ReadDir("/proc")
	require.NoError(t, err)
	want := []byte(env)
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue // gone, or not ours
		}
		for _, kv := range bytes.Split(data, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}

func cmdline(pid int) string {
	data, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	return strings.TrimSpace(string(bytes.ReplaceAll(data, []byte{0}, []byte(" "))))
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) state ...; comm may contain spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	return i >= 0 && i+2 < len(data) && data[i+2] != 'Z'
}

// lockedBuffer is a bytes.Buffer safe for concurrent use.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// renamed is the reference under another name.
type renamed struct{ server.Reference }

func (renamed) Name() string { return "someone-else" }

// retrimmed is the reference declaring one trimmer fewer.
type retrimmed struct{ server.Reference }

func (retrimmed) Trimmers() []server.Trimmer {
	t := server.ReferenceTrimmers()
	return t[:len(t)-1]
}
