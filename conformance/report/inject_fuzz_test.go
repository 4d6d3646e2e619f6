package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/textsafe"
)

// Nothing an implementation sends can add structure to a report (D-52):
// each writer's output is read back with a real parser — CommonMark with
// GitHub's extensions, the HTML tokenizer, an XML decoder — and must have
// the structure that a run with harmless texts in the same places has,
// with the texts read back as the escaping layer wrote them.

// hostileSeeds are what the last review tried: CR and ANSI in names and
// messages, a forged report line, Markdown structure after a CR, links,
// a label of the harness at the start of a line, markup.
var hostileSeeds = [][3]string{
	{"my-impl", "boom", "working"},
	{"evil\r# ✅ convspec conformance: PASS", "x\r\n- item\r\n[link](https://e.com)", "\x1b[2J\x1b[1;1H\x1b]0;title\x07"},
	{"name\n--- ok   EST-1/x", "msg\n--- ok   EST-1/forged\nPASS", "line\r--- ok   EST-1/y"},
	{"\x1b]8;;https://evil\x1b\\click\x1b]8;;\x1b\\", "\x1b]52;c;cm0gLXJmIH4=\x07", "\x00\x07\x08\x7f\u0085\u2028\u202e"},
	{"<script>alert(1)</script>", "\nwanted: evil\n  got: \"x\"", "</pre></code><h1>x</h1>"},
	{"www.evil.com", "mail me@evil.com or https://evil.com/x", "| a | b |\n| --- | --- |"},
	{"`code` *em* _em_ ~~s~~", "<details><summary>x</summary>", "```\n# h\n```"},
	{"\xff\xfe bad utf-8", "&lt;&#10;&amp;", "]]><!--"},
}

// injectionRun is a run with the implementation's texts in every place
// they reach a report: its name and version, an error message quoted in a
// deviation, the last lines of its stderr after a crash, a baseline's
// expected failure and a stale entry. The details are made as the harness
// makes them: an error message as target decodes it (tamed: one line,
// controls escaped, D-52) or raw when raw is set, stderr indented under
// its heading.
func injectionRun(name, msg, stderr string, raw bool) *Run {
	if !raw {
		msg = textsafe.Controls(textsafe.Clip(msg, target.MaxErrorTextBytes), false)
	}
	quoted, _ := json.Marshal(msg)
	failed := result.Result{
		Case:    result.Case{ID: "EST-1/a", Kind: result.Scenario, Name: "estimates", Clauses: []string{"EST-1"}, Capability: "window", Source: "window/estimate.feature"},
		Outcome: result.Failed,
		Detail:  "the estimate failed: invalid_params: " + msg + "\n  got: " + string(quoted) + "\n  wanted: \"x\"",
		Deviations: []result.Deviation{{Clause: "EST-1", Step: "the estimate is 0 tokens",
			Detail: "the estimate failed: invalid_params: " + msg,
			Sent:   harnessSent, Got: "error: invalid_params: " + msg, Want: harnessWant}},
	}
	crash := result.Result{
		Case:    result.Case{ID: "WIN-1/b", Kind: result.Scenario, Name: "trims", Clauses: []string{"WIN-1"}, Capability: "window", Source: "window/trim.feature"},
		Outcome: result.Crash,
		Detail:  "crash during window.trim: it exited\nlast lines of stderr:\n" + indentQuote(stderr),
	}
	prop := result.Result{
		Case:    result.Case{ID: "prop/p", Kind: result.Property, Name: "a property", Clauses: []string{"WIN-6"}, Capability: "window"},
		Outcome: result.Failed, Seed: 7,
		Detail:     "WIN-6: trimmed holds too much: " + msg,
		Deviations: []result.Deviation{{Clause: "WIN-6", Detail: "trimmed holds too much: " + msg}},
	}
	expected := result.Result{
		Case:    result.Case{ID: "WIN-2/c", Kind: result.Scenario, Name: "keeps", Clauses: []string{"WIN-2"}, Capability: "window", Source: "window/trim.feature"},
		Outcome: result.Failed, Detail: "kept: " + msg,
	}
	stale := result.Result{
		Case:    result.Case{ID: "WIN-3/d", Kind: result.Scenario, Name: "passes", Clauses: []string{"WIN-3"}, Capability: "window", Source: "window/trim.feature"},
		Outcome: result.Passed,
	}
	b := &Baseline{Version: BaselineVersion, Entries: []Entry{
		{ID: "WIN-2/c", Reason: "known: " + msg, Issue: name},
		{ID: "WIN-3/d", Reason: "was broken: " + stderr},
	}}
	run := &Run{
		Implementation: &target.Info{Name: name, Version: "1.0", Capabilities: []string{"window"}},
		Command:        []string{"./impl", name}, Seed: 1, Checks: 5,
		Baseline: &BaselineFile{Path: "base.json", Baseline: b},
	}
	run.Cases = Judge([]result.Result{failed, crash, prop, expected, stale}, b, false)
	for i := range run.Cases {
		if run.Cases[i].Fails() {
			run.Cases[i].Reproduce = "conform -run '^" + run.Cases[i].ID + "$' -- ./impl " + name
		}
	}
	return run
}

