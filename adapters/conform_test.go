package adapters_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/convspec/convspec/internal/usertest"
)

// conformBuild is one conform for the whole package (TestMain removes it).
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
