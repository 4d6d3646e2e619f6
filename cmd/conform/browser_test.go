package main

// The browser test: the spec site, the HTML report and the matrix, loaded
// in headless Chromium, checked through the DOM, and photographed into
// bin/ for people to look at.

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/convspec/convspec/spec"
)

// chromium finds the browser: $CONFORM_CHROMIUM, or Debian's chromium (or
// a Chrome) on PATH.
func chromium() string {
	if p := os.Getenv("CONFORM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browserPages writes the three pages into dir: the site (conform doc),
// the HTML report of a run against a faulty variant, linked to the site,
// and the matrix of three JSON reports.
func browserPages(t *testing.T, dir string) (site, report, matrix string) {
	t.Helper()
	var out, errOut strings.Builder
	must := func(want int, args ...string) {
		t.Helper()
		out.Reset()
		errOut.Reset()
		if code := run(args, nil, &out, &errOut); code != want {
			t.Fatalf("conform %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, out.String(), errOut.String())
		}
	}
	site = filepath.Join(dir, "site")
	must(exitOK, "doc", "-o", site)
	rep := func(name string, want int, args ...string) string {
		p := filepath.Join(dir, name+".json")
		must(want, append([]string{"-report", "none", "-seed", "1", "-checks", "10", "-json", p}, args...)...)
		return p
	}
	report = filepath.Join(dir, "report.html")
	// Scenarios only: the properties' shrinking would take most of the
	// test's time and shows nothing the scenarios do not.
	a := rep("evict-newest-middle", exitFailures, "-run", "^(WIN|SUM|MET)-", "-mutant", "evict-newest-middle", "-html", report, "-spec-url", "site/spec.html")
	b := rep("estimate-floor", exitFailures, "-run", "^(WIN|EST|MSG)-", "-mutant", "estimate-floor")
	c := rep("reference", exitOK, "-run", "^(WIN|EST|SUM|MSG|MET)-")
	matrix = filepath.Join(dir, "matrix.html")
	must(exitOK, "matrix", "-o", matrix, "-spec-url", "site/spec.html", a, b, c)
	return filepath.Join(site, "index.html"), report, matrix
}

func fileURL(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

// browser is one headless Chromium with the errors its pages reported.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

func (b *browser) errs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

func newBrowser(t *testing.T, path string) *browser {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true), chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	)
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelA)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(cancelB)
	b := &browser{ctx: bctx}
	err := chromedp.Listen(bctx, func(ev any) {
		var msg string
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeAssert {
				var args []string
				for _, a := range e.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				msg = "console." + string(e.Type) + ": " + strings.Join(args, " ")
			}
		case *runtime.EventExceptionThrown:
			msg = "exception: " + (&chromedp.ExceptionError{ExceptionDetails: e.ExceptionDetails}).Error()
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError {
				msg = "log: " + e.Entry.Text + " " + e.Entry.URL
			}
		}
		if msg != "" {
			b.mu.Lock()
			b.errors = append(b.errors, msg)
			b.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	if _, err := chromedp.Call(bctx, cdplog.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enabling the log domain: %v", err)
	}
	return b
}

// eval runs a script that returns a JSON-able value into v.
func (b *browser) eval(t *testing.T, script string, v any) {
	t.Helper()
	raw, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]byte](script))
	if err != nil {
		t.Fatalf("evaluating %.80q: %v", script, err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("evaluating %.80q: %v (%s)", script, err, raw)
	}
}

func (b *browser) do(t *testing.T, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// shot writes a screenshot of the viewport to bin/NAME.png.
func (b *browser) shot(t *testing.T, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("..", "..", "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", p)
}

// navigate loads a page and waits until its scripts have run.
func (b *browser) navigate(t *testing.T, u string) {
	t.Helper()
	defer func(start time.Time) {
		t.Logf("loaded %s in %s", path.Base(u), time.Since(start).Round(time.Millisecond))
	}(time.Now())
	b.do(t, "loading "+u, chromedp.Navigate(u), chromedp.WaitReady("body"))
}

func TestBrowser(t *testing.T) {
	t.Parallel() // it waits on Chromium
	path := chromium()
	if path == "" {
		t.Skip("no Chromium: install Debian's chromium (.ci/run does) or set CONFORM_CHROMIUM to run the browser test of the spec site, the HTML report and the matrix")
	}
	dir := t.TempDir()
	siteIndex, report, matrix := browserPages(t, dir)
	b := newBrowser(t, path)
	specPage := filepath.Join(filepath.Dir(siteIndex), "spec.html")

	start := time.Now()
	defer func() { t.Logf("browser checks took %s", time.Since(start).Round(time.Millisecond)) }()
	t.Run("site", func(t *testing.T) {
		// Every clause is at an anchor named by its ID, and every link
		// of the contents page to the spec resolves.
		b.navigate(t, fileURL(specPage))
		var ids []string
		b.eval(t, `Array.from(document.querySelectorAll("section.clause")).map(e => e.id)`, &ids)
		have := map[string]bool{}
		for _, id := range ids {
			have[id] = true
		}
		for _, c := range spec.Clauses() {
			if !have[c.ID] {
				t.Errorf("spec.html has no clause section with id %s", c.ID)
			}
		}
		var broken []string
		b.eval(t, `Array.from(document.querySelectorAll("a[href^='#'], a[href^='spec.html#']")).map(a => decodeURIComponent(a.getAttribute("href").split("#")[1])).filter(id => !document.getElementById(id))`, &broken)
		if len(broken) > 0 {
			t.Errorf("spec.html links to %d missing anchors: %.10q", len(broken), broken)
		}
		b.navigate(t, fileURL(siteIndex))
		var targets []string
		b.eval(t, `Array.from(document.querySelectorAll("a[href^='spec.html#']")).map(a => a.getAttribute("href").slice(10))`, &targets)
		if len(targets) < len(spec.Clauses()) {
			t.Errorf("index.html links to %d clauses, want every one of the %d", len(targets), len(spec.Clauses()))
		}
		for _, id := range targets {
			if !have[id] {
				t.Errorf("index.html links to spec.html#%s, which does not exist", id)
			}
		}
		b.shot(t, "browser-site-index")

		// Search finds a clause by its ID, and by words of its title.
		b.do(t, "searching", chromedp.SendKeys("#search", "WIN-3"))
		var first string
		b.eval(t, `(document.querySelector("#search-results a") || {}).href || ""`, &first)
		if !strings.HasSuffix(first, "spec.html#WIN-3") {
			t.Errorf("searching WIN-3: first result %q, want spec.html#WIN-3", first)
		}
		var byWords []string
		b.eval(t, `window.convspecSearch("four characters a token").map(e => e.id)`, &byWords)
		if len(byWords) == 0 || byWords[0] != "EST-1" {
			t.Errorf("searching \"four characters a token\": %q, want EST-1 first", byWords)
		}

		// A clause with its evidence; then the same page on a phone.
		b.navigate(t, fileURL(specPage)+"#WIN-4")
		b.eval(t, `(() => { const d = document.querySelector("#WIN-4 details.golden"); d.open = true; document.getElementById("WIN-4").scrollIntoView(); return true })()`, new(bool))
		b.shot(t, "browser-site-clause")
		b.do(t, "phone viewport", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
		b.navigate(t, fileURL(specPage)+"#EST-3")
		var overflow struct {
			Px   int
			Wide []string
		}
		b.eval(t, `(() => {
			const w = document.documentElement.clientWidth;
			if (document.documentElement.scrollWidth <= w) return {Px: 0, Wide: []};
			const wide = Array.from(document.querySelectorAll("main *")).filter(e => e.getBoundingClientRect().right > w + 1 && !e.closest(".scroll, table, pre"));
			return {Px: document.documentElement.scrollWidth - w, Wide: wide.slice(0, 5).map(e => e.tagName + "." + e.className + ": " + e.textContent.slice(0, 60))};
		})()`, &overflow)
		if overflow.Px > 0 {
			t.Errorf("on a 390 px wide phone, spec.html is %d px wider than the screen; too wide: %q", overflow.Px, overflow.Wide)
		}
		b.shot(t, "browser-site-phone")
		b.do(t, "desktop viewport", chromedp.EmulateViewport(1280, 900))
	})

	t.Run("report", func(t *testing.T) {
		b.navigate(t, fileURL(report))
		var state struct {
			Failures int
			Open     bool
			Visible  bool
			Marks    int
			Copy     bool
			Clause   string
			Missing  []string
		}
		b.eval(t, `(() => {
			const fs = document.querySelectorAll("details.failure");
			return {Failures: fs.length, Open: fs.length > 0 && fs[0].open};
		})()`, &state)
		if state.Failures == 0 || state.Open {
			t.Fatalf("report: %d failures, first open %v; want failures, closed", state.Failures, state.Open)
		}
		b.shot(t, "browser-report")
		// Expand a failure that shows what came back against what was wanted.
		sel := `details.failure[id="case-WIN-4/one-over-the-cap-evicts-the-oldest-middle-message"] > summary`
		b.do(t, "expanding a failure", chromedp.Click(sel))
		b.eval(t, `(() => {
			const f = document.querySelector(`+"`"+sel+"`"+`).parentElement;
			f.scrollIntoView();
			const pre = f.querySelector("pre");
			const link = f.querySelector("a[href*='spec.html#']");
			return {Failures: document.querySelectorAll("details.failure").length, Open: f.open,
				Visible: !!pre && pre.getBoundingClientRect().height > 0,
				Marks: document.querySelectorAll("details.failure mark").length,
				Copy: !!f.querySelector("button.copy"), Clause: link ? link.getAttribute("href") : ""};
		})()`, &state)
		if !state.Open || !state.Visible {
			t.Errorf("a click on a failure's summary: open %v, detail visible %v; want both", state.Open, state.Visible)
		}
		if state.Marks == 0 {
			t.Error("no failure highlights what differs (no <mark>)")
		}
		if !state.Copy {
			t.Error("the failure has no copy button for its reproduce command")
		}
		if !strings.HasPrefix(state.Clause, "site/spec.html#") {
			t.Errorf("the failure's clause links to %q, want site/spec.html#ID", state.Clause)
		} else {
			id := strings.TrimPrefix(state.Clause, "site/spec.html#")
			if _, ok := spec.Lookup(id); !ok {
				t.Errorf("the failure links to clause %q, which the spec does not have", id)
			}
		}
		b.shot(t, "browser-report-failure")
	})

	t.Run("matrix", func(t *testing.T) {
		b.navigate(t, fileURL(matrix))
		var st struct {
			Columns   int
			Broken    []string
			FirstRow  string
			SortedRow string
		}
		b.eval(t, `(() => {
			const links = Array.from(document.querySelectorAll("td.cell a"));
			return {Columns: document.querySelectorAll("#clauses thead th").length,
				Broken: links.map(a => a.getAttribute("href").slice(1)).filter(id => !document.getElementById(id)),
				FirstRow: document.querySelector("#clauses tbody tr td").textContent};
		})()`, &st)
		if st.Columns != 2+3 {
			t.Errorf("the clause table has %d columns, want clause, capability and 3 implementations", st.Columns)
		}
		if len(st.Broken) > 0 {
			t.Errorf("matrix cells link to missing failures: %q", st.Broken)
		}
		// Sort by the first implementation's column, most failures first.
		b.do(t, "sorting", chromedp.Click("#clauses thead th:nth-child(3)"), chromedp.Click("#clauses thead th:nth-child(3)"))
		b.eval(t, `document.querySelector("#clauses tbody tr td").textContent`, &st.SortedRow)
		if st.SortedRow == st.FirstRow {
			t.Errorf("sorting by an implementation's column left %q first", st.FirstRow)
		}
		var sorted string
		b.eval(t, `document.querySelector("#clauses thead th:nth-child(3)").getAttribute("aria-sort")`, &sorted)
		if sorted != "descending" {
			t.Errorf("after two clicks the column sorts %q, want descending", sorted)
		}
		b.eval(t, `(() => { window.scrollTo(0, 0); return true })()`, new(bool))
		b.shot(t, "browser-matrix")
	})

	time.Sleep(100 * time.Millisecond) // let the last events arrive
	if errs := b.errs(); len(errs) > 0 {
		t.Errorf("the pages reported %d errors:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}
