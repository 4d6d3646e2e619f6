package properties

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/trimout"
)

// TestTrimSessionCountsAsTrimout: a trim session counts by a declared
// counter exactly as trimout.Count does, though it sums what it counted
// for each message before, for every trimmer of the reference and the
// models (counts per message, joined, cl100k, chars/4 and messages), on
// lists that share messages the way a case's input, floor and output do.
func TestTrimSessionCountsAsTrimout(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := newTrimSession(fixedSession(rt, nil, "ANY-6"))
		h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(0, 12).Draw(rt, "n"), Marked: true, Tools: -1}).Draw(rt, "conversation")
		all := gen.Raws(h.Msgs)
		for _, tr := range append(server.ReferenceTrimmers(), server.ModelTrimmers()...) {
			d := tr.Decl
			if d.Counter == "native" {
				continue // the implementation's to answer
			}
			for range 3 {
				lo := rapid.IntRange(0, len(all)).Draw(rt, "from")
				hi := rapid.IntRange(lo, len(all)).Draw(rt, "to")
				list := append([]json.RawMessage{}, all[lo:hi]...)
				if got, want := s.count(d, list), trimout.Count(d, list); got != want {
					rt.Fatalf("trimmer %q: the session counts in[%d:%d] as %d, trimout.Count as %d", d.Name, lo, hi, got, want)
				}
			}
		}
	})
}
