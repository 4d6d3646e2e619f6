package compat_test

// Runs every compatibility adapter (compat/*/adapter.cjs, each a real npm
// library on the Node kit, pinned by its package-lock.json) as a user's CI
// would: `conform -seed 1 -baseline baseline.json -- node adapter.cjs` must
// pass, every deviation listed in the baseline and explained with its
// minimal input, none stale; then `conform doc -compat` renders the
// compatibility page from their JSON reports (SPEC §8d, D-60). Skipped
// without node and npm. CONVSPEC_COMPAT_WRITE=1 writes each report.json
// beside its adapter, the input of the page the README links.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/usertest"
)

// conformBuild is the conform the libraries run under, shared with the
// other packages that run it (usertest.Conform); TestMain removes it only
// where it was built into a directory of its own.
var conformBuild usertest.Conform

// requestTimeout is conform's -timeout and -start-timeout here: generous,
// because each library's conform starts its workers at once, every one
// loading thousands of files, beside the other packages' tests; a verdict
// must not depend on the machine's load (D-44), and conform's default
// start-up limit of 30 s failed two libraries once in a whole go test ./...
// on a busy 2-core machine. A hang is still caught.
const requestTimeout = "60s"

func TestMain(m *testing.M) {
	code := m.Run()
	conformBuild.Remove()
	os.Exit(code)
}

func TestCompatibility(t *testing.T) {
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the compatibility report: %s is not on PATH", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	conform := conformBuild.Path(t, root)
	adapters, err := filepath.Glob(filepath.Join(root, "compat", "*", "adapter.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(adapters) < 4 {
		t.Fatalf("%d compatibility adapters; the report needs LangChain and more", len(adapters))
	}
	reports := filepath.Join(tmp, "reports")
	write := os.Getenv("CONVSPEC_COMPAT_WRITE") != ""
	// The page reads each finding's minimal input from its baseline entry,
	// not from the report; a failing case's counterexample is shrunk only
	// for the reports written beside the adapters (D-87): shrinking
	// Mastra's failing property alone took three quarters of the test's CPU.
	shrink := []string{"-shrink-steps", "0"}
	if write {
		shrink = nil
	}
	// The libraries run side by side (each waits on its Node processes);
	// the group returns when all have, and the page is rendered from their
	// reports.
	t.Run("library", func(t *testing.T) {
		for _, a := range adapters {
			dir := filepath.Dir(a)
			name := filepath.Base(dir)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				usertest.BaselineExplained(t, filepath.Join(dir, "baseline.json"))
				if !installed(dir) {
					if out, err := run(dir, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
						t.Fatalf("npm ci: %v\n%s", err, out)
					}
				}
				report := filepath.Join(reports, name, "report.json")
				if write {
					report = filepath.Join(dir, "report.json")
				}
				if err := os.MkdirAll(filepath.Dir(report), 0o755); err != nil {
					t.Fatal(err)
				}
				args := append([]string{"-seed", "1", "-timeout", requestTimeout, "-start-timeout", requestTimeout}, shrink...)
				args = append(args, "-baseline", "baseline.json", "-json", report, "--", "node", "adapter.cjs")
				out, err := run(dir, conform, args...)
				if err != nil || !strings.Contains(string(out), "0 stale entries") {
					t.Fatalf("conform -baseline baseline.json -- node adapter.cjs: %v\n%s", err, out)
				}
				if write {
					data, err := os.ReadFile(report)
					if err != nil {
						t.Fatal(err)
					}
					if err := os.MkdirAll(filepath.Join(reports, name), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(reports, name, "report.json"), data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	})
	if t.Failed() {
		return // the page needs every library's report
	}
	site := filepath.Join(tmp, "site")
	if out, err := run(root, conform, "doc", "-o", site, "-compat", reports); err != nil {
		t.Fatalf("conform doc -compat: %v\n%s", err, out)
	}
	page, err := os.ReadFile(filepath.Join(site, "compat.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"langchain-trimMessages", "Verdict per guarantee", "Minimal input: "} {
		if !strings.Contains(string(page), want) {
			t.Errorf("compat.html does not show %q", want)
		}
	}
}

// installed reports whether npm has installed what package-lock.json pins:
// its own record, node_modules/.package-lock.json, is there and not older.
func installed(dir string) bool {
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false
	}
	done, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && !done.ModTime().Before(lock.ModTime())
}

func run(dir, name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	return cmd.CombinedOutput()
}
