package prop

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
)

// declared is a target that only declares: levels and formats.
type declared target.Info

func (d declared) Info() target.Info { return target.Info(d) }
func (declared) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, errors.New("not called")
}
func (declared) Close() error { return nil }

// TestLevels: a target that declares no levels has them all; one that
// declares core alone is neither sent malformed input (validation) nor
// checked on warnings and exact texts (diagnostics) (D-42).
func TestLevels(t *testing.T) {
	for _, c := range []struct {
		levels                  []string
		validation, diagnostics bool
	}{
		{nil, true, true},
		{[]string{protocol.LevelCore}, false, false},
		{[]string{protocol.LevelCore, protocol.LevelValidation}, true, false},
		{[]string{protocol.LevelCore, protocol.LevelDiagnostics}, false, true},
	} {
		tg := declared{Levels: c.levels}
		if Validation(tg) != c.validation || Diagnostics(tg) != c.diagnostics {
			t.Errorf("levels %v: validation %v, diagnostics %v; want %v, %v", c.levels, Validation(tg), Diagnostics(tg), c.validation, c.diagnostics)
		}
	}
	if got := ProviderFormats(target.Info{Formats: []string{protocol.FormatOpenAI}}); len(got) != 1 || got[0] != protocol.FormatOpenAI {
		t.Errorf("ProviderFormats = %v, want the declared [openai]", got)
	}
}
