package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"text/template"

	"github.com/convspec/convspec"
)

//go:embed templates
var templates embed.FS

// starter is what `conform init LANG` writes and what to do next.
type starter struct {
	files map[string]string // file written → template under templates/LANG
	kit   string            // the language whose kit files (convspec.KitFiles) are written beside the adapter
	goSum bool              // convspec's go.sum is written too: a Go starter's dependencies are convspec's
	note  string            // said before the next steps
	next  string            // the commands that follow, with %s for DIR
}

// published is what the starters say about the packages of the kits: the
// route for when they exist.
const published = "(once the kits are published: npm install convspec-kit / pip install convspec-kit / go get github.com/convspec/convspec)"

var starters = map[string]starter{
	"go": {files: map[string]string{"main.go": "main.go.tmpl"}},
	"node": {files: map[string]string{"adapter.js": "adapter.js.tmpl", "package.json": "package.json.tmpl"}, kit: "node",
		note: "the kit, convspec-kit.cjs (types: convspec-kit.d.cts), is beside adapter.js: nothing to install",
		next: "cd %s\nconform smoke node adapter.js\nconform node adapter.js"},
	"python": {files: map[string]string{"adapter.py": "adapter.py.tmpl"}, kit: "python",
		note: "the kit, convspec_kit.py, is beside adapter.py: nothing to install",
		next: "cd %s\nconform smoke python3 adapter.py\nconform python3 adapter.py"},
}

// initCommand is `conform init [-force] [-convspec DIR] LANG [DIR]`: a
// starter adapter of at most 40 lines on the language's kit, with a TODO
// per capability and a placeholder window, so that `conform smoke` passes
// at once and `conform` then shows what the real library must do. The kit
// comes from the binary (Node, Python) or from a checkout of convspec (Go):
// no package registry is needed.
func initCommand(args []string, stdout, stderr io.Writer) int {
	langs := slices.Sorted(maps.Keys(starters))
	fs := subcommandFlags("conform init", fmt.Sprintf("usage: conform init [-force] [-convspec DIR] %s [DIR]\n", strings.Join(langs, "|")), stderr)
	force := fs.Bool("force", false, "overwrite files that exist")
	clone := fs.String("convspec", "", "go: the `DIR` of a convspec clone that go.mod's replace directive names (default: ../convspec relative to the starter)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return exitUsage
	}
	lang, dir := fs.Arg(0), "."
	if fs.NArg() == 2 {
		dir = fs.Arg(1)
	}
	st, ok := starters[lang]
	if !ok {
		fmt.Fprintf(stderr, "conform init: no starter for %q (there are: %s)\n", lang, strings.Join(langs, ", "))
		return exitUsage
	}
	data := starterData{}
	if lang == "go" {
		var err error
		if st, data, err = goStarter(dir, *clone); err != nil {
			fmt.Fprintf(stderr, "conform init: %v\n", err)
			return exitUsage
		}
	}
	written, err := writeStarter(lang, st, dir, data, *force)
	if err != nil {
		fmt.Fprintf(stderr, "conform init: %v\n", err)
		return exitUsage
	}
	for _, f := range written {
		fmt.Fprintf(stdout, "wrote %s\n", f)
	}
	fmt.Fprintf(stdout, "%s\nnext:\n%s\n%s\n", st.note, indentLines(fmt.Sprintf(st.next, dir), "  "), published)
	return exitOK
}

// starterData is what the templates are given.
type starterData struct {
	Name     string
	Convspec string // go.mod's replace target
}

// convspecModule is this module's path: a go.mod naming it marks a checkout.
const convspecModule = "github.com/convspec/convspec"

