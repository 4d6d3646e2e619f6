package examples_test

// Runs conform's trimmer capability against LangChain's trimMessages
// (examples/langchain) as a user's CI would: `conform -baseline
// baseline.json -- node adapter.mjs` must exit 0, every deviation it shows
// listed and explained in the baseline, none stale.

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/usertest"
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
	entries := usertest.BaselineExplained(t, filepath.Join(dir, "baseline.json"))
	if entries == 0 {
		t.Fatalf("%s has no entries", filepath.Join(dir, "baseline.json"))
	}

	conform := buildConform(t)
	if fresh, why := nodeModulesUpToDate(dir); fresh {
		t.Logf("node_modules matches package-lock.json; not reinstalling")
	} else {
		t.Logf("npm ci (%s)", why)
		if out, err := run(dir, "npm", "ci", "--no-audit", "--no-fund"); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	// Without shrinking (D-87): the baseline's entries are the cases that
	// fail at seed 1, whatever counterexample they show, and each reason
	// carries its minimal input already.
	out, err := run(dir, conform, "-seed", "1", "-shrink-steps", "0", "-timeout", requestTimeout, "-start-timeout", requestTimeout, "-baseline", "baseline.json", "--", "node", "adapter.mjs")
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
