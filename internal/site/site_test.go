package site

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/spec"
)

func TestEmbeddedSite(t *testing.T) {
	in, err := Embedded("test")
	require.NoError(t, err)
	files, err := Files(in)
	require.NoError(t, err)
	specPage := string(files["spec.html"])
	index := string(files["index.html"])
	search := string(files["assets/search-index.js"])

	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(specPage, -1) {
		require.False(t, ids[m[1]], "spec.html has the id %s twice", m[1])
		ids[m[1]] = true
	}
	for _, c := range spec.Clauses() {
		require.True(t, strings.Contains(specPage, `<section class="clause" id="`+c.ID+`">`), "clause %s has no anchor", c.ID)
		require.True(t, strings.Contains(index, `href="spec.html#`+c.ID+`"`), "the contents do not list %s", c.ID)
		require.True(t, strings.Contains(search, `"id":"`+c.ID+`"`), "the search does not know %s", c.ID)
	}
	// Every link within the site to spec.html resolves.
	for name, b := range files {
		for _, m := range regexp.MustCompile(`href="(?:spec\.html)?#([^"]+)"`).FindAllStringSubmatch(string(b), -1) {
			if name == "spec.html" || strings.Contains(m[0], "spec.html") {
				require.True(t, ids[m[1]], "%s links to spec.html#%s, which does not exist", name, m[1])
			}
		}
	}
	// Scenarios are rendered with their tables; golden cases as pairs.
	for _, want := range []string{`<span class="kw">Examples:</span>`, `<div class="dir" title="request">→</div>`, `<a href="decisions.html#D-1">D-1</a>`} {
		require.True(t, strings.Contains(specPage, want), "spec.html has no %s", want)
	}
	// No asset from the network.
	for name, b := range files {
		require.False(t, regexp.MustCompile(`(src|href)="(https?:)?//[^"]*\.(js|css|woff2?)"`).Match(b), "%s loads an asset from the network", name)
	}
}

func TestClipKeepsUTF8(t *testing.T) {
	s := strings.Repeat("é", 10)
	got := clipText(s, 5, "x.json")
	require.True(t, strings.HasPrefix(got, "éé\n…"), "got %q", got)
	require.Contains(t, got, "see testdata/golden/cases/x.json")
}

func TestBadSpec(t *testing.T) {
	in, err := Embedded("test")
	require.NoError(t, err)
	in.Spec = "# nothing here\n"
	_, err = Files(in)
	require.ErrorContains(t, err, "SPEC.md: no clauses found")
}
