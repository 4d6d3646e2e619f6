// Package convspec carries the parts of the conformance suite that live at
// the repository's root rather than beside the code that reads them — the
// golden case files — so that a conform built by `go install` holds the
// whole suite and never reads a checkout at run time.
package convspec

import (
	"embed"
	"io/fs"
)

//go:embed testdata/golden/cases
var goldenFS embed.FS

// GoldenCases holds the golden case files (spec/golden.md), by path
// relative to testdata/golden/cases.
func GoldenCases() fs.FS {
	sub, err := fs.Sub(goldenFS, "testdata/golden/cases")
	if err != nil {
		panic(err) // the pattern above guarantees the directory
	}
	return sub
}
