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
	once sync.Once
	path string
	// remove is what Remove deletes: this test binary's hard link to the
	// shared binary, or the directory of its own it built into.
	remove string
	out    []byte
	err    error
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
// go builds writing one file at once could leave it half written) and runs
// a hard link of its own to what it built: another test binary that builds
// later, after a change, replaces the shared file (go build renames a new
// binary into place, or across file systems removes and rewrites it), never
// the one this test binary runs. Where there is no user cache directory,
// no lock or no link, or the build there fails, it builds into a directory
// of its own as before.
func (c *Conform) build(root string) {
	if c.buildShared(root) {
		return
	}
	dir, err := os.MkdirTemp("", "convspec-conform-")
	if err != nil {
		c.err = err
		return
	}
	c.path, c.remove = filepath.Join(dir, "conform"), dir
	c.out, c.err = goBuild(root, c.path)
}

func (c *Conform) buildShared(root string) bool {
	dir, err := sharedDir(root)
	if err != nil {
		return false
	}
	unlock, err := lock(filepath.Join(dir, "build.lock"))
	if err != nil {
		return false
	}
	defer unlock()
	shared := filepath.Join(dir, "conform")
	if _, err := goBuild(root, shared); err != nil {
		return false
	}
	// A name no other test binary holds, then the link under it.
	f, err := os.CreateTemp(dir, "conform-*")
	if err != nil {
		return false
	}
	link := f.Name()
	f.Close()
	os.Remove(link)
	if err := os.Link(shared, link); err != nil {
		return false
	}
	c.path, c.remove = link, link
	return true
}

func goBuild(root, out string) ([]byte, error) {
	cmd := exec.Command("go", "build", "-o", out, "./cmd/conform")
	cmd.Dir = root
	return cmd.CombinedOutput()
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	// Which checkout the directory is for, for whoever cleans the cache.
	return dir, os.WriteFile(filepath.Join(dir, "checkout"), []byte(abs+"\n"), 0o644)
}

// Remove removes what Path built into a directory of its own, or this test
// binary's link to the shared binary; the shared binary stays for the next
// package and the next run, as Go's build cache does.
func (c *Conform) Remove() {
	if c.remove != "" {
		os.RemoveAll(c.remove)
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
