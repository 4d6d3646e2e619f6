// Package webui holds what every HTML page conform writes shares — the
// style sheet and the small script (search, copy buttons, opening the
// <details> a link points at, sortable tables) — and the helpers that
// write HTML safely. The spec site links them as files; the run report and
// the matrix inline them, so that each is one self-contained file.
package webui

import (
	_ "embed"
	"html"
	"regexp"
	"strings"
)

// CSS is the style sheet: light and dark, readable from a phone to a wide
// desktop.
//
//go:embed style.css
var CSS string

// JS is the script: search over window.CONVSPEC_SEARCH, copy buttons,
// <details> opened by the URL's fragment, tables sorted by a click on a
// header. It has no dependencies and makes no request.
//
//go:embed script.js
var JS string

// Esc escapes text for HTML.
func Esc(s string) string { return html.EscapeString(s) }

// GitHubAnchor is the fragment GitHub gives a Markdown heading: lower
// case, punctuation dropped, spaces as hyphens ("WIN-3 — Title, more" →
// "win-3--title-more").
func GitHubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 127 && isLetter(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

var letter = regexp.MustCompile(`\pL`)

func isLetter(r rune) bool { return letter.MatchString(string(r)) }
