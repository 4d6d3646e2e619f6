package examples_test

// Runs the conformance suite against the example implementations in this
// directory (examples/typescript and examples/python), exactly as a user
// would: build cmd/conform, build the example, `conform -- CMD ARGS...`.
//
// Every case of a capability an example declares must pass. The suite also
// has cases of capabilities an example does not implement, which conform
// reports as not applicable; to tell those apart from cases that should have
// run, the test also runs the same suite against the reference
// implementation made to declare the same capabilities as the example (via a
// small proxy, this test binary re-executed), and requires the example to
// reach exactly the same counts as that baseline: N passed, nothing failed,
// and not applicable exactly the cases of the capabilities it leaves out.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The capabilities each example declares in its handshake. The standard
// library has no exact cl100k_base tokenizer, so the Python example leaves
// out `budget` and `tokens.cl100k`; it reads config files with ruamel.yaml
// (Debian's python3-ruamel.yaml, which .ci/run installs) and declares
// `config` when python3 can import it (pythonConfigCapabilities). It has no
// provider loop, so no `loop`.
var (
	typescriptCapabilities   = []string{"window", "window.summarize", "history", "budget", "tokens.cl100k", "config", "loop"}
	pythonCapabilities       = []string{"window", "window.summarize", "history"}
	pythonConfigCapabilities = []string{"window", "window.summarize", "history", "config"}
)

// requestTimeout is conform's -timeout and -start-timeout in this test: generous, because the
// examples and the baselines run side by side on machines that may be busy
// (counting the tokens of 003's 900,000-token conversation takes seconds),
// and a hang is still caught.
const requestTimeout = "60s"

const (
	proxyCapsEnv    = "CONVSPEC_EXAMPLES_PROXY_CAPABILITIES"
	proxyConformEnv = "CONVSPEC_EXAMPLES_PROXY_CONFORM"
)

func TestMain(m *testing.M) {
	if caps := os.Getenv(proxyCapsEnv); caps != "" {
		os.Exit(proxy(os.Getenv(proxyConformEnv), strings.Split(caps, ",")))
	}
	code := m.Run()
	conformBuild.Remove()
	os.Exit(code)
}

func TestExamplesConform(t *testing.T) {
	t.Parallel() // it waits on processes, as TestLangChainCompatibility does
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("go is not on PATH: %v", err)
	}
	conform := buildConform(t)

	t.Run("typescript", func(t *testing.T) {
		t.Parallel()
		for _, tool := range []string{"node", "npm"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("skipping the TypeScript example: %s is not on PATH", tool)
			}
		}
		want := startBaseline(t, conform, typescriptCapabilities)
		dir := filepath.Join(root, "examples", "typescript")
		if fresh, why := nodeModulesUpToDate(dir); fresh {
			t.Logf("node_modules matches package-lock.json; not reinstalling")
		} else {
			t.Logf("npm ci (%s)", why)
			if out, err := run(dir, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
				t.Fatalf("npm ci: %v\n%s", err, out)
			}
		}
		tsc := []string{"npx", "tsc", "-b"} // convspec-kit (adapters/node) is JavaScript with its declarations: only src/ is built
		if _, err := exec.LookPath("npx"); err != nil {
			tsc = []string{"npm", "exec", "--", "tsc", "-b"} // what npx does
		}
		if out, err := run(dir, tsc[0], tsc[1:]...); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(tsc, " "), err, out)
		}
		checkConform(t, conform, dir, typescriptCapabilities, want, "node", "dist/adapter.js")
	})

	t.Run("python", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("skipping the Python example: python3 is not on PATH")
		}
		caps := pythonConfigCapabilities
		if out, err := run(root, "python3", "-c", "import ruamel.yaml"); err != nil {
			t.Logf("python3 cannot import ruamel.yaml (%s): the Python example runs without `config`; "+
				"install python3-ruamel.yaml or `pip install ruamel.yaml` to check it", strings.TrimSpace(lastLine(out)))
			caps = pythonCapabilities
		}
		want := startBaseline(t, conform, caps)
		checkConform(t, conform, filepath.Join(root, "examples", "python"), caps, want, "python3", "adapter.py")
	})
}

// summary is conform's count line, parsed: `N passed, N failed, …, N not
// applicable` (the closing line, or the line before a closing PASS/FAIL).
type summary struct {
	line   string
	counts map[string]int // outcome → count: "passed", "failed", "not applicable", …
}

var (
	countLine = regexp.MustCompile(`^\d+ passed, \d+ failed(, \d+ [a-z][a-z ]*)*$`)
	countItem = regexp.MustCompile(`^(\d+) ([a-z][a-z ]*)$`)
)

func parseSummary(out []byte) (summary, error) {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-3; i-- {
		line := strings.TrimSpace(lines[i])
		if !countLine.MatchString(line) {
			continue
		}
		s := summary{line: line, counts: map[string]int{}}
		for _, item := range strings.Split(line, ", ") {
			m := countItem.FindStringSubmatch(item)
			n, _ := strconv.Atoi(m[1])
			s.counts[m[2]] = n
		}
		return s, nil
	}
	return summary{}, fmt.Errorf("no `N passed, N failed, …, N not applicable` line at the end of the output")
}

// clean reports whether nothing but passed and not-applicable cases were
// counted, and something passed.
func (s summary) clean() bool {
	for outcome, n := range s.counts {
		if outcome != "passed" && outcome != "not applicable" && n != 0 {
			return false
		}
	}
	return s.counts["passed"] > 0
}

