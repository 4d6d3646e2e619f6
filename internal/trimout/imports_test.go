package trimout

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTheJudgeDoesNotReadWithTheReference: the judge's packages — the
// trimmer checks here, the scenarios' steps, the judge's message reader —
// import nothing of the reference but its cl100k tokenizer, TOK-1's
// external standard (D-64), so that a mistake in the reference's reader
// is not the judge's too. legacy.go, which hands the trimmer properties
// the reference's messages until they read with judgemsg, is the one
// file allowed more.
func TestTheJudgeDoesNotReadWithTheReference(t *testing.T) {
	allowed := map[string]bool{"github.com/convspec/convspec/reference/tokens": true}
	for _, dir := range []string{".", "../steps", "../judgemsg"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Fatalf("%s: no Go files", dir)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") || filepath.Base(file) == "legacy.go" && dir == "." {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if strings.HasPrefix(path, "github.com/convspec/convspec/reference/") && !allowed[path] {
					t.Errorf("%s imports %s: the judge reads with internal/judgemsg and measures with internal/ecmajson", file, path)
				}
			}
		}
	}
}
