package spec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEmbeddedSpecParses(t *testing.T) {
	cs, err := Parse(Text())
	require.NoError(t, err)
	for _, c := range cs {
		assert.NotEmpty(t, c.Text, "%s has no text", c.ID)
		assert.Equal(t, strings.HasPrefix(c.ID, "PROTO"), c.Capability == "",
			"%s: capability %q; only PROTO clauses apply to every implementation", c.ID, c.Capability)
	}
	for id, level := range map[string]string{"WIN-3": LevelCore, "CFG-3": LevelValidation, "CFG-6": LevelDiagnostics} {
		c, _ := Lookup(id)
		assert.Equal(t, level, c.Level, "%s's level", id)
	}
	c, ok := Lookup("WIN-3")
	require.True(t, ok)
	assert.Equal(t, "window", c.Capability)
}

func TestParseRejectsMalformedHeadings(t *testing.T) {
	for name, doc := range map[string]string{
		"no capability":  "## S\n#### X-1 — t\nLevel: core\nbody\n",
		"no level":       "## S\nCapability: `w`\n#### X-1 — t\nbody\n",
		"unknown level":  "## S\nCapability: `w`\n#### X-1 — t\nLevel: basic\nbody\n",
		"bad heading":    "## S\nCapability: `w`\n#### X-1 - t\n",
		"duplicate":      "## S\nCapability: `w`\n#### X-1 — a\nLevel: core\nx\n#### X-1 — b\nLevel: core\ny\n",
		"nothing at all": "# title\n",
	} {
		_, err := Parse(doc)
		assert.Error(t, err, "%s: Parse accepted %q", name, doc)
	}
}
