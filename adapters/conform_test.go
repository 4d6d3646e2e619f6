package adapters_test

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// One conform for the whole package: the tests run side by side, and each
// building its own would link the same binary again.
var conformBuild struct {
	once      sync.Once
	dir, path string
	out       []byte
	err       error
}

// buildConform builds cmd/conform once for every test of the package and
// returns its path; TestMain removes it.
func buildConform(t *testing.T) string {
	t.Helper()
	b := &conformBuild
	b.once.Do(func() {
		root, err := filepath.Abs("..")
		if err != nil {
			b.err = err
			return
		}
		if b.dir, b.err = os.MkdirTemp("", "convspec-adapters-"); b.err != nil {
			return
		}
		b.path = filepath.Join(b.dir, "conform")
		b.out, b.err = run(root, "go", "build", "-o", b.path, "./cmd/conform")
	})
	if b.err != nil {
		t.Fatalf("go build ./cmd/conform: %v\n%s", b.err, b.out)
	}
	return b.path
}

// removeConform removes what buildConform built.
func removeConform() {
	if conformBuild.dir != "" {
		os.RemoveAll(conformBuild.dir)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	removeConform()
	os.Exit(code)
}