// startBaseline starts the suite against the reference implementation
// declaring caps only, and returns a function that waits for its counts.
// It runs while the example is built and checked.
func startBaseline(t *testing.T, conform string, caps []string) func() summary {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		s   summary
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		// The counts do not depend on how many cases a property generates.
		cmd := exec.Command(conform, "-checks", "1", "-timeout", requestTimeout, "-start-timeout", requestTimeout, "--", self)
		cmd.Env = append(os.Environ(),
			proxyCapsEnv+"="+strings.Join(caps, ","),
			proxyConformEnv+"="+conform)
		out, err := cmd.CombinedOutput()
		s, perr := parseSummary(out)
		if err == nil {
			err = perr
		}
		if err == nil && !s.clean() {
			err = errors.New("not clean")
		}
		if err != nil {
			err = fmt.Errorf("the baseline run of the reference declaring %v did not pass cleanly (%v); "+
				"the example cannot be judged against it:\n%s", caps, err, out)
		}
		done <- outcome{s, err}
	}()
	t.Cleanup(func() { <-done }) // never leave it running
	var result *outcome
	return func() summary {
		t.Helper()
		if result == nil {
			o := <-done
			done <- o // for the cleanup
			result = &o
		}
		if result.err != nil {
			t.Fatal(result.err)
		}
		t.Logf("baseline (the reference declaring %v): %s", caps, result.s.line)
		return result.s
	}
}

// handshakeLine is conform's first line: the implementation and its capabilities.
var handshakeLine = regexp.MustCompile(`(?m)^convspec conformance: .* \(capabilities: ([^)]*)\)$`)

func checkConform(t *testing.T, conform, dir string, caps []string, baseline func() summary, command ...string) {
	t.Helper()
	args := append([]string{"-checks", fmt.Sprint(*conformChecks), "-timeout", requestTimeout, "-start-timeout", requestTimeout, "--"}, command...)
	cmd := exec.Command(conform, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		t.Fatalf("conform -- %s: exit status %d, want 0; full output:\n%s", strings.Join(command, " "), exit.ExitCode(), out)
	case err != nil:
		t.Fatalf("conform -- %s: %v\n%s", strings.Join(command, " "), err, out)
	}
	if m := handshakeLine.FindSubmatch(out); m == nil {
		t.Fatalf("conform -- %s: no handshake line in the output:\n%s", strings.Join(command, " "), out)
	} else if declared := strings.Split(string(m[1]), ", "); !slices.Equal(declared, caps) {
		t.Fatalf("the example declares the capabilities %v; this test expects %v (update one or the other)", declared, caps)
	}
	got, perr := parseSummary(out)
	if perr != nil {
		t.Fatalf("%v; full output:\n%s", perr, out)
	}
	want := baseline()
	if !got.clean() || !reflect.DeepEqual(got.counts, want.counts) {
		t.Fatalf("got %q, want %q: N > 0 passed, nothing failed, and not applicable only the cases of capabilities "+
			"the example does not declare; full output:\n%s", got.line, want.line, out)
	}
	t.Logf("conform -- %s: %s", strings.Join(command, " "), got.line)
}

// lastLine is the last non-empty line of out.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// nodeModulesUpToDate reports whether node_modules holds exactly what
// package-lock.json pins (npm's own record, node_modules/.package-lock.json,
// lists the same packages) and the lock agrees with package.json, so that
// `npm ci` would change nothing.
func nodeModulesUpToDate(dir string) (bool, string) {
	type lock struct {
		Packages map[string]json.RawMessage `json:"packages"`
	}
	type manifest struct {
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
	}
	var pkg manifest
	var wanted, installed lock
	for file, v := range map[string]any{
		"package.json":                    &pkg,
		"package-lock.json":               &wanted,
		"node_modules/.package-lock.json": &installed,
	} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return false, fmt.Sprintf("cannot read %s", file)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return false, fmt.Sprintf("cannot parse %s: %v", file, err)
		}
	}
	var root manifest
	if err := json.Unmarshal(wanted.Packages[""], &root); err != nil ||
		!reflect.DeepEqual(root.Dependencies, pkg.Dependencies) ||
		!reflect.DeepEqual(root.DevDependencies, pkg.DevDependencies) {
		return false, "package-lock.json does not match package.json"
	}
	delete(wanted.Packages, "")
	if len(wanted.Packages) != len(installed.Packages) {
		return false, "node_modules differs from package-lock.json"
	}
	for name, w := range wanted.Packages {
		var a, b any
		if json.Unmarshal(w, &a) != nil || json.Unmarshal(installed.Packages[name], &b) != nil || !reflect.DeepEqual(a, b) {
			return false, "node_modules differs from package-lock.json at " + name
		}
	}
	return true, ""
}

// proxy serves the reference implementation (`conform serve`) on
// stdin/stdout, rewriting the capabilities of its handshake to caps.
func proxy(conform string, caps []string) int {
	cmd := exec.Command(conform, "serve")
	cmd.Stdin = os.Stdin
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		return 1
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		return 1
	}
	r := bufio.NewReader(stdout)
	w := bufio.NewWriter(os.Stdout)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			w.Write(rewriteCapabilities(line, caps))
			w.Flush()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "proxy:", err)
			return 1
		}
	}
	if err := cmd.Wait(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		return 1
	}
	return 0
}

// rewriteCapabilities replaces result.capabilities in a response line; any
// other line is returned as it is.
func rewriteCapabilities(line []byte, caps []string) []byte {
	if !bytes.Contains(line, []byte(`"capabilities"`)) {
		return line
	}
	var resp map[string]json.RawMessage
	var result map[string]json.RawMessage
	if json.Unmarshal(line, &resp) != nil || json.Unmarshal(resp["result"], &result) != nil || result["capabilities"] == nil {
		return line
	}
	result["capabilities"], _ = json.Marshal(caps)
	resp["result"], _ = json.Marshal(result)
	out, err := json.Marshal(resp)
	if err != nil {
		return line
	}
	return append(out, '\n')
}
