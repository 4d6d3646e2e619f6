package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestInitScripts runs testdata/init: what `conform init LANG` writes
// passes `conform smoke` unchanged, in each language whose tools are here,
// with nothing installed: the Node and Python kits come out of the binary,
// and the Go starter's go.mod names this checkout (-convspec) and builds
// from the module cache with GOPROXY=off.
func TestInitScripts(t *testing.T) {
	t.Parallel() // beside the other script and process tests
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/init",
		// The scripts call conform through TestMain's command table.
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			for _, v := range []string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE"} {
				if val, ok := os.LookupEnv(v); ok {
					env.Setenv(v, val)
				}
			}
			if os.Getenv("GOCACHE") == "" {
				if dir, err := os.UserCacheDir(); err == nil {
					env.Setenv("GOCACHE", filepath.Join(dir, "go-build"))
				}
			}
			if os.Getenv("GOMODCACHE") == "" && os.Getenv("GOPATH") == "" {
				if home, err := os.UserHomeDir(); err == nil {
					env.Setenv("GOPATH", filepath.Join(home, "go"))
				}
			}
			return nil
		},
	})
}
