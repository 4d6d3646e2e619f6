package convspec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"slices"

	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/spec"
)

// Digest identifies the embedded suite: the SHA-256 of the spec's
// documents, every feature file and every golden case file, each preceded
// by its name and length, in a fixed order. Two conform binaries with the
// same digest check the same things (the properties, being code, are
// named by the module version instead).
func Digest() (string, error) {
	h := sha256.New()
	add := func(name string, b []byte) {
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(b))
		h.Write(b)
	}
	add("spec/SPEC.md", []byte(spec.Text()))
	add("spec/decisions.md", []byte(spec.Decisions()))
	add("spec/protocol.md", []byte(spec.Protocol()))
	add("spec/traceability.md", []byte(spec.Traceability()))
	for _, tree := range []struct {
		prefix string
		fsys   fs.FS
	}{{"features/", features.FS}, {"testdata/golden/cases/", GoldenCases()}} {
		var names []string
		err := fs.WalkDir(tree.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				names = append(names, p)
			}
			return err
		})
		if err != nil {
			return "", fmt.Errorf("digest of %s: %w", tree.prefix, err)
		}
		slices.Sort(names)
		for _, n := range names {
			b, err := fs.ReadFile(tree.fsys, n)
			if err != nil {
				return "", fmt.Errorf("digest of %s%s: %w", tree.prefix, n, err)
			}
			add(tree.prefix+n, b)
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
