package conformtest_test

import (
	"testing"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformtest"
)

// myTokenizer stands for the library under test.
type myTokenizer struct{}

func (myTokenizer) Encode(text string) ([]int, error) { return nil, nil }

// Run is the whole of a Go library's conformance test: a subtest per case,
// named by its case ID, so that `go test -run 'TestConform/mylib/TOK-1/'`
// selects the scenarios of one clause. Cases of capabilities the library
// does not implement are skipped as not applicable.
func ExampleRun() {
	// In mylib_test.go:
	_ = func(t *testing.T) { // func TestConform(t *testing.T)
		conformtest.Run(t, adapter.Implementation{Name: "mylib", Version: "1.0.0", Impl: myTokenizer{}})
	}
}

// RunTarget runs the suite against any target: an external program
// (target.StartProcess), or an in-process one built another way.
func ExampleRunTarget() {
	_ = func(t *testing.T) {
		tg, err := adapter.InProcess(adapter.Implementation{Name: "mylib", Version: "1.0.0", Impl: myTokenizer{}})
		if err != nil {
			t.Fatal(err)
		}
		defer tg.Close()
		conformtest.RunTarget(t, "mylib", tg)
	}
}