// goStarter is the Go starter for dir. Inside a checkout of convspec the
// starter is a package of the checkout's module and builds as it is;
// elsewhere it gets a go.mod whose replace directive points at a clone
// (clone, or ../convspec), since the module cannot be fetched until it is
// published.
func goStarter(dir, clone string) (starter, starterData, error) {
	st := starter{files: map[string]string{"main.go": "main.go.tmpl"}}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return st, starterData{}, err
	}
	if root := checkoutAbove(abs); root != "" {
		if clone != "" {
			return st, starterData{}, fmt.Errorf("-convspec: %s is inside the convspec checkout at %s, which it builds against; -convspec is for a starter outside it", dir, root)
		}
		st.note = fmt.Sprintf("inside the convspec checkout at %s: main.go builds against it as it is (no go.mod)", root)
		st.next = "cd %s && go build -o my-adapter .\nconform smoke ./my-adapter\nconform ./my-adapter"
		return st, starterData{}, nil
	}
	target := "../convspec"
	if clone != "" {
		if target, err = filepath.Abs(clone); err != nil {
			return st, starterData{}, err
		}
		if checkoutAbove(target) != target {
			return st, starterData{}, fmt.Errorf("-convspec %s: no go.mod of %s there", clone, convspecModule)
		}
	}
	st.files["go.mod"] = "go.mod.tmpl"
	st.goSum = true
	st.note = fmt.Sprintf("outside a convspec checkout: go.mod replaces %s with %s (the module is not published yet); point it at your clone", convspecModule, target)
	st.next = "cd %s && go mod tidy && go build -o my-adapter .\nconform smoke ./my-adapter\nconform ./my-adapter"
	return st, starterData{Convspec: filepath.ToSlash(target)}, nil
}

// checkoutAbove is the nearest directory at or above dir whose go.mod is
// convspec's, or "".
func checkoutAbove(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			if modulePath(b) == convspecModule {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func writeStarter(lang string, st starter, dir string, data starterData, force bool) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	data.Name = adapterName(filepath.Base(abs))
	var kit map[string][]byte
	if st.kit != "" {
		if kit, err = convspec.KitFiles(st.kit); err != nil {
			return nil, err
		}
	}
	var written []string
	names := slices.Concat(slices.Collect(maps.Keys(st.files)), slices.Collect(maps.Keys(kit)))
	slices.Sort(names)
	checked := names
	if st.goSum {
		checked = append(slices.Clip(names), "go.sum")
	}
	for _, name := range checked {
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		switch {
		case err == nil && fi.Mode()&fs.ModeSymlink != 0:
			// Even with -force: a link, dangling or not, would have the
			// starter written wherever it points, outside DIR (D-52).
			return written, fmt.Errorf("%s is a symbolic link: conform init does not write through one (remove it first)", path)
		case err == nil && !force:
			return written, fmt.Errorf("%s exists (use -force to overwrite it)", path)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, name := range names {
		path := filepath.Join(dir, name)
		if b, ok := kit[name]; ok {
			if err := writeNoFollow(path, b); err != nil {
				return written, err
			}
			written = append(written, path)
			continue
		}
		src, err := fs.ReadFile(templates, "templates/"+lang+"/"+st.files[name])
		if err != nil {
			return written, err
		}
		tmpl, err := template.New(name).Delims("{{", "}}").Parse(string(src))
		if err != nil {
			return written, fmt.Errorf("template %s: %w", name, err)
		}
		var out bytes.Buffer
		if err := tmpl.Execute(&out, data); err != nil {
			return written, fmt.Errorf("template %s: %w", name, err)
		}
		if err := writeNoFollow(path, out.Bytes()); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	if st.goSum {
		path := filepath.Join(dir, "go.sum")
		if err := writeNoFollow(path, convspec.GoSum); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	if len(written) == 0 {
		return nil, errors.New("nothing to write")
	}
	return written, nil
}

// writeNoFollow writes a file, refusing to follow a symbolic link in its
// last element: one made between the check above and the write is refused
// too (O_NOFOLLOW).
func writeNoFollow(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

var nonName = regexp.MustCompile(`[^a-z0-9-]+`)

// adapterName is a package-safe name from a directory's name.
func adapterName(base string) string {
	n := strings.Trim(nonName.ReplaceAllString(strings.ToLower(base), "-"), "-")
	if n == "" || n[0] >= '0' && n[0] <= '9' {
		n = "my-adapter" + n
	}
	return n
}

// modulePath is the path of a go.mod's module directive ("" when it has
// none): enough to recognise convspec's own go.mod.
func modulePath(gomod []byte) string {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}
