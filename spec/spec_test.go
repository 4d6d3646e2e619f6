package spec

import (
	"strings"
	"testing"
)

func TestEmbeddedSpecParses(t *testing.T) {
	cs, err := Parse(Text())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.Text == "" {
			t.Errorf("%s has no text", c.ID)
		}
		if strings.HasPrefix(c.ID, "PROTO") != (c.Capability == "") {
			t.Errorf("%s: capability %q; only PROTO clauses apply to every implementation", c.ID, c.Capability)
		}
	}
	for id, level := range map[string]string{"WIN-3": LevelCore, "CFG-3": LevelValidation, "CFG-6": LevelDiagnostics} {
		if c, _ := Lookup(id); c.Level != level {
			t.Errorf("%s has level %q, want %q", id, c.Level, level)
		}
	}
	if c, ok := Lookup("WIN-3"); !ok || c.Capability != "window" {
		t.Errorf("Lookup(WIN-3) = %+v, %v", c, ok)
	}
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
		if _, err := Parse(doc); err == nil {
			t.Errorf("%s: Parse accepted %q", name, doc)
		}
	}
}
