package target

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrimmerDeclarations: capability trimmer needs a valid trimmers list;
// without it the member is ignored, so protocol-1 handshakes keep working
// (ANY-10).
func TestTrimmerDeclarations(t *testing.T) {
	const base = `{"protocol":1,"implementation":{"name":"x","version":"1"},`
	cases := []struct {
		name, result string
		wantErr      string // "" when the handshake is accepted
		trimmers     int
		claims       map[string]bool
	}{
		{"protocol-1 handshake", base + `"capabilities":["window"]}`, "", 0, map[string]bool{"trimmer/bound": false}},
		{"trimmers without the capability are ignored", base + `"capabilities":["window"],"trimmers":[{"name":"t","bound":"nonsense"}]}`, "", 0, map[string]bool{"trimmer/bound": false}},
		{"a message trimmer", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"messages","guarantees":["bound","units"]}]}`, "", 1,
			map[string]bool{"trimmer": true, "trimmer/bound": true, "trimmer/units": true, "trimmer/system": false}},
		{"a token trimmer", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"tokens","counter":"chars4","formats":["openai"],"guarantees":[]}]}`, "", 1, nil},
		{"no trimmers", base + `"capabilities":["trimmer"]}`, "non-empty", 0, nil},
		{"no name", base + `"capabilities":["trimmer"],"trimmers":[{"bound":"messages","guarantees":[]}]}`, "trimmers[0].name", 0, nil},
		{"a name twice", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"messages"},{"name":"t","bound":"messages"}]}`, "twice", 0, nil},
		{"an unknown bound", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"chars"}]}`, "trimmers[0].bound", 0, nil},
		{"a token bound without counter", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"tokens"}]}`, "counter", 0, nil},
		{"a counter on a message bound", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"messages","counter":"cl100k"}]}`, "counter must be absent", 0, nil},
		{"an unknown guarantee", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"messages","guarantees":["fast"]}]}`, `unknown guarantee "fast"`, 0, nil},
		{"an unknown format", base + `"capabilities":["trimmer"],"trimmers":[{"name":"t","bound":"messages","formats":["gemini"]}]}`, `unknown format "gemini"`, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			info, err := DecodeHandshake(json.RawMessage(tc.result))
			if tc.wantErr != "" {
				var f *Failure
				require.ErrorAs(t, err, &f)
				require.Equal(t, ProtocolError, f.Outcome)
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, info.Trimmers, tc.trimmers)
			for capability, want := range tc.claims {
				assert.Equal(t, want, info.Has(capability), "Has(%q)", capability)
			}
		})
	}
}
