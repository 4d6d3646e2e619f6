package report

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/textsafe"
	"github.com/convspec/convspec/internal/webui"
	"github.com/convspec/convspec/spec"
)

// diffToken is a token of what came back or was wanted, for highlight.
var diffToken = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|[A-Za-z0-9_.+\-]+|\S`)

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

// writeFailureDetailHTML lays a failed case out from its data (D-72):
// each deviation's message, then what was sent, what came back and what
// was wanted as the deviation carries them, with the differing tokens of
// the last two highlighted; then everything conform printed. Nothing is
// read back from the text: a line of the implementation's message that
// looks like a label stays in the message.
func writeFailureDetailHTML(w *strings.Builder, k Case) {
	detail := clipHTML(k.Detail)
	parts := false
	for _, d := range k.Deviations {
		parts = parts || d.Sent != "" || d.Got != "" || d.Want != ""
	}
	if !parts {
		fmt.Fprintf(w, `<pre><code>%s</code></pre>`, webui.Esc(detail))
		return
	}
	for i, d := range k.Deviations {
		if len(k.Deviations) > 1 {
			head := fmt.Sprintf("deviation %d: %s", i+1, d.Clause)
			if d.Step != "" {
				head += " — Then " + d.Step
			}
			fmt.Fprintf(w, `<div class="lbl">%s</div>`, webui.Esc(head))
		}
		if msg := FirstLine(d.Detail, htmlMaxDetail); msg != "" {
			fmt.Fprintf(w, `<p><b>%s</b></p>`, webui.Esc(msg))
		}
		writePartsHTML(w, d)
	}
	fmt.Fprintf(w, `<details class="small"><summary class="muted">everything conform printed</summary><pre><code>%s</code></pre></details>`, webui.Esc(detail))
}

// writePartsHTML writes a deviation's Sent, Got and Want, each under its
// label. Line i of Got is compared with line i of Want: the harness puts
// the two views of one value on the same line numbers.
func writePartsHTML(w *strings.Builder, d result.Deviation) {
	sent, got, want := clipHTML(d.Sent), clipHTML(d.Got), clipHTML(d.Want)
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	gh, wh := make([]string, len(gl)), make([]string, len(wl))
	for i := range gl {
		gh[i] = webui.Esc(gl[i])
	}
	for i := range wl {
		wh[i] = webui.Esc(wl[i])
	}
	if got != "" && want != "" {
		for i := 0; i < len(gl) && i < len(wl); i++ {
			gh[i], wh[i] = highlight(gl[i], wl[i])
		}
	}
	for _, part := range []struct{ text, label, class, html string }{
		{sent, "what was sent", "sent", webui.Esc(sent)},
		{got, "what came back", "got diff-got", strings.Join(gh, "\n")},
		{want, "what was wanted", "want diff-want", strings.Join(wh, "\n")},
	} {
		if part.text == "" {
			continue
		}
		fmt.Fprintf(w, `<div class="lbl">%s</div><pre class="%s"><code>%s</code></pre>`, part.label, part.class, part.html)
	}
}

// clipHTML bounds a text the HTML report shows; the text and JSON reports
// have it whole (to the caps of D-52).
func clipHTML(s string) string {
	if len(s) > htmlMaxDetail {
		return textsafe.Clip(s, htmlMaxDetail)
	}
	return s
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