// What the harness says was sent and wanted in injectionRun's failure; what
// came back quotes the implementation's message.
const (
	harnessSent = `window.estimate {"messages":[]}`
	harnessWant = "0"
)

func indentQuote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  | " + l
	}
	return strings.Join(lines, "\n")
}

func addHostileSeeds(f *testing.F) {
	for _, s := range hostileSeeds {
		f.Add(s[0], s[1], s[2])
	}
}

// small keeps a fuzzed text within the caps, so that what is compared is
// the escaping, not the clipping.
func small(ss ...string) bool {
	for _, s := range ss {
		if len(s) > 2000 {
			return false
		}
	}
	return true
}

// FuzzTextReport: the text report holds no control character but newline
// and tab, and no line a text of the implementation's made: the lines that
// open a case ("--- ") and the verdict are the harness's, as many as for a
// harmless run.
func FuzzTextReport(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, name, msg, stderr string) {
		if !small(name, msg, stderr) {
			return
		}
		var got, want bytes.Buffer
		if err := Text(&got, injectionRun(name, msg, stderr, true), TextOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		if err := Text(&want, injectionRun("n", "m", "s", true), TextOptions{Verbose: true}); err != nil {
			t.Fatal(err)
		}
		out := got.String()
		if !utf8.ValidString(out) {
			t.Fatalf("the text report is not UTF-8:\n%q", out)
		}
		for _, r := range out {
			if r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r >= 0x202a && r <= 0x202e) {
				t.Fatalf("the text report holds %U:\n%q", r, out)
			}
		}
		shape := func(s string) map[string]int {
			m := map[string]int{}
			for _, l := range strings.Split(s, "\n") {
				for _, p := range []string{"--- ", "convspec conformance:", "PASS", "FAIL", "NOTHING CHECKED", "    reproduce:", "    last lines", "  1. ", "  2. "} {
					if strings.HasPrefix(l, p) {
						m[p]++
					}
				}
			}
			return m
		}
		if g, w := shape(out), shape(want.String()); !maps.Equal(g, w) {
			t.Fatalf("lines of the report: %v, a harmless run has %v:\n%s", g, w, out)
		}
	})
}

// markdownShape counts the nodes of a GitHub-flavoured Markdown document
// by kind: every kind but the text itself.
func markdownShape(t *testing.T, src []byte) map[string]int {
	t.Helper()
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	m := map[string]int{}
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindText, ast.KindString:
		case ast.KindHeading:
			m[fmt.Sprintf("Heading%d", n.(*ast.Heading).Level)]++
		default:
			m[n.Kind().String()]++
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// FuzzMarkdownReport: the step summary, read as GitHub-flavoured Markdown,
// has the headings, lists, links, tables, code blocks and HTML of a
// harmless run, and its first heading says the run's own verdict.
func FuzzMarkdownReport(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, name, msg, stderr string) {
		if !small(name, msg, stderr) {
			return
		}
		var got, want bytes.Buffer
		if err := Markdown(&got, injectionRun(name, msg, stderr, true)); err != nil {
			t.Fatal(err)
		}
		if err := Markdown(&want, injectionRun("n", "m", "s", true)); err != nil {
			t.Fatal(err)
		}
		if g, w := markdownShape(t, got.Bytes()), markdownShape(t, want.Bytes()); !maps.Equal(g, w) {
			t.Fatalf("Markdown structure %v, a harmless run has %v:\n%s", g, w, got.String())
		}
		first, _, _ := strings.Cut(got.String(), "\n")
		wantFirst, _, _ := strings.Cut(want.String(), "\n")
		if first != wantFirst {
			t.Fatalf("first line %q, want %q", first, wantFirst)
		}
	})
}

// htmlShape counts the start tags of an HTML document by name (but mark,
// which highlights the tokens that differ between what came back and what
// was wanted, and so depends on them), and gathers its text.
func htmlShape(src []byte) (map[string]int, string) {
	m := map[string]int{}
	var txt strings.Builder
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return m, txt.String()
		case html.StartTagToken, html.SelfClosingTagToken:
			tn, _ := z.TagName()
			if string(tn) != "mark" {
				m[string(tn)]++
			}
		case html.TextToken:
			txt.Write(z.Text())
		}
	}
}

