// Package golden is convspec's golden vectors: every scenario's requests
// and the responses the reference gives to them, as language-neutral JSON
// files (spec/golden.md) in testdata/golden/cases. Generate records them
// from the reference; Replay sends them to an implementation and compares
// what comes back, without Gherkin.
//
// Properties are not golden vectors: their inputs are generated anew by
// every run, so there is nothing fixed to record.
package golden

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// FormatVersion is the version of the file format of spec/golden.md.
const FormatVersion = 1

// Dir is where the golden cases live, relative to the repository root.
const Dir = "testdata/golden/cases"

// GzipAbove is the size beyond which a case file is written gzipped
// (NAME.json.gz): a few cases send hundreds of thousands of tokens of
// repetitive text, which compresses a hundredfold.
const GzipAbove = 256 << 10

// Case is one golden file: one scenario, its stable ID (as `conform list`
// prints it), its clauses and capability, and its exchanges in order.
type Case struct {
	Format int    `json:"format"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	// Feature is the scenario's feature file, relative to features/, and
	// Title the feature's name.
	Feature    string   `json:"feature"`
	Title      string   `json:"title"`
	Clauses    []string `json:"clauses"`
	Capability string   `json:"capability,omitempty"`
	// Level is the case's level and Formats the provider formats its
	// messages use (D-42): replay leaves out a case whose level or formats
	// the implementation did not declare, as conform does.
	Level   string   `json:"level,omitempty"`
	Formats []string `json:"formats,omitempty"`
	Steps   []Step   `json:"steps"`
}

// Step is one exchange: a request (Method and Params) or a raw line
// (Line), and the response the reference gave.
type Step struct {
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	// Line is a raw line sent as is, for the cases about input that is not
	// a valid request (PROTO-2).
	Line *string `json:"line,omitempty"`
	// Exactly one of Result and Error is set. For a line, ID is the
	// response's id as well.
	Result json.RawMessage `json:"result,omitempty"`
	Error  *protocol.Error `json:"error,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
}

// IsLine says whether the step sends a raw line.
func (s Step) IsLine() bool { return s.Line != nil }

// FileName is where a case goes: the directory of its feature file
// ("window/trim.feature" → "window/trim/"), then its ID with "_" for "/"
// (IDs never hold "_"), then .json.
func FileName(c Case) string {
	return strings.TrimSuffix(c.Feature, ".feature") + "/" + strings.ReplaceAll(c.ID, "/", "_") + ".json"
}

// Encode renders a case as written to disk: indented by two spaces, with a
// final newline. Messages keep their bytes: numbers as written, no
// escaping added.
func Encode(c Case) ([]byte, error) {
	raw, err := server.Marshal(c)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Write writes cases under dir and removes every other case file there, so
// that a scenario that is gone leaves no stale file behind. A file whose
// content has not changed is left alone (a gzipped file's bytes may differ
// between Go versions; its content does not).
func Write(dir string, cases []Case) error {
	fsys := os.DirFS(dir)
	old, err := list(fsys)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	files, err := render(cases)
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, f := range files {
		name, b := f.Path, f.Raw
		keep[name] = true
		if prev, err := readFile(fsys, name); err == nil && bytes.Equal(prev, b) {
			continue
		}
		if strings.HasSuffix(name, ".gz") {
			if b, err = compress(b); err != nil {
				return err
			}
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	for _, name := range old {
		if !keep[name] {
			if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
				return err
			}
		}
	}
	return nil
}

// render is what Write writes for cases: each case's file, named as under
// the directory (NAME.json, or NAME.json.gz above GzipAbove) and holding its
// content before compression, as Load reads it back.
func render(cases []Case) ([]File, error) {
	files := make([]File, 0, len(cases))
	names := map[string]bool{}
	for _, c := range cases {
		b, err := Encode(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.ID, err)
		}
		name := FileName(c)
		if len(b) > GzipAbove {
			name += ".gz"
		}
		if names[name] {
			return nil, fmt.Errorf("two cases write %s", name)
		}
		names[name] = true
		files = append(files, File{Case: c, Path: name, Raw: b})
	}
	return files, nil
}

func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// readFile reads a case file, decompressing a .json.gz one.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil || !strings.HasSuffix(name, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// list names every case file (*.json, *.json.gz) of fsys, sorted.
func list(fsys fs.FS) ([]string, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (path.Ext(p) == ".json" || strings.HasSuffix(p, ".json.gz")) {
			names = append(names, p)
		}
		return nil
	})
	slices.Sort(names)
	return names, err
}

// File is a case as loaded, with the file it came from.
type File struct {
	Case
	// Path is the file, relative to the directory it was loaded from.
	Path string
	// Raw is the file's content, decompressed.
	Raw []byte
}

// Load reads every case file under dir, sorted by path, and checks them: a
// known format, unique IDs, well-formed steps.
func Load(dir string) ([]File, error) {
	if st, err := os.Stat(dir); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	return LoadFS(os.DirFS(dir), dir)
}

// LoadFS reads and checks every case file of fsys as Load does; name says
// where fsys comes from in errors (a directory, or "the embedded cases").
func LoadFS(fsys fs.FS, name string) ([]File, error) {
	names, err := list(fsys)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s holds no golden files (*.json)", name)
	}
	var files []File
	seen := map[string]string{}
	for _, n := range names {
		where := path.Join(filepath.ToSlash(name), n)
		b, err := readFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		c, err := Decode(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if prev, dup := seen[c.ID]; dup {
			return nil, fmt.Errorf("%s: case %s is also in %s", where, c.ID, prev)
		}
		seen[c.ID] = n
		files = append(files, File{Case: c, Path: n, Raw: b})
	}
	return files, nil
}

// Decode parses and checks one case file.
func Decode(b []byte) (Case, error) {
	var c Case
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return Case{}, err
	}
	if c.Format != FormatVersion {
		return Case{}, fmt.Errorf("format %d, want %d", c.Format, FormatVersion)
	}
	if c.ID == "" || len(c.Clauses) == 0 {
		return Case{}, fmt.Errorf("a case without an id or clauses: %q", c.Name)
	}
	if c.Level != "" && !slices.Contains(protocol.Levels(), c.Level) {
		return Case{}, fmt.Errorf("%s: unknown level %q (known: %v)", c.ID, c.Level, protocol.Levels())
	}
	for _, f := range c.Formats {
		if !slices.Contains(protocol.Formats(), f) {
			return Case{}, fmt.Errorf("%s: unknown format %q (known: %v)", c.ID, f, protocol.Formats())
		}
	}
	for i, s := range c.Steps {
		if err := s.check(); err != nil {
			return Case{}, fmt.Errorf("%s, step %d: %w", c.ID, i+1, err)
		}
	}
	return c, nil
}

func (s Step) check() error {
	noResponse := s.Result == nil && s.Error == nil && s.ID == nil
	switch {
	case s.IsLine() && (s.Method != "" || s.Params != nil):
		return errors.New("a line step has neither method nor params")
	case !s.IsLine() && s.Method == "":
		return errors.New("neither line nor method")
	case !s.IsLine() && s.ID != nil:
		return errors.New("id is for line steps only")
	case s.IsLine() && noResponse:
		return nil // a line that gets no response
	case (s.Result == nil) == (s.Error == nil):
		return errors.New("want exactly one of result and error")
	}
	return nil
}
