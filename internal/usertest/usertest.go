// Package usertest holds what the tests that run conform as a user does
// share — the examples', the kits' and the compatibility report's: building
// the command once for all of them, and checking that a baseline explains
// each of its entries.
package usertest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Conform is cmd/conform built at most once for a test binary, into one
// place per checkout that the test binaries share. Their tests run side by
// side, and make test runs several such packages at once: each linking its
// own conform cost a second of CPU. go build leaves a binary at its -o path
// as it is when its build ID says it is up to date, which costs a tenth of
// linking it, so every package and every later run reuse one link. A test
// package keeps one in a variable and calls Remove from its TestMain.
type Conform struct {
	once      sync.Once
	dir, path string
	temporary bool // dir is this test binary's own, removed by Remove
	out       []byte
	err       error
}

// Path builds cmd/conform of the module rooted at root on first use and
// returns the binary's path; a failed build fails t.
func (c *Conform) Path(t testing.TB, root string) string {
	t.Helper()
	c.once.Do(func() { c.build(root) })
	if c.err != nil {
		t.Fatalf("go build ./cmd/conform: %v\n%s", c.err, c.out)
	}
	return c.path
}

// build builds into the checkout's shared directory under a file lock (two
// go builds writing one file at once could leave it half written), or,
// where there is no user cache directory or no lock, into a directory of
// its own as before.
func (c *Conform) build(root string) {
	if dir, err := sharedDir(root); err == nil {
		if unlock, err := lock(filepath.Join(dir, "build.lock")); err == nil {
			defer unlock()
			c.dir, c.path = dir, filepath.Join(dir, "conform")
			c.goBuild(root)
			return
		}
	}
	if c.dir, c.err = os.MkdirTemp("", "convspec-conform-"); c.err != nil {
		return
	}
	c.temporary = true
	c.path = filepath.Join(c.dir, "conform")
	c.goBuild(root)
}

func (c *Conform) goBuild(root string) {
	cmd := exec.Command("go", "build", "-o", c.path, "./cmd/conform")
	cmd.Dir = root
	c.out, c.err = cmd.CombinedOutput()
}

// sharedDir is the directory of root's conform in the user's cache
// directory (beside Go's build cache), one per checkout: two checkouts
// never share a binary built from other sources.
func sharedDir(root string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(abs))
	dir := filepath.Join(cache, "convspec", "test-conform-"+hex.EncodeToString(sum[:8]))
	return dir, os.MkdirAll(dir, 0o755)
}

// Remove removes what Path built into a directory of its own; the shared
// binary stays for the next package and the next run, as Go's build cache
// does.
func (c *Conform) Remove() {
	if c.temporary {
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
