package target

import (
	"strings"
	"testing"
)

// TestHandshakeLevelsAndFormats: absent levels and formats mean all (a
// protocol-1 adapter keeps working); declared ones are kept; an empty or
// misspelt list fails the handshake rather than silently turning every
// case into not applicable.
func TestHandshakeLevelsAndFormats(t *testing.T) {
	const head = `{"protocol":1,"implementation":{"name":"x","version":"1"},"capabilities":["window"]`
	for _, tc := range []struct {
		name, extra, fail    string
		core, diag, oai, ant bool
	}{
		{"absent", ``, "", true, true, true, true},
		{"null", `,"levels":null,"formats":null`, "", true, true, true, true},
		{"declared", `,"levels":["core"],"formats":["openai"]`, "", true, false, true, false},
		{"empty levels", `,"levels":[]`, "levels is empty", false, false, false, false},
		{"unknown level", `,"levels":["basic"]`, `levels names "basic"`, false, false, false, false},
		{"unknown format", `,"formats":["gemini"]`, `formats names "gemini"`, false, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info, err := DecodeHandshake([]byte(head + tc.extra + "}"))
			if tc.fail != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fail) {
					t.Fatalf("DecodeHandshake = %v; want an error mentioning %q", err, tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := []bool{info.HasLevel("core"), info.HasLevel("diagnostics"), info.HasFormat("openai"), info.HasFormat("anthropic")}
			want := []bool{tc.core, tc.diag, tc.oai, tc.ant}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("core, diagnostics, openai, anthropic = %v, want %v", got, want)
					break
				}
			}
		})
	}
}
