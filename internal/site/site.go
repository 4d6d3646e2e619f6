// Package site generates the spec site of `conform doc`: static HTML
// pages, readable on a phone as on a desktop, that need no server and no
// network. Every clause of SPEC.md is at an anchor named by its ID
// (spec.html#WIN-3), followed by its Gherkin scenarios (tables as tables),
// the properties that check it, its golden cases as request/response
// pairs, the decisions that concern it and the items of the source
// documents it encodes; index.html lists the clauses by capability (and
// level, where SPEC.md marks them), and every page searches by ID and
// words in the browser.
package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/convspec/convspec"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/golden"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/webui"
	"github.com/convspec/convspec/spec"
)

var clauseHeadingLine = regexp.MustCompile(`^#### ([A-Z]+-[0-9]+) — (.+)$`)

// Embedded is the Input of the suite built into conform.
func Embedded(version string) (Input, error) {
	in := Input{
		Spec: spec.Text(), Decisions: spec.Decisions(), Protocol: spec.Protocol(), Traceability: spec.Traceability(),
		Features: map[string]string{}, Properties: runner.Properties(), Version: version,
	}
	err := fs.WalkDir(features.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(features.FS, p)
		in.Features[p] = string(b)
		return err
	})
	if err != nil {
		return Input{}, fmt.Errorf("features: %w", err)
	}
	if in.Golden, err = golden.LoadFS(convspec.GoldenCases(), "the built-in golden cases"); err != nil {
		return Input{}, err
	}
	if in.Digest, err = convspec.Digest(); err != nil {
		return Input{}, err
	}
	return in, nil
}

// Files renders the site: every page and asset by its slash-separated
// path.
func Files(in Input) (map[string][]byte, error) {
	m, err := buildModel(in)
	if err != nil {
		return nil, err
	}
	p := &pages{m: m, propHome: map[string]string{}}
	for _, pr := range in.Properties {
		for _, id := range pr.Clauses {
			if _, ok := m.byID[id]; ok {
				p.propHome[pr.ID] = id
				break
			}
		}
	}
	index, err := p.searchIndex()
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"index.html":             []byte(p.index()),
		"spec.html":              []byte(p.spec()),
		"decisions.html":         []byte(p.decisionsPage()),
		"protocol.html":          []byte(p.document("protocol", in.Protocol)),
		"traceability.html":      []byte(p.document("traceability", in.Traceability)),
		"assets/style.css":       []byte(webui.CSS),
		"assets/script.js":       []byte(webui.JS),
		"assets/search-index.js": index,
	}, nil
}

// Write renders the site into dir, creating it if needed; files already
// there that the site does not write are left alone.
func Write(dir string, in Input) (map[string][]byte, error) {
	files, err := Files(in)
	if err != nil {
		return nil, err
	}
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return nil, err
		}
	}
	return files, nil
}