// htmlBlocks reads back the text under each label of the failures ("what
// was sent", "what came back", "what was wanted"): the text of the pre that
// follows the label, the blocks under one label joined.
func htmlBlocks(src []byte) map[string]string {
	blocks := map[string]string{}
	var label, in string
	inLabel := false
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return blocks
		case html.StartTagToken:
			tn, attr := z.TagName()
			switch string(tn) {
			case "div":
				for attr {
					var k, v []byte
					k, v, attr = z.TagAttr()
					if string(k) == "class" && string(v) == "lbl" {
						inLabel, label = true, ""
					}
				}
			case "pre":
				if strings.HasPrefix(label, "what ") {
					in = label
				}
				label = ""
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			switch string(tn) {
			case "div":
				inLabel = false
			case "pre":
				in = ""
			}
		case html.TextToken:
			switch {
			case inLabel:
				label += string(z.Text())
			case in != "":
				blocks[in] += string(z.Text())
			}
		}
	}
}

// asHTMLText is s as the HTML tokenizer reads it back from text that
// escaped it: line endings normalised.
func asHTMLText(s string) string {
	return strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(s)
}

// FuzzHTMLReport: the HTML report has the elements of a harmless run — no
// element from a text — and what is laid out under "what was sent", "what
// came back" and "what was wanted" is exactly what the harness put there
// (D-72), whatever lines the implementation's message holds; the message is
// read back as its text. The message is given raw: the HTML writer must
// hold without the taming of error messages (a traceback is not tamed).
func FuzzHTMLReport(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, name, msg, stderr string) {
		if !small(name, msg, stderr) || !utf8.ValidString(msg) {
			return
		}
		var got, want bytes.Buffer
		if err := HTML(&got, injectionRun(name, msg, stderr, true), HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := HTML(&want, injectionRun("n", "m", "s", true), HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		g, txt := htmlShape(got.Bytes())
		if w, _ := htmlShape(want.Bytes()); !maps.Equal(g, w) {
			t.Fatalf("HTML elements %v, a harmless run has %v:\n%s", g, w, got.String())
		}
		blocks := htmlBlocks(got.Bytes())
		wantBlocks := map[string]string{"what was sent": harnessSent, "what came back": asHTMLText("error: invalid_params: " + msg), "what was wanted": harnessWant}
		if !maps.Equal(blocks, wantBlocks) {
			t.Fatalf("labelled blocks %q, the harness put %q:\n%s", blocks, wantBlocks, got.String())
		}
		if !strings.Contains(txt, asHTMLText(msg)) {
			t.Fatalf("the message %q is not in the report's text", msg)
		}
	})
}

// FuzzJUnitReport: the JUnit file decodes as XML into the suites, cases,
// failures, errors and skips of a harmless run, and every name and message
// reads back as the escaping layer wrote it.
func FuzzJUnitReport(f *testing.F) {
	addHostileSeeds(f)
	f.Fuzz(func(t *testing.T, name, msg, stderr string) {
		if !small(name, msg, stderr) {
			return
		}
		decode := func(run *Run) (junitSuites, string) {
			var b bytes.Buffer
			if err := JUnit(&b, run); err != nil {
				t.Fatal(err)
			}
			var s junitSuites
			if err := xml.Unmarshal(b.Bytes(), &s); err != nil {
				t.Fatalf("the JUnit report is not XML: %v\n%s", err, b.String())
			}
			return s, b.String()
		}
		got, out := decode(injectionRun(name, msg, stderr, true))
		want, _ := decode(injectionRun("n", "m", "s", true))
		count := func(s junitSuites) string {
			n := fmt.Sprintf("%d %+v:", len(s.Suites), s.junitCounts)
			for _, su := range s.Suites {
				n += fmt.Sprintf(" %s %d/%d/%d/%d", su.Name, len(su.Cases), su.Failures, su.Errors, su.Skipped)
				for _, c := range su.Cases {
					n += fmt.Sprintf(" [%s %t %t %t]", c.Name, c.Failure != nil, c.Error != nil, c.Skipped != nil)
				}
			}
			return n
		}
		if g, w := count(got), count(want); g != w {
			t.Fatalf("JUnit structure %s, a harmless run has %s:\n%s", g, w, out)
		}
		if wantName := textLine("convspec conformance: " + strings.TrimSpace(name+" 1.0")); got.Name != wantName {
			t.Fatalf("name %q reads back as %q", wantName, got.Name)
		}
		var crash *junitProblem
		for _, su := range got.Suites {
			for _, c := range su.Cases {
				if c.Name == "WIN-1/b" {
					crash = c.Error
				}
			}
		}
		if crash == nil || !strings.Contains(crash.Text, EscapeText(indentQuote(stderr))) {
			t.Fatalf("the stderr quote does not read back:\n%s", out)
		}
	})
}
