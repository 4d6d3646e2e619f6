package properties

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/reference/message"
	refwindow "github.com/convspec/convspec/reference/window"
)

// TestOracleAgreesWithReference: the properties' own rendering of SUM-1
// and reading of SUM-6 agree with the reference's on generated messages;
// where they differ one of the two misreads the spec.
func TestOracleAgreesWithReference(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(1, 10).Draw(rt, "n"), Marked: true, Tools: -1,
			Silent: rapid.Bool().Draw(rt, "silent")}).Draw(rt, "history")
		for i, m := range h.Msgs {
			parsed, err := message.Parse(m.Raw)
			if err != nil {
				rt.Fatalf("input[%d] does not parse: %v: %s", i, err, m.Raw)
			}
			if got := refwindow.Render(parsed); got != m.Rendered {
				rt.Fatalf("input[%d] %s\nrendered %q\nreference %q", i, m.Raw, m.Rendered, got)
			}
			if string(parsed.Class()) != m.Class {
				rt.Fatalf("input[%d] %s: class %s, reference %s", i, m.Raw, m.Class, parsed.Class())
			}
			e := model.EntryOf(m, i)
			if k := model.Meaning([]model.Entry{e}); (k == model.MeaningfulText) != refwindow.HasMeaningfulText([]message.Message{parsed}) {
				rt.Fatalf("input[%d] %s: meaningful %v, reference %v", i, m.Raw, k == model.MeaningfulText, !(k == model.MeaningfulText))
			}
		}
	})
}
