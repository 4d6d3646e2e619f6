package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestInitScripts runs testdata/init: what `conform init LANG` writes passes
// `conform smoke` unchanged, in each language whose tools are here. The
// starters use the kits of this checkout: Go through a replace directive,
// Python through PYTHONPATH, Node through a built copy of adapters/node.
func TestInitScripts(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	nodeKit := buildNodeKit(t, repo)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/init",
		// The scripts call conform through TestMain's command table.
		Setup: func(env *testscript.Env) error {
			env.Setenv("REPO", repo)
			env.Setenv("NODE_KIT", nodeKit)
			for _, v := range []string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE"} {
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
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "nodekit":
				return nodeKit != "", nil
			case "pythonkit":
				_, err := os.Stat(filepath.Join(repo, "adapters", "python", "convspec_kit.py"))
				return err == nil, nil
			}
			return false, nil
		},
	})
}

// buildNodeKit builds a copy of adapters/node (npm ci, tsc) and returns a
// directory to put on NODE_PATH, or "" when node, npm or the kit is absent.
func buildNodeKit(t *testing.T, repo string) string {
	src := filepath.Join(repo, "adapters", "node")
	if _, err := os.Stat(filepath.Join(src, "package.json")); err != nil {
		t.Log("no Node kit in adapters/node: the node starter is not tried")
		return ""
	}
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("%s is not on PATH: the node starter is not tried", tool)
			return ""
		}
	}
	modules := t.TempDir()
	kit := filepath.Join(modules, "convspec-kit")
	if out, err := exec.Command("cp", "-R", src, kit).CombinedOutput(); err != nil {
		t.Fatalf("copying the Node kit: %v\n%s", err, out)
	}
	os.RemoveAll(filepath.Join(kit, "node_modules"))
	for _, args := range [][]string{{"npm", "ci", "--no-audit", "--no-fund"}, {"npm", "run", "build"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = kit
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("building the Node kit (%v): %v\n%s", args, err, out)
		}
	}
	return modules
}
