package convspec

import (
	"embed"
	"fmt"
	"path"
)

// The kits an adapter is written on, embedded so that `conform init` can
// write one beside a starter adapter: the starter then runs at once, with
// nothing fetched from a package registry (the kits are not published).
//
//go:embed adapters/node/convspec-kit.cjs adapters/node/convspec-kit.d.cts adapters/python/convspec_kit.py
var kitFS embed.FS

// GoSum is this module's go.sum: the checksums of its dependencies, which a
// Go starter outside a checkout needs to build offline (its go.mod replaces
// this module with a clone, whose dependencies it then shares).
//
//go:embed go.sum
var GoSum []byte

// kitFiles names each language's kit files, under adapters/.
var kitFiles = map[string][]string{
	"node":   {"node/convspec-kit.cjs", "node/convspec-kit.d.cts"},
	"python": {"python/convspec_kit.py"},
}

// KitFiles returns the kit files of a language ("node", "python") by base
// name: what an adapter puts beside itself. Go has none: its kit is package
// adapter of this module.
func KitFiles(lang string) (map[string][]byte, error) {
	names, ok := kitFiles[lang]
	if !ok {
		return nil, fmt.Errorf("no kit file for %q", lang)
	}
	out := make(map[string][]byte, len(names))
	for _, n := range names {
		b, err := kitFS.ReadFile("adapters/" + n)
		if err != nil {
			return nil, fmt.Errorf("kit file %s: %w", n, err)
		}
		out[path.Base(n)] = b
	}
	return out, nil
}
