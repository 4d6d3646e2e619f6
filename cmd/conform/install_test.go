package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/convspec/convspec"
)

// TestGoInstall runs the scripts of testdata/install: conform installed
// by `go install` into an empty GOPATH and run in a directory outside any
// checkout, so that every file it needs must be in the binary. The module
// and build caches are the machine's, so that the install builds and
// downloads nothing it has not already.
func TestGoInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: go install takes a few seconds")
	}
	t.Parallel() // beside the other script and process tests: it waits on go install
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	env := map[string]string{}
	for _, name := range []string{"GOMODCACHE", "GOCACHE", "GOPROXY", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOTOOLCHAIN"} {
		out, err := exec.Command(goTool, "env", name).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", name, err)
		}
		env[name] = strings.TrimSpace(string(out))
	}
	checkout, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	digest, err := convspec.Digest()
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/install",
		Setup: func(e *testscript.Env) error {
			for k, v := range env {
				e.Setenv(k, v)
			}
			gopath := filepath.Join(e.WorkDir, "gopath")
			e.Setenv("GOPATH", gopath)
			e.Setenv("GOBIN", "")
			e.Setenv("GOFLAGS", "-buildvcs=false") // -mod=readonly: the install never edits the checkout
			e.Setenv("HOME", filepath.Join(e.WorkDir, "home"))
			e.Setenv("PATH", filepath.Dir(goTool)+string(os.PathListSeparator)+os.Getenv("PATH"))
			e.Setenv("CHECKOUT", checkout)
			e.Setenv("DIGEST", digest)
			return nil
		},
	})
}
