package properties

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
)

// modelsEngine is the reference serving the model trimmers of the second
// declaration beside its own (D-60).
type modelsEngine struct{ server.Reference }

func (modelsEngine) Trimmers() []server.Trimmer {
	return append(server.ReferenceTrimmers(), server.ModelTrimmers()...)
}

// TestTrimmerModelsHoldEveryTrimmerProperty: every promise of the second
// declaration, honestly declared, holds on a trimmer written to keep it —
// the properties do not fail what the vocabulary lets a library say.
func TestTrimmerModelsHoldEveryTrimmerProperty(t *testing.T) {
	tg, err := inprocess.New(modelsEngine{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range All() {
		if !strings.HasPrefix(p.ID, "prop/trimmer-") {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			for _, ex := range p.Examples {
				ex.Run(t, tg)
			}
			rapid.Check(t, func(rt *rapid.T) { p.Check(rt, tg) })
		})
	}
}
