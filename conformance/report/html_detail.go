package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/convspec/convspec/internal/webui"
	"github.com/convspec/convspec/spec"
)

// The parts of a failure's detail that the HTML pages lay out apart: what
// was sent, what came back and what was wanted. The detail is text made
// for people (the text report prints it as is); these are the labels its
// writers use.
var (
	sentLine  = regexp.MustCompile(`^\s*(sent:|requests sent:|last request:|request:)`)
	gotLine   = regexp.MustCompile(`^\s*(got|came back)\b:?`)
	wantLine  = regexp.MustCompile(`^\s*(wanted|want|expected)\b:?`)
	diffToken = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|[A-Za-z0-9_.+\-]+|\S`)
)

// detailParts splits a failure's detail into its first line (what is
// wrong), the lines that say what was sent, what came back and what was
// wanted (a labelled line and the lines indented under it), and whether
// any such label was found.
type detailParts struct {
	message          string
	sent, got, want  []string
	found            bool
	gotText, wantTxt string
}

func splitDetail(detail string) detailParts {
	var d detailParts
	lines := strings.Split(strings.TrimRight(detail, "\n"), "\n")
	if len(lines) > 0 {
		d.message = strings.TrimSpace(lines[0])
	}
	var cur *[]string
	indent := 0
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == stderrHeading {
			break // what follows quotes the implementation's stderr: never a label of the harness (D-52)
		}
		ind := len(l) - len(strings.TrimLeft(l, " \t"))
		switch {
		case sentLine.MatchString(l):
			cur, indent = &d.sent, ind
			l = labelOnly(sentLine, l)
		case gotLine.MatchString(l):
			cur, indent = &d.got, ind
			l = labelOnly(gotLine, l)
		case wantLine.MatchString(l):
			cur, indent = &d.want, ind
			l = labelOnly(wantLine, l)
		case cur != nil && ind > indent && strings.TrimSpace(l) != "":
			// a continuation of the labelled block
		default:
			cur = nil
			continue
		}
		if l = strings.TrimSpace(l); l != "" {
			*cur = append(*cur, l)
		}
		d.found = true
	}
	return d
}

// stderrHeading introduces the last lines of the implementation's stderr
// in a detail (runner and target write it so).
const stderrHeading = "last lines of stderr:"

// labelOnly drops the label a line starts with ("got:", "wanted"): the
// page shows its own.
func labelOnly(label *regexp.Regexp, l string) string {
	loc := label.FindStringIndex(l)
	return l[loc[1]:]
}

// highlight marks, in a and b, the tokens that the other does not have in
// the same order (a longest common subsequence of tokens): the differing
// member of what came back and what was wanted.
func highlight(a, b string) (string, string) {
	ta, tb := diffToken.FindAllStringIndex(a, -1), diffToken.FindAllStringIndex(b, -1)
	if len(ta)*len(tb) > 4_000_000 || len(ta) == 0 || len(tb) == 0 {
		return webui.Esc(a), webui.Esc(b)
	}
	tok := func(s string, ix [][]int, i int) string { return s[ix[i][0]:ix[i][1]] }
	// lcs[i][j]: the LCS length of ta[i:] and tb[j:].
	lcs := make([][]int32, len(ta)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(tb)+1)
	}
	for i := len(ta) - 1; i >= 0; i-- {
		for j := len(tb) - 1; j >= 0; j-- {
			switch {
			case tok(a, ta, i) == tok(b, tb, j):
				lcs[i][j] = lcs[i+1][j+1] + 1
			case lcs[i+1][j] >= lcs[i][j+1]:
				lcs[i][j] = lcs[i+1][j]
			default:
				lcs[i][j] = lcs[i][j+1]
			}
		}
	}
	keepA, keepB := make([]bool, len(ta)), make([]bool, len(tb))
	for i, j := 0, 0; i < len(ta) && j < len(tb); {
		switch {
		case tok(a, ta, i) == tok(b, tb, j):
			keepA[i], keepB[j] = true, true
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return marked(a, ta, keepA), marked(b, tb, keepB)
}

// marked escapes s and wraps each run of tokens not kept in <mark>.
func marked(s string, ix [][]int, keep []bool) string {
	var b strings.Builder
	last := 0
	open := false
	for i, span := range ix {
		gap := s[last:span[0]]
		if open && (keep[i] || strings.TrimSpace(gap) != "") {
			b.WriteString("</mark>")
			open = false
		}
		b.WriteString(webui.Esc(gap))
		if !keep[i] && !open {
			b.WriteString(`<mark>`)
			open = true
		}
		b.WriteString(webui.Esc(s[span[0]:span[1]]))
		last = span[1]
	}
	if open {
		b.WriteString("</mark>")
	}
	b.WriteString(webui.Esc(s[last:]))
	return b.String()
}

// writeDetailHTML lays a failure's detail out: what is wrong, then what
// was sent, what came back and what was wanted, with the differing tokens
// of the last two highlighted, then everything conform printed.
func writeDetailHTML(w *strings.Builder, detail string) {
	d := splitDetail(detail)
	if d.message != "" {
		fmt.Fprintf(w, `<p><b>%s</b></p>`, webui.Esc(d.message))
	}
	if d.found {
		// Line i of what came back is compared with line i of what was
		// wanted: the writers put the two views of one value on the
		// same line numbers.
		gl, wl := make([]string, len(d.got)), make([]string, len(d.want))
		for i := range gl {
			gl[i] = webui.Esc(d.got[i])
		}
		for i := range wl {
			wl[i] = webui.Esc(d.want[i])
		}
		for i := 0; i < len(gl) && i < len(wl); i++ {
			gl[i], wl[i] = highlight(d.got[i], d.want[i])
		}
		got, want := strings.Join(gl, "\n"), strings.Join(wl, "\n")
		for _, part := range []struct{ label, class, html string }{
			{"what was sent", "sent", webui.Esc(strings.Join(d.sent, "\n"))},
			{"what came back", "got diff-got", got},
			{"what was wanted", "want diff-want", want},
		} {
			if part.html == "" {
				continue
			}
			fmt.Fprintf(w, `<div class="lbl">%s</div><pre class="%s"><code>%s</code></pre>`, part.label, part.class, part.html)
		}
		fmt.Fprintf(w, `<details class="small"><summary class="muted">everything conform printed</summary><pre><code>%s</code></pre></details>`, webui.Esc(detail))
		return
	}
	fmt.Fprintf(w, `<pre><code>%s</code></pre>`, webui.Esc(detail))
}

// DefaultSpecURL is where a report links a clause when it is not told
// where the spec site is: SPEC.md on GitHub, at the heading's anchor.
const DefaultSpecURL = "https://github.com/convspec/convspec/blob/main/spec/SPEC.md"

// clauseHref is the link to a clause: specURL#ID for the spec site of
// `conform doc` (specURL its spec.html), or GitHub's heading anchor in
// SPEC.md.
func clauseHref(specURL, id string) string {
	if specURL == "" || specURL == DefaultSpecURL {
		if c, ok := spec.Lookup(id); ok {
			return DefaultSpecURL + "#" + webui.GitHubAnchor(c.ID+" — "+c.Title)
		}
		return DefaultSpecURL
	}
	return specURL + "#" + id
}
