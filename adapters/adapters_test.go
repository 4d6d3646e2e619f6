package adapters_test

// Runs the conformance suite against adapters written on the kits in this
// directory (adapters/node, adapters/python), as a third party would: build
// cmd/conform, build the adapter, `conform -- CMD ARGS...`.
//
// Each kit wraps two toy libraries written for this test in the shapes the
// kits must fit (adapters/*/test*/toys): a class whose summarizer is fixed at
// construction and whose trim is async, and pure functions that take the
// system prompt apart and return rebuilt messages. Their adapters must stay
// small (maxToyAdapterLines) and pass with nothing but passed and not
// applicable cases; a toy declares only what it implements. The kits' own
// unit tests (node --test, unittest) run first.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	// maxToyAdapterLines bounds the adapters of the toy libraries, and
	// maxExampleAdapterLines those of the examples (examples/): the point of
	// the kits is that an adapter is the library's calls and little else.
	maxToyAdapterLines     = 40
	maxExampleAdapterLines = 60

	// requestTimeout is conform's -timeout and -start-timeout: generous, for busy machines; a
	// hang is still caught.
	requestTimeout = "60s"
)

// toy is one toy adapter and what its run must show.
type toy struct {
	adapter      string   // source file, relative to the kit
	command      []string // run from the directory of the built adapter
	capabilities []string
}

func TestAdapterSizes(t *testing.T) {
	for _, c := range []struct {
		file string
		max  int
	}{
		{"node/test/class-adapter.ts", maxToyAdapterLines},
		{"node/test/function-adapter.ts", maxToyAdapterLines},
		{"python/tests/class_adapter.py", maxToyAdapterLines},
		{"python/tests/function_adapter.py", maxToyAdapterLines},
		{"../examples/typescript/src/adapter.ts", maxExampleAdapterLines},
		{"../examples/python/adapter.py", maxExampleAdapterLines},
	} {
		data, err := os.ReadFile(c.file)
		require.NoError(t, err)
		n := bytes.Count(data, []byte("\n"))
		if assert.LessOrEqual(t, n, c.max, "%s: lines (what does the adapter do that the kit should?)", c.file) {
			t.Logf("%s: %d lines", c.file, n)
		}
	}
}

func TestKitsConform(t *testing.T) {
	t.Parallel() // it waits on processes, as TestToyTrimmersConform does
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	conform := buildConform(t)

	t.Run("node", func(t *testing.T) {
		t.Parallel()
		for _, tool := range []string{"node", "npm"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("skipping the Node kit: %s is not on PATH", tool)
			}
		}
		kit := filepath.Join(root, "adapters", "node")
		if fresh, why := nodeModulesUpToDate(kit); fresh {
			t.Logf("node_modules matches package-lock.json; not reinstalling")
		} else {
			t.Logf("npm ci (%s)", why)
			if out, err := run(kit, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
				t.Fatalf("npm ci: %v\n%s", err, out)
			}
		}
		// The kit is one JavaScript file: its unit tests run on it as it is.
		// (Named one by one: node --test on test/ would run the toy
		// adapters there too, which serve stdin until it ends.)
		if o, err := run(kit, "node", "--test", "test/kit.test.cjs", "test/esm-import.test.mjs"); err != nil {
			t.Fatalf("node --test: %v\n%s", err, o)
		}
		// The toys borrow their trimming from the TypeScript example, so
		// they and their adapters are compiled (outside the tree), with
		// the kit copied beside them as an adapter has it.
		out := t.TempDir()
		if o, err := run(kit, "node", "node_modules/typescript/bin/tsc", "-p", "test", "--outDir", out); err != nil {
			t.Fatalf("tsc -p test: %v\n%s", err, o)
		}
		kitFile, err := os.ReadFile(filepath.Join(kit, "convspec-kit.cjs"))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(out, "adapters", "node", "convspec-kit.cjs"), kitFile, 0o644))
		built := filepath.Join(out, "adapters", "node", "test")
		for _, c := range []toy{
			{"test/class-adapter.ts", []string{"node", "class-adapter.js"}, []string{"window", "window.summarize"}},
			{"test/function-adapter.ts", []string{"node", "function-adapter.js"}, []string{"window", "history"}},
		} {
			t.Run(filepath.Base(c.adapter), func(t *testing.T) {
				t.Parallel()
				checkConform(t, conform, built, c)
			})
		}
	})

	t.Run("python", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("skipping the Python kit: python3 is not on PATH")
		}
		kit := filepath.Join(root, "adapters", "python")
		if o, err := run(kit, "python3", "-B", "-m", "unittest", "discover", "-s", "tests", "-p", "test_*.py"); err != nil {
			t.Fatalf("python3 -m unittest: %v\n%s", err, o)
		}
		tests := filepath.Join(kit, "tests")
		for _, c := range []toy{
			{"tests/class_adapter.py", []string{"python3", "-B", "class_adapter.py"}, []string{"window", "window.summarize"}},
			{"tests/function_adapter.py", []string{"python3", "-B", "function_adapter.py"}, []string{"window", "history"}},
		} {
			t.Run(filepath.Base(c.adapter), func(t *testing.T) {
				t.Parallel()
				checkConform(t, conform, tests, c)
			})
		}
	})
}

