package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/runner"
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
// cases `conform list` prints, but for those about conform check) and the closing line of `conform trace -gaps`.
func TestREADMENumbers(t *testing.T) {
	text := readme(t)
	var list, stderr bytes.Buffer
	if code := run([]string{"list"}, nil, &list, &stderr); code != exitOK {
		t.Fatalf("conform list: exit %d\n%s", code, stderr.String())
	}
	cases := strings.Count(list.String(), "\n")
	// conform list shows the scenarios of conform check too; a run
	// against an implementation leaves them out (runner.AboutTheChecker).
	all, err := runner.Cases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if runner.AboutTheChecker(c) {
			cases--
		}
	}
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

// readmeDefaults are the defaults the README's table of flags spells
// otherwise than the flag set does: in words where the flag's default is
// the machine's or is no value of its own.
var readmeDefaults = map[string]func(def string) (string, bool){
	// -seed's flag holds a text: empty is the default seed, 1.
	"seed": func(def string) (string, bool) { return "1", def == "" },
	// -spec-url's empty default links SPEC.md on GitHub.
	"spec-url": func(def string) (string, bool) { return "SPEC.md on GitHub", def == "" },
	// -parallel's default is the machine's CPUs + 1 (D-98).
	"parallel": func(def string) (string, bool) {
		return "CPUs + 1", def == strconv.Itoa(runtime.NumCPU()+1)
	},
}

// TestREADMEFlagTable checks the README's table of conform's flags: every
// flag of a run has a row, and the row's default is the one the flag set
// prints (blank for an empty string or false).
func TestREADMEFlagTable(t *testing.T) {
	text := readme(t)
	start := strings.Index(text, "| flag | default | meaning |\n")
	if start < 0 {
		t.Fatal("README.md has no `| flag | default | meaning |` table")
	}
	table := text[start:]
	if end := strings.Index(table, "\n\n"); end >= 0 {
		table = table[:end]
	}
	flagName := regexp.MustCompile("`-([a-z-]+)")
	rows := map[string]string{} // flag name -> its row's default
	for _, line := range strings.Split(table, "\n")[2:] {
		cells := strings.Split(strings.Trim(strings.ReplaceAll(line, `\|`, "/"), "|"), "|")
		if len(cells) < 3 {
			t.Fatalf("README.md's flag table: a row without three cells: %q", line)
		}
		for _, m := range flagName.FindAllStringSubmatch(cells[0], -1) {
			rows[m[1]] = strings.TrimSpace(cells[1])
		}
	}
	fs, _ := conformFlags(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		got, ok := rows[f.Name]
		if !ok {
			t.Errorf("README.md's flag table has no row for -%s", f.Name)
			return
		}
		want := f.DefValue
		if want == "false" {
			want = ""
		}
		if spell, ok := readmeDefaults[f.Name]; ok {
			words, holds := spell(f.DefValue)
			if !holds {
				t.Errorf("-%s's default is now %q: the README's %q and this test's spelling of it need a look", f.Name, f.DefValue, words)
				return
			}
			want = words
		}
		if got != want {
			t.Errorf("README.md's flag table gives -%s the default %q; the flag's is %q", f.Name, got, want)
		}
	})
}
