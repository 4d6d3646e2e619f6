package target

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
				require.ErrorContains(t, err, tc.fail)
				return
			}
			require.NoError(t, err)
			got := []bool{info.HasLevel("core"), info.HasLevel("diagnostics"), info.HasFormat("openai"), info.HasFormat("anthropic")}
			want := []bool{tc.core, tc.diag, tc.oai, tc.ant}
			assert.Equal(t, want, got, "core, diagnostics, openai, anthropic")
		})
	}
}
