// Package usertest holds what the tests that run conform as a user does
// share — the examples', the kits' and the compatibility report's: building
// the command once per test binary, and checking that a baseline explains
// each of its entries.
package usertest

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Conform is cmd/conform built at most once for a test binary: its tests
// run side by side, and each building its own would link the same binary
// again. A test package keeps one in a variable and calls Remove from its
// TestMain.
type Conform struct {
	once      sync.Once
	dir, path string
	out       []byte
	err       error
}

// Path builds cmd/conform of the module rooted at root on first use and
// returns the binary's path; a failed build fails t.
func (c *Conform) Path(t testing.TB, root string) string {
	t.Helper()
	c.once.Do(func() {
		if c.dir, c.err = os.MkdirTemp("", "convspec-conform-"); c.err != nil {
			return
		}
		c.path = filepath.Join(c.dir, "conform")
		cmd := exec.Command("go", "build", "-o", c.path, "./cmd/conform")
		cmd.Dir = root
		c.out, c.err = cmd.CombinedOutput()
	})
	if c.err != nil {
		t.Fatalf("go build ./cmd/conform: %v\n%s", c.err, c.out)
	}
	return c.path
}

// Remove removes what Path built.
func (c *Conform) Remove() {
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// BaselineExplained checks that every entry of the baseline file at path
// says why it is accepted, with the minimal input that shows it — never the
// TODO conform writes — and returns the number of entries.
func BaselineExplained(t testing.TB, path string) int {
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
	for _, e := range b.Entries {
		if strings.HasPrefix(e.Reason, "TODO") || !strings.Contains(e.Reason, "Minimal input: ") {
			t.Errorf("%s: entry %s is not explained with its minimal input: %q", path, e.ID, e.Reason)
		}
	}
	return len(b.Entries)
}
