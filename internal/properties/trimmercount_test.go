package properties

import (
	"encoding/json"
	"fmt"
	"slices"
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

// A question names its trimmer, limit and messages unambiguously (D-97):
// a name holding the separator does not make two questions one.
func TestQuestionIsUnambiguous(t *testing.T) {
	msgs := []json.RawMessage{json.RawMessage(`{"role":"user","content":"hi"}`)}
	seen := map[string]string{}
	for _, q := range []struct {
		name  string
		limit int
		msgs  []json.RawMessage
	}{
		{"x", 5, msgs}, {"x\x005", 5, msgs}, {"x", 50, msgs}, {"x\x00", 5, msgs},
		{"x", 5, nil}, {"x", 5, append(slices.Clone(msgs), msgs...)},
		{"x\x001", 2, nil}, {"x", 1, []json.RawMessage{json.RawMessage("2")}}, // one question without the name's length

	} {
		k := question("trimmer.trim", q.name, q.limit, q.msgs)
		what := fmt.Sprintf("%q %d %d", q.name, q.limit, len(q.msgs))
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s are one question", what, other)
		}
		seen[k] = what
	}
}
