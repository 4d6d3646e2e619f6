package main

import (
	"bytes"
	"embed"
	"errors"
	"flag"
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
)

//go:embed templates
var templates embed.FS

// starter is what `conform init LANG` writes and what to do next.
type starter struct {
	files map[string]string // file written → template under templates/LANG
	next  string            // the commands that follow, with %s for DIR
}

var starters = map[string]starter{
	"go": {files: map[string]string{"main.go": "main.go.tmpl"},
		next: "cd %s && go mod init example.com/my-adapter && go get github.com/convspec/convspec && go build -o my-adapter .\nconform smoke ./my-adapter\nconform ./my-adapter"},
	"node": {files: map[string]string{"adapter.js": "adapter.js.tmpl", "package.json": "package.json.tmpl"},
		next: "cd %s && npm install\nconform smoke node adapter.js\nconform node adapter.js"},
	"python": {files: map[string]string{"adapter.py": "adapter.py.tmpl"},
		next: "cd %s  # with convspec_kit.py beside adapter.py, or pip install convspec-kit\nconform smoke python3 adapter.py\nconform python3 adapter.py"},
}

// initCommand is `conform init [-force] LANG [DIR]`: a starter adapter of
// at most 40 lines on the language's kit, with a TODO per capability and a
// placeholder window, so that `conform smoke` passes at once and `conform`
// then shows what the real library must do.
func initCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform init", flag.ContinueOnError)
	fs.SetOutput(stderr)
	force := fs.Bool("force", false, "overwrite files that exist")
	langs := slices.Sorted(maps.Keys(starters))
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: conform init [-force] %s [DIR]\n", strings.Join(langs, "|"))
		fs.PrintDefaults()
	}
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
	written, err := writeStarter(lang, st, dir, *force)
	if err != nil {
		fmt.Fprintf(stderr, "conform init: %v\n", err)
		return exitUsage
	}
	for _, f := range written {
		fmt.Fprintf(stdout, "wrote %s\n", f)
	}
	fmt.Fprintf(stdout, "next:\n%s\n", indentLines(fmt.Sprintf(st.next, dir), "  "))
	return exitOK
}

func writeStarter(lang string, st starter, dir string, force bool) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	data := struct{ Name string }{Name: adapterName(filepath.Base(abs))}
	var written []string
	names := slices.Sorted(maps.Keys(st.files))
	for _, name := range names {
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
		path := filepath.Join(dir, name)
		if err := writeNoFollow(path, out.Bytes()); err != nil {
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
