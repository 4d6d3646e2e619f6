package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The README's claims that a test can make true: its sample adapter is the
// file examples/minimal/adapter.js and passes the PROTO cases of its
// capability, and its numbers are what conform computes.

// readme is the repository's README.
func readme(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sampleMarker precedes the README's sample adapter, a ```js block.
const sampleMarker = "<!-- sample: examples/minimal/adapter.js -->\n```js\n"

func TestREADMESample(t *testing.T) {
	text := readme(t)
	i := strings.Index(text, sampleMarker)
	if i < 0 {
		t.Fatalf("README.md has no %q", sampleMarker)
	}
	block, _, ok := strings.Cut(text[i+len(sampleMarker):], "```")
	if !ok {
		t.Fatal("README.md: the sample's code block does not end")
	}
	file := filepath.Join("..", "..", "examples", "minimal", "adapter.js")
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if block != string(want) {
		t.Fatalf("README.md's sample adapter differs from %s: copy the file into the README", file)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not on PATH: the sample is not run")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"-run", "PROTO-", "--", "node", abs}, nil, &stdout, &stderr)
	counts := regexp.MustCompile(`(?m)^(\d+) passed, 0 failed, 0 timeout, 0 crash, 0 protocol error, 0 unsupported, \d+ not applicable$`).FindStringSubmatch(stdout.String())
	if code != exitOK || counts == nil || counts[1] == "0" {
		t.Fatalf("conform -run PROTO- -- node %s: exit %d, want 0 and nothing but passed and not applicable cases:\n%s%s", file, code, stdout.String(), stderr.String())
	}
	t.Logf("the README's sample: %s passed", counts[1])
}

// TestREADMENumbers checks the numbers the README quotes from conform: the
// count of the reference's run (every case passes, so it is the number of
// cases `conform list` prints) and the closing line of `conform trace -gaps`.
func TestREADMENumbers(t *testing.T) {
	text := readme(t)
	var list, stderr bytes.Buffer
	if code := run([]string{"list"}, nil, &list, &stderr); code != exitOK {
		t.Fatalf("conform list: exit %d\n%s", code, stderr.String())
	}
	cases := strings.Count(list.String(), "\n")
	m := regexp.MustCompile("`(\\d+) passed, 0 failed, 0 timeout, 0 crash, 0 protocol error,\\s+0 unsupported, 0 not applicable`").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README.md quotes no `N passed, 0 failed, …` line of the reference's run")
	}
	if m[1] != strconv.Itoa(cases) {
		t.Errorf("README.md says the reference passes %s cases; conform list has %d", m[1], cases)
	}
	var trace bytes.Buffer
	stderr.Reset()
	run([]string{"trace", "-gaps"}, nil, &trace, &stderr)
	lines := strings.Split(strings.TrimSpace(trace.String()), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(text, "$ conform trace -gaps\n"+last+"\n") {
		t.Errorf("README.md's `conform trace -gaps` example does not end with what it prints now: %q", last)
	}
}
