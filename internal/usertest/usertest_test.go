package usertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeModule writes a module whose cmd/conform prints say.
func fakeModule(t *testing.T, root, say string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, "cmd", "conform"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":              "module example.com/fake\n\ngo 1.21\n",
		"cmd/conform/main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"" + say + "\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func output(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	return strings.TrimSpace(string(out))
}

// Two test binaries share one build, each running a link of its own: a
// later build after a change replaces the shared binary, never the one an
// earlier test binary is running; Remove removes only the link.
func TestConformIsSharedAndKeptWhileUsed(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go on PATH")
	}
	// Go's build cache is under the user cache directory too: keep it
	// where it is, or the fake module would be compiled from nothing.
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOCACHE", strings.TrimSpace(string(gocache)))
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	fakeModule(t, root, "first")
	var first Conform
	a := first.Path(t, root)
	dir, err := sharedDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(a) != dir {
		t.Fatalf("built %s, not a link in the shared directory %s", a, dir)
	}
	fakeModule(t, root, "second") // a change while the first test binary still runs
	var second Conform
	b := second.Path(t, root)
	if a == b {
		t.Fatalf("two test binaries were given one path, %s", a)
	}
	if got := output(t, a); got != "first" {
		t.Errorf("the first test binary's conform now says %q: the later build replaced it", got)
	}
	if got := output(t, b); got != "second" {
		t.Errorf("the later build says %q", got)
	}
	first.Remove()
	if _, err := os.Stat(a); !os.IsNotExist(err) {
		t.Errorf("Remove left %s: %v", a, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "conform")); err != nil {
		t.Errorf("Remove removed the shared binary: %v", err)
	}
	second.Remove()
}
