package examples_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The N-version check (spec/golden.md, "Who is right"): examples/independent
// was written from spec/ alone, by a session that had read neither the
// reference nor the suite, so where it and the reference disagree one of
// them is wrong and the spec says which. The differential properties run
// against it at several seeds with many checks; any disagreement fails
// until a clause or a decision settles it and the losing side is fixed.
// make test runs a few seeds, and the whole suite at -conform.checks; make
// nversion the full set, the suite at full strength (D-87).
var (
	nversionSeeds  = flag.String("nversion.seeds", "2 3", "seeds at which the differential properties run against the independent implementation")
	nversionChecks = flag.Int("nversion.checks", 100, "checks per differential property in the N-version run")
	nversionAll    = flag.Bool("nversion.declarations", false, "run the whole suite and replay under every declaration, not only two")
)

// independentDeclarations are honest declarations of the independent
// implementation (CONVSPEC_LEVELS, CONVSPEC_FORMATS): a narrower one must
// get nothing it did not declare and fail nothing (D-42, D-47).
var independentDeclarations = []struct{ levels, formats string }{
	{"", ""},
	{"core", "openai"},
	{"core", ""},
	{"core,validation", "anthropic"},
	{"core,diagnostics", ""},
}

func TestIndependentImplementation(t *testing.T) {
	t.Parallel() // it waits on Node processes, as the other examples do
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the independent implementation: %s is not on PATH", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "examples", "independent")
	if fresh, why := nodeModulesUpToDate(dir); !fresh {
		t.Logf("npm ci (%s)", why)
		if out, err := run(dir, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	conform := buildConform(t)
	impl := []string{"--", "node", filepath.Join(dir, "adapter.mjs")}

	declarations := independentDeclarations[:2]
	if *nversionAll {
		declarations = independentDeclarations
	}
	for _, d := range declarations {
		name := fmt.Sprintf("levels=%s,formats=%s", or(d.levels, "all"), or(d.formats, "all"))
		env := []string{"CONVSPEC_LEVELS=" + d.levels, "CONVSPEC_FORMATS=" + d.formats}
		t.Run("suite/"+name, func(t *testing.T) {
			t.Parallel()
			report := runIndependent(t, conform, env, append([]string{"-checks", fmt.Sprint(*conformChecks),
				"-timeout", requestTimeout, "-start-timeout", requestTimeout}, impl...))
			if report.Counts["passed"] == 0 {
				t.Fatalf("nothing passed: %v", report.Counts)
			}
		})
		t.Run("replay/"+name, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(conform, append([]string{"replay", "-timeout", requestTimeout, "-start-timeout", requestTimeout}, impl...)...)
			cmd.Env = append(os.Environ(), env...)
			if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), " 0 failed") {
				t.Fatalf("conform replay %s: %v\n%s", strings.Join(impl, " "), err, out)
			}
		})
	}
	// Its byte-pair merges are its own code, written for speed; they are
	// held to the tokenizer library's on every rank's text and random texts
	// (tools/tokencheck.mjs), long pieces included, which a run's requests
	// seldom hold.
	t.Run("tokencheck", func(t *testing.T) {
		t.Parallel()
		if out, err := run(dir, "node", filepath.Join("tools", "tokencheck.mjs"), "200"); err != nil {
			t.Fatalf("node tools/tokencheck.mjs: %v\n%s", err, out)
		}
	})
	for _, seed := range strings.Fields(*nversionSeeds) {
		t.Run("differential/seed-"+seed, func(t *testing.T) {
			t.Parallel()
			runIndependent(t, conform, nil, append([]string{"-run", "^prop/diff-", "-seed", seed,
				"-checks", fmt.Sprint(*nversionChecks), "-timeout", requestTimeout, "-start-timeout", requestTimeout}, impl...))
		})
	}
}

type independentReport struct {
	Status string         `json:"status"`
	Counts map[string]int `json:"counts"`
}

// runIndependent runs conform with args and env added, and fails the test
// unless the run passes with nothing failing.
func runIndependent(t *testing.T, conform string, env, args []string) independentReport {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(conform, append([]string{"-json", out}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	text, err := cmd.CombinedOutput()
	var report independentReport
	data, rerr := os.ReadFile(out)
	if rerr == nil {
		rerr = json.Unmarshal(data, &report)
	}
	if err != nil || rerr != nil || report.Status != "passed" || report.Counts["failing"] != 0 {
		t.Fatalf("conform %s %s: %v %v (status %q, counts %v); a disagreement between the independent implementation and the reference is settled by the spec (spec/golden.md):\n%s",
			strings.Join(env, " "), strings.Join(args, " "), err, rerr, report.Status, report.Counts, text)
	}
	return report
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
