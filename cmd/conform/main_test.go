package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/testflags"
	"github.com/convspec/convspec/spec/schema"
)

// TestMain makes the test binary play three programs for the scripts:
// conform itself; badimpl, the reference server misbehaving on cue; and
// memcap, which runs a command and fails when its peak memory is over a
// limit.
func TestMain(m *testing.M) {
	commands := map[string]func(){
		"conform": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"badimpl": func() { os.Exit(badimpl(os.Args[1:])) },
		"memcap":  func() { os.Exit(memcap(os.Args[1:])) },
	}
	if commands[filepath.Base(os.Args[0])] == nil {
		testflags.WaitersInParallel()
	}
	testscript.Main(m, commands)
}

// TestScripts runs the CLI scenarios in testdata/script: exit codes, usage
// errors, supervision of misbehaving implementations, outcome classes,
// selection, the baseline, the report formats and reproduction.
func TestScripts(t *testing.T) {
	t.Parallel() // beside the other script and process tests: many of its scripts wait on processes
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gone":         cmdGone,
			"waitlines":    cmdWaitLines,
			"jsonschema":   cmdJSONSchema,
			"junit":        cmdJUnit,
			"reproduce":    cmdReproduce,
			"sameoutcomes": cmdSameOutcomes,
		},
	})
}

// ---------------------------------------------------------------------------
// badimpl

// badimplHang is how long a hanging badimpl hangs: far longer than any
// script waits, short enough that nothing lingers for long if a test is
// itself killed.
const badimplHang = 2 * time.Minute

