package examples_test

// Runs conform's trimmer capability against LangChain's trimMessages
// (examples/langchain) as a user's CI would: `conform -baseline
// baseline.json -- node adapter.mjs` must exit 0, every deviation it shows
// listed and explained in the baseline, none stale.

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestLangChainCompatibility(t *testing.T) {
	t.Parallel() // it waits on processes, as TestExamplesConform does
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the LangChain example: %s is not on PATH", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "examples", "langchain")
	entries := checkBaselineExplained(t, filepath.Join(dir, "baseline.json"))

	conform := buildConform(t)
	if fresh, why := nodeModulesUpToDate(dir); fresh {
		t.Logf("node_modules matches package-lock.json; not reinstalling")
	} else {
		t.Logf("npm ci (%s)", why)
		if out, err := run(dir, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	out, err := run(dir, conform, "-seed", "1", "-timeout", requestTimeout, "-baseline", "baseline.json", "--", "node", "adapter.mjs")
	if err != nil {
		t.Fatalf("conform -baseline baseline.json -- node adapter.mjs: %v\n%s", err, out)
	}
	text := string(out)
	if !strings.Contains(text, "capabilities: trimmer") {
		t.Errorf("the adapter did not declare capability trimmer:\n%s", text)
	}
	want := fmt.Sprintf("%d expected failures, 0 stale entries", entries)
	if !strings.Contains(text, want) || !regexp.MustCompile(`(?m)^PASS`).MatchString(text) {
		t.Errorf("conform's report does not say %q and PASS:\n%s", want, text)
	}
}

// checkBaselineExplained: every entry says why, with the minimal input that
// shows it — never the TODO conform writes.
func checkBaselineExplained(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Entries []struct{ ID, Reason string } `json:"entries"`
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) == 0 {
		t.Fatalf("%s has no entries", path)
	}
	for _, e := range b.Entries {
		if strings.HasPrefix(e.Reason, "TODO") || !strings.Contains(e.Reason, "Minimal input: ") {
			t.Errorf("%s: entry %s is not explained with its minimal input: %q", path, e.ID, e.Reason)
		}
	}
	return len(b.Entries)
}