// handshakeLine is conform's first line: the implementation and its capabilities.
var handshakeLine = regexp.MustCompile(`(?m)^convspec conformance: .* \(capabilities: ([^)]*)\)$`)

var (
	countLine = regexp.MustCompile(`(?m)^(\d+ passed, \d+ failed(?:, \d+ [a-z][a-z ]*)*)$`)
	countItem = regexp.MustCompile(`^(\d+) ([a-z][a-z ]*)$`)
)

// counts parses conform's count line: outcome → number.
func counts(out []byte) (map[string]int, string, error) {
	m := countLine.FindAllSubmatch(out, -1)
	if m == nil {
		return nil, "", errors.New("no `N passed, N failed, …` line in the output")
	}
	line := string(m[len(m)-1][1])
	c := map[string]int{}
	for _, item := range strings.Split(line, ", ") {
		f := countItem.FindStringSubmatch(item)
		n, _ := strconv.Atoi(f[1])
		c[f[2]] = n
	}
	return c, line, nil
}

func checkConform(t *testing.T, conform, dir string, c toy) {
	t.Helper()
	cmd := exec.Command(conform, append([]string{"-checks", fmt.Sprint(*conformChecks),
		"-timeout", requestTimeout, "-start-timeout", requestTimeout, "--"}, c.command...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	name := strings.Join(c.command, " ")
	// The messages print conform's output as it is, lines and all.
	m := handshakeLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("conform -- %s: no handshake line (%v):\n%s", name, err, out)
	}
	require.Equal(t, c.capabilities, strings.Split(string(m[1]), ", "), "conform -- %s: the capabilities the adapter declares", name)
	got, line, perr := counts(out)
	if perr != nil {
		t.Fatalf("conform -- %s: %v (%v):\n%s", name, perr, err, out)
	}
	for outcome, n := range got {
		if n != 0 && outcome != "passed" && outcome != "not applicable" {
			t.Fatalf("conform -- %s: %s; want nothing but passed and not applicable cases; full output:\n%s", name, line, out)
		}
	}
	if got["passed"] == 0 {
		t.Fatalf("conform -- %s: nothing passed:\n%s", name, out)
	}
	if err != nil {
		t.Fatalf("conform -- %s: %v, want exit status 0\n%s", name, err, out)
	}
	t.Logf("conform -- %s: %s", name, line)
}

func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}

// nodeModulesUpToDate reports whether node_modules holds exactly what
// package-lock.json pins (npm's own record, node_modules/.package-lock.json,
// lists the same packages), so that `npm ci` would change nothing.
func nodeModulesUpToDate(dir string) (bool, string) {
	type lock struct {
		Packages map[string]json.RawMessage `json:"packages"`
	}
	var wanted, installed lock
	for file, v := range map[string]*lock{"package-lock.json": &wanted, "node_modules/.package-lock.json": &installed} {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return false, fmt.Sprintf("cannot read %s", file)
		}
		if err := json.Unmarshal(data, v); err != nil {
			return false, fmt.Sprintf("cannot parse %s: %v", file, err)
		}
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