// badimpl is the reference server with misbehaviour on cue:
//
//	badimpl [-pidfile F] [-marks F] [-start-delay D] [-caps a,b] [-later-caps a,b] [-exit N] [-grandchild] [RULE...]
//
// A RULE is METHOD:BEHAVIOUR[:TIMES]: when a request for METHOD ("*": any
// but initialize and shutdown; initialize never) comes, the first rule that matches and has
// not yet been used TIMES times (counted across restarts, in files
// PIDFILE.rule-N, or .badimpl.rule-N without -pidfile; no TIMES: always)
// decides the answer:
//
//	hang          never answer
//	crash         write 30 lines to stderr, the last "boom: crashed on purpose", exit 7
//	garbage       answer with a line that is not JSON
//	wrong-id      answer with another id
//	schema        answer with the right id and a result of the wrong shape
//	flood         write output without a newline, forever
//	flood-lines   write lines that are not JSON, forever
//	flood-stderr  write to stderr, forever (256 MiB at once, then slowly), and
//	              never answer
//	unsupported   answer with an error of kind unsupported
//	wrong         answer window.estimate one token too high (a plain failure)
//	twice         answer as the reference does, twice
//	ansi          answer with an error whose message clears the screen, forges
//	              a report line and sets the clipboard
//	bigerror      answer with an invalid_params error whose message is 32 MiB
//	late          answer as the reference does, and again 0.3 s after the
//	              next request came (after the answer, for shutdown)
//	exit          answer as the reference does, then exit with status 3
//
// -marks appends METHOD:BEHAVIOUR to a file before each misbehaviour, so a
// script can wait for it. -pidfile appends the process's pid to F; -grandchild starts a sleeping
// child process first and appends its pid too; -daemon one in a session of
// its own (setsid), outside the process group; -name declares another
// name (Go-quoted, so that it may hold any byte); -init-twice answers
// initialize twice. -exit N writes to stderr and
// exits with status N at once; -caps replaces the declared capabilities
// ("none": an empty list);
// -later-caps replaces them in a process that finds a pid in -pidfile
// already (a second worker, a restart).
func badimpl(args []string) int {
	fs := flag.NewFlagSet("badimpl", flag.ContinueOnError)
	pidfile := fs.String("pidfile", "", "append the pid to this file")
	startDelay := fs.Duration("start-delay", 0, "sleep this long before reading anything")
	caps := fs.String("caps", "", "declare these capabilities (comma-separated) instead of the reference's")
	laterCaps := fs.String("later-caps", "", "declare these capabilities when -pidfile already lists a process")
	exitNow := fs.Int("exit", -1, "exit at once with this status")
	grandchild := fs.Bool("grandchild", false, "start a sleeping child process (its pid goes to -pidfile)")
	initTwice := fs.Bool("init-twice", false, "answer initialize twice")
	name := fs.String("name", "", "declare this name, a Go-quoted string (escapes allowed)")
	daemon := fs.Bool("daemon", false, "start a sleeping process in a session of its own (its pid goes to -pidfile)")
	marks := fs.String("marks", "", "append METHOD:BEHAVIOUR to this file on each misbehaviour, before it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	type rule struct {
		method, behaviour string
		times             int // 0: always
		state             string
	}
	var rules []rule
	for i, a := range fs.Args() {
		parts := strings.Split(a, ":")
		if len(parts) < 2 || len(parts) > 3 {
			fmt.Fprintf(os.Stderr, "badimpl: bad rule %q\n", a)
			return 2
		}
		r := rule{method: parts[0], behaviour: parts[1], state: fmt.Sprintf("%s.rule-%d", *pidfile, i)}
		if *pidfile == "" {
			r.state = fmt.Sprintf(".badimpl.rule-%d", i)
		}
		if len(parts) == 3 {
			n, err := strconv.Atoi(parts[2])
			if err != nil || n <= 0 {
				fmt.Fprintf(os.Stderr, "badimpl: bad count in rule %q\n", a)
				return 2
			}
			r.times = n
		}
		rules = append(rules, r)
	}
	appendPid := func(pid int) {
		if *pidfile == "" {
			return
		}
		f, err := os.OpenFile(*pidfile, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "badimpl:", err)
			os.Exit(2)
		}
		fmt.Fprintln(f, pid)
		f.Close()
	}
	if *grandchild {
		cmd := exec.Command("sleep", strconv.Itoa(int(badimplHang.Seconds())))
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "badimpl:", err)
			return 2
		}
		appendPid(cmd.Process.Pid)
	}
	if *laterCaps != "" && *pidfile != "" {
		if data, err := os.ReadFile(*pidfile); err == nil && len(bytes.TrimSpace(data)) > 0 {
			*caps = *laterCaps
		}
	}
	if *daemon {
		cmd := exec.Command("sleep", strconv.Itoa(int(badimplHang.Seconds())))
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "badimpl:", err)
			return 2
		}
		appendPid(cmd.Process.Pid)
	}
	appendPid(os.Getpid())
	if *exitNow >= 0 {
		fmt.Fprintln(os.Stderr, "badimpl: cannot start: the database is on fire")
		return *exitNow
	}
	time.Sleep(*startDelay)

	// use says whether the rule applies once more, and counts the use.
	use := func(r rule) bool {
		if r.times == 0 {
			return true
		}
		n := 0
		if data, err := os.ReadFile(r.state); err == nil {
			n, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		if n >= r.times {
			return false
		}
		if err := os.WriteFile(r.state, []byte(strconv.Itoa(n+1)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "badimpl:", err)
			os.Exit(2)
		}
		return true
	}

	h := server.NewHandler(server.Reference{})
	out := bufio.NewWriter(os.Stdout)
	send := func(line []byte) {
		out.Write(line)
		out.WriteByte('\n')
		out.Flush()
	}
	answer := func(id json.RawMessage, result any, err error) {
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
		send(line)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var late func() // a second answer still to send
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var req protocol.Request
		if err := json.Unmarshal(line, &req); err != nil {
			send(server.AnswerLine(context.Background(), h, line))
			continue
		}
		if late != nil && req.Method != protocol.MethodShutdown {
			time.Sleep(300 * time.Millisecond)
			late()
			late = nil
		}
		behaviour := ""
		anyMethod := req.Method != protocol.MethodInitialize && req.Method != protocol.MethodShutdown
		if req.Method != protocol.MethodInitialize {
			for _, r := range rules {
				if (r.method == "*" && anyMethod || r.method == req.Method) && use(r) {
					behaviour = r.behaviour
					break
				}
			}
		}
		if behaviour != "" && *marks != "" {
			f, err := os.OpenFile(*marks, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
			if err == nil {
				fmt.Fprintf(f, "%s:%s\n", req.Method, behaviour)
				f.Close()
			}
		}
		switch behaviour {
		case "":
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			if req.Method == protocol.MethodInitialize && err == nil && *name != "" {
				r := res.(protocol.InitializeResult)
				r.Implementation.Name, _ = strconv.Unquote(*name)
				res = r
			}
			if req.Method == protocol.MethodInitialize && err == nil && *caps != "" {
				r := res.(protocol.InitializeResult)
				r.Capabilities = strings.Split(*caps, ",")
				if *caps == "none" {
					r.Capabilities = []string{}
				}
				res = r
			}
			answer(req.ID, res, err)
			if req.Method == protocol.MethodInitialize && *initTwice {
				answer(req.ID, res, err)
			}
			if req.Method == protocol.MethodShutdown {
				if late != nil {
					time.Sleep(300 * time.Millisecond)
					late()
				}
				return 0
			}
		case "ansi":
			answer(req.ID, nil, protocol.NewError(protocol.KindInvalidParams, "\x1b[2J\x1b[1;1H\r--- ok   EST-1/forged\nwanted: evil\x1b]52;c;cm0gLXJm\x07"))
		case "bigerror":
			// written a MiB at a time: memcap measures this process too
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32602,"data":{"kind":"invalid_params"},"message":"`, req.ID)
			chunk := bytes.Repeat([]byte("x"), 1<<20)
			for range 32 {
				out.Write(chunk)
			}
			out.WriteString("\"}}\n")
			out.Flush()
		case "late":
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			answer(req.ID, res, err)
			id := req.ID
			late = func() { answer(id, res, err) }
		case "hang":
			time.Sleep(badimplHang)
			return 0
		case "crash":
			for i := range 29 {
				fmt.Fprintf(os.Stderr, "badimpl: working on %s (%d)\n", req.Method, i)
			}
			fmt.Fprintln(os.Stderr, "boom: crashed on purpose")
			return 7
		case "garbage":
			send([]byte("this is not JSON"))
		case "wrong-id":
			send([]byte(`{"jsonrpc":"2.0","id":4242,"result":{}}`))
		case "schema":
			send(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"result":{"trimmed":"not an array","tokens":"many"}}`, req.ID))
		case "flood":
			chunk := bytes.Repeat([]byte("x"), 64<<10)
			for {
				if _, err := os.Stdout.Write(chunk); err != nil {
					return 0
				}
			}
		case "flood-stderr":
			// 256 MiB at once, more than any memcap of the scripts, then a
			// chunk every 10 ms until killed: what conform keeps of stderr is
			// bounded whatever is written, and the flood never stops, but a
			// script waiting for the timeout does not burn two cores the while.
			chunk := bytes.Repeat([]byte("log line\n"), 8<<10)
			for written := 0; ; written += len(chunk) {
				if written >= 256<<20 {
					time.Sleep(10 * time.Millisecond)
				}
				if _, err := os.Stderr.Write(chunk); err != nil {
					return 0
				}
			}
		case "flood-lines":
			chunk := bytes.Repeat([]byte("not json\n"), 8<<10)
			for {
				if _, err := os.Stdout.Write(chunk); err != nil {
					return 0
				}
			}
		case "unsupported":
			answer(req.ID, nil, protocol.NewError(protocol.KindUnsupported, "%s is not supported by badimpl", req.Method))
		case "twice":
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			answer(req.ID, res, err)
			answer(req.ID, res, err)
			if req.Method == protocol.MethodShutdown {
				return 0
			}
		case "exit":
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			answer(req.ID, res, err)
			fmt.Fprintln(os.Stderr, "badimpl: exiting with status 3 on purpose")
			return 3
		case "wrong":
			res, err := h.Handle(context.Background(), req.Method, req.Params)
			if r, ok := res.(protocol.WindowEstimateResult); ok {
				r.Tokens++
				res = r
			}
			answer(req.ID, res, err)
		default:
			fmt.Fprintf(os.Stderr, "badimpl: unknown behaviour %q\n", behaviour)
			return 2
		}
	}
}

// memcap runs a command and exits with its status, or with 99 when its
// peak resident memory (with its waited-for children) was over the limit:
//
//	memcap MiB CMD [ARGS...]
func memcap(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: memcap MiB CMD [ARGS...]")
		return 2
	}
	limit, err := strconv.Atoi(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "memcap:", err)
		return 2
	}
	cmd := exec.Command(args[1], args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintln(os.Stderr, "memcap:", err)
		return 2
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "memcap: no resource usage on this system")
		return 2
	}
	peak := ru.Maxrss >> 10 // KiB on Linux
	fmt.Fprintf(os.Stderr, "memcap: peak resident memory %d MiB (limit %d MiB)\n", peak, limit)
	if peak > int64(limit) {
		return 99
	}
	return cmd.ProcessState.ExitCode()
}

// ---------------------------------------------------------------------------
// Script commands

// gone FILE: every pid listed in FILE (one per line, at least one) has
// ended; a zombie counts as ended. It waits up to five seconds.
func cmdGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gone FILE")
	}
	pids := readPids(ts, args[0])
	if len(pids) == 0 {
		ts.Fatalf("%s lists no pid", args[0])
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		var alive []int
		for _, pid := range pids {
			if running(pid) {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			ts.Logf("all %d processes are gone", len(pids))
			return
		}
		if time.Now().After(deadline) {
			for _, pid := range alive {
				syscall.Kill(pid, syscall.SIGKILL) // do not leave them to the next test
			}
			ts.Fatalf("still running: %v", alive)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitlines N FILE: waits up to ten seconds for FILE to hold N lines.
func cmdWaitLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitlines N FILE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	// a bound only a hang reaches: the lines come when the run gets there,
	// however loaded the machine (D-44)
	const hangBound = 2 * time.Minute
	deadline := time.Now().Add(hangBound)
	lines := func() int {
		data, err := os.ReadFile(ts.MkAbs(args[1]))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			ts.Fatalf("%v", err)
		}
		return bytes.Count(data, []byte("\n"))
	}
	for lines() < n {
		if time.Now().After(deadline) {
			ts.Fatalf("%s does not have %d lines after %v", args[1], n, hangBound)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readPids(ts *testscript.TestScript, name string) []int {
	data, err := os.ReadFile(ts.MkAbs(name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	ts.Check(err)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		pid, err := strconv.Atoi(f)
		ts.Check(err)
		pids = append(pids, pid)
	}
	return pids
}

// running says whether pid is a live process (not a zombie).
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	// pid (comm) S ...: the state follows the last parenthesis.
	i := bytes.LastIndexByte(stat, ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// jsonschema report|baseline FILE: FILE validates against the published
// schema spec/schema/report.schema.json or baseline.schema.json.
func cmdJSONSchema(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonschema report|baseline FILE")
	}
	var sc []byte
	switch args[0] {
	case "report":
		sc = schema.Report
	case "baseline":
		sc = schema.Baseline
	default:
		ts.Fatalf("no schema %q", args[0])
	}
	errs, err := schema.Validate(sc, []byte(ts.ReadFile(args[1])))
	ts.Check(err)
	for _, e := range errs {
		ts.Logf("%v", e)
	}
	if neg != (len(errs) == 0) {
		return
	}
	if neg {
		ts.Fatalf("%s validates against the %s schema", args[1], args[0])
	}
	ts.Fatalf("%s does not validate against the %s schema", args[1], args[0])
}

// junit FILE TESTS FAILURES ERRORS SKIPPED: FILE is JUnit XML whose
// totals match these regular expressions, and whose testcases add up.
func cmdJUnit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 5 {
		ts.Fatalf("usage: junit FILE TESTS FAILURES ERRORS SKIPPED")
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Suites   []struct {
			Cases []struct {
				Name string `xml:"name,attr"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	ts.Check(xml.Unmarshal([]byte(ts.ReadFile(args[0])), &doc))
	n := 0
	for _, s := range doc.Suites {
		n += len(s.Cases)
	}
	got := []int{doc.Tests, doc.Failures, doc.Errors, doc.Skipped}
	for i, want := range args[1:] {
		if !regexp.MustCompile("^(?:" + want + ")$").MatchString(strconv.Itoa(got[i])) {
			ts.Fatalf("junit totals (tests failures errors skipped) = %v, want %v", got, args[1:])
		}
	}
	if n != doc.Tests {
		ts.Fatalf("junit has %d testcases but tests=%d", n, doc.Tests)
	}
}

// reproduce FILE: FILE is a JSON report; every failing case's reproduce
// command is run (conform is this binary) and must fail that case again
// with the same detail (for a property: the same shrunk counterexample).
func cmdReproduce(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: reproduce FILE")
	}
	var rep struct {
		Cases []struct {
			ID, Outcome, Detail, Reproduce string
		} `json:"cases"`
	}
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &rep))
	n := 0
	for _, c := range rep.Cases {
		if c.Reproduce == "" {
			continue
		}
		n++
		words, err := shellSplit(c.Reproduce)
		ts.Check(err)
		if words[0] != "conform" {
			ts.Fatalf("%s: reproduce command %q does not start with conform", c.ID, c.Reproduce)
		}
		out := filepath.Join(ts.MkAbs("."), "reproduce.json")
		cmdArgs := append([]string{"-report", "none", "-json", out}, words[1:]...)
		if err := ts.Exec("conform", cmdArgs...); err == nil {
			ts.Fatalf("%s: %q passed", c.ID, c.Reproduce)
		}
		var again struct {
			Cases []struct{ ID, Outcome, Detail string } `json:"cases"`
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(out)), &again))
		// A run against a program ends with its shutdown (D-41), a case of
		// its own that passes when the program ends cleanly.
		again.Cases = slices.DeleteFunc(again.Cases, func(k struct{ ID, Outcome, Detail string }) bool {
			return k.ID == runner.ShutdownCase.ID && k.ID != c.ID && k.Outcome == string(result.Passed)
		})
		if len(again.Cases) != 1 || again.Cases[0].ID != c.ID {
			ts.Fatalf("%s: %q ran %d cases", c.ID, c.Reproduce, len(again.Cases))
		}
		if got := again.Cases[0]; got.Outcome != c.Outcome || normalizeHandles(got.Detail) != normalizeHandles(c.Detail) {
			ts.Fatalf("%s: %q did not reproduce the failure:\nfirst:\n%s\nagain (%s):\n%s", c.ID, c.Reproduce, c.Detail, got.Outcome, got.Detail)
		}
		ts.Logf("%s: reproduced by %s", c.ID, c.Reproduce)
	}
	if n == 0 {
		ts.Fatalf("%s has no case to reproduce", args[0])
	}
}

