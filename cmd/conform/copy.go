package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/convspec/convspec"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/spec"
)

// copyCommand is `conform copy [-force] DIR`: the suite as data files, for
// a harness of one's own (toml-test's `copy`): the Gherkin scenarios under
// DIR/features, the golden case files under DIR/golden (spec/golden.md is
// their format) and the spec's documents under DIR/spec — exactly what this
// binary checks (`conform version` names it by digest).
func copyCommand(args []string, stdout, stderr io.Writer) int {
	flags := subcommandFlags("conform copy", "usage: conform copy [-force] DIR\n", stderr)
	force := flags.Bool("force", false, "write into DIR even when it holds files")
	if err := flags.Parse(args); err != nil {
		return exitUsage
	}
	if flags.NArg() != 1 {
		flags.Usage()
		return exitUsage
	}
	dir := flags.Arg(0)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 && !*force {
		fmt.Fprintf(stderr, "conform copy: %s is not empty (use -force to write into it)\n", dir)
		return exitUsage
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "conform copy: %v\n", err)
		return exitUsage
	}
	n := 0
	for _, tree := range []struct {
		into string
		fsys fs.FS
	}{{"features", features.FS}, {"golden", convspec.GoldenCases()}} {
		err := fs.WalkDir(tree.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := fs.ReadFile(tree.fsys, p)
			if err != nil {
				return err
			}
			n++
			return writeFile(filepath.Join(dir, tree.into, filepath.FromSlash(p)), b)
		})
		if err != nil {
			fmt.Fprintf(stderr, "conform copy: %v\n", err)
			return exitUsage
		}
	}
	for name, text := range map[string]string{
		"SPEC.md": spec.Text(), "protocol.md": spec.Protocol(), "decisions.md": spec.Decisions(), "traceability.md": spec.Traceability(), "golden.md": spec.Golden(),
	} {
		if err := writeFile(filepath.Join(dir, "spec", name), []byte(text)); err != nil {
			fmt.Fprintf(stderr, "conform copy: %v\n", err)
			return exitUsage
		}
		n++
	}
	digest, err := convspec.Digest()
	if err != nil {
		fmt.Fprintf(stderr, "conform copy: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "wrote %d files to %s: features/ (Gherkin scenarios), golden/ (golden cases, spec/golden.md), spec/; suite %s\n", n, dir, digest)
	return exitOK
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
