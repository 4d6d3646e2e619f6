package site

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// md renders the project's own Markdown (GitHub's dialect: tables,
// strikethrough, autolinks). The texts are the spec's, embedded in the
// binary, so raw HTML in them is kept.
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// docLinks maps the spec's Markdown files to the site's pages.
var docLinks = map[string]string{
	"SPEC.md": "spec.html", "decisions.md": "decisions.html", "protocol.md": "protocol.html",
	"traceability.md": "traceability.html",
}

var (
	tagRe   = regexp.MustCompile(`<[^>]*>`)
	hrefRe  = regexp.MustCompile(`href="(?:spec/)?(SPEC\.md|decisions\.md|protocol\.md|traceability\.md)(#[^"]*)?"`)
	refRe   = regexp.MustCompile(`\b(?:[A-Z]+-[0-9]+)\b`)
	tagName = regexp.MustCompile(`^</?([[:alnum:]]+)`)
)

// markdown renders text and links every clause ID and decision D-n in it
// (outside links, headings and code blocks) to where the site shows it.
func (p *pages) markdown(text string) string {
	var buf bytes.Buffer
	if err := md.Convert([]byte(text), &buf); err != nil {
		// goldmark renders any input; an error here is a writer's error,
		// which a bytes.Buffer never returns.
		return "<pre>" + esc(text) + "</pre>"
	}
	out := hrefRe.ReplaceAllStringFunc(buf.String(), func(s string) string {
		m := hrefRe.FindStringSubmatch(s)
		return `href="` + docLinks[m[1]] + m[2] + `"`
	})
	return p.linkify(out)
}

// linkify links clause and decision IDs in the text of an HTML fragment.
func (p *pages) linkify(h string) string {
	var b strings.Builder
	skip := 0 // inside <a>, <pre> or a heading
	last := 0
	for _, loc := range tagRe.FindAllStringIndex(h, -1) {
		if skip == 0 {
			b.WriteString(p.linkText(h[last:loc[0]]))
		} else {
			b.WriteString(h[last:loc[0]])
		}
		tag := h[loc[0]:loc[1]]
		name := ""
		if m := tagName.FindStringSubmatch(tag); m != nil {
			name = strings.ToLower(m[1])
		}
		switch name {
		case "a", "pre", "h1", "h2", "h3", "h4", "h5", "h6":
			if strings.HasPrefix(tag, "</") {
				skip--
			} else {
				skip++
			}
		}
		b.WriteString(tag)
		last = loc[1]
	}
	if skip == 0 {
		b.WriteString(p.linkText(h[last:]))
	} else {
		b.WriteString(h[last:])
	}
	return b.String()
}

func (p *pages) linkText(s string) string {
	return refRe.ReplaceAllStringFunc(s, func(id string) string {
		if _, ok := p.m.byID[id]; ok {
			return `<a href="spec.html#` + id + `">` + id + `</a>`
		}
		if _, ok := p.m.decByID[id]; ok {
			return `<a href="decisions.html#` + id + `">` + id + `</a>`
		}
		return id
	})
}