// normalizeHandles blanks what differs between a run and its
// reproduction: window handles ("w17"), which count the windows an
// implementation created before, and how many checks passed before the
// failing one (none, when it is reproduced by its seed).
func normalizeHandles(s string) string {
	s = checksBefore.ReplaceAllString(s, "failed after N tests")
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.HasPrefix(s[i:], `"window":"w`) {
			b.WriteString(`"window":"w`)
			i += len(`"window":"w`)
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			i--
			b.WriteString("N")
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

var checksBefore = regexp.MustCompile(`failed after [0-9]+ tests`)

// shellSplit undoes shellQuote: words are separated by spaces and may be
// single-quoted, with a quote written as quote, backslash, quote, quote.
func shellSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord, quoted := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '\'':
			quoted = false
		case quoted:
			w.WriteByte(c)
		case c == '\'':
			quoted, inWord = true, true
		case c == '\\' && i+1 < len(s):
			i++
			w.WriteByte(s[i])
			inWord = true
		case c == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if quoted {
		return nil, fmt.Errorf("unterminated quote in %q", s)
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

func TestShellQuoteRoundTrip(t *testing.T) {
	for _, s := range []string{"plain", "", "with space", "it's", `^WIN-3/a\.b$`, "a'b'c", "$HOME", "-seed"} {
		words, err := shellSplit("x " + shellQuote(s) + " y")
		if err != nil || len(words) != 3 || words[1] != s {
			t.Errorf("shellSplit(shellQuote(%q)) = %q, %v", s, words, err)
		}
	}
}

// cmdSameOutcomes compares two JSON reports case by case: the same IDs in
// the same order, with the same outcomes and details.
func cmdSameOutcomes(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: sameoutcomes A.json B.json")
	}
	type kase struct {
		ID, Outcome, Detail string
	}
	load := func(name string) []kase {
		var r struct{ Cases []kase }
		if err := json.Unmarshal([]byte(ts.ReadFile(name)), &r); err != nil {
			ts.Fatalf("%s: %v", name, err)
		}
		return r.Cases
	}
	a, b := load(args[0]), load(args[1])
	same := len(a) == len(b) && len(a) > 0
	for i := 0; same && i < len(a); i++ {
		same = a[i] == b[i]
		if !same {
			ts.Logf("case %d: %+v\nvs %+v", i, a[i], b[i])
		}
	}
	if same == neg {
		ts.Fatalf("%s and %s: same outcomes %v, want %v", args[0], args[1], same, !neg)
	}
}

// conform collects garbage at 200 unless GOGC says otherwise (gc.go).
func TestGCPercent(t *testing.T) {
	env := func(gogc string) func(string) string {
		return func(k string) string {
			if k == "GOGC" {
				return gogc
			}
			return ""
		}
	}
	if got := gcPercent(env("")); got != 200 {
		t.Errorf("GOGC unset: %d, want 200", got)
	}
	for _, v := range []string{"100", "off", "50"} {
		if got := gcPercent(env(v)); got != -1 {
			t.Errorf("GOGC=%s: %d, want the user's (-1)", v, got)
		}
	}
}
