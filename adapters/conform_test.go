package adapters_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/convspec/convspec/internal/usertest"
)

// conformChecks is the -checks of the whole-suite runs of the kits' toy
// adapters: every scenario and every property runs, each property on 20
// generated cases, the strength make test needs to say that a kit's adapter
// conforms; make test-full gives 100, conform's default, the full strength
// (D-87).
var conformChecks = flag.Int("conform.checks", 20, "generated cases per property in the whole-suite runs of the kits' adapters (conform -checks)")

// conformBuild is the conform of every test of the package, shared with the
// other packages that run it (usertest.Conform); TestMain removes it only
// where it was built into a directory of its own.
var conformBuild usertest.Conform

// buildConform builds cmd/conform once for every test of the package and
// returns its path.
func buildConform(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return conformBuild.Path(t, root)
}

func TestMain(m *testing.M) {
	code := m.Run()
	conformBuild.Remove()
	os.Exit(code)
}
