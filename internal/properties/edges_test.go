package properties

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
)

// TestWindowEdgesCatchFaultyTargets: the edge examples alone, with no
// random case, catch every faulty window target the window properties
// catch — a bound broken by one must not wait for the seed to find it.
func TestWindowEdgesCatchFaultyTargets(t *testing.T) {
	for _, v := range variants {
		for _, e := range v.caught {
			p := lookup(t, e.property)
			if len(p.Examples) == 0 || !strings.HasPrefix(p.ID, "prop/window-") {
				continue
			}
			t.Run(v.name+"/"+p.ID, func(t *testing.T) {
				f := &faulty{ref: reference(t), windows: map[string]protocol.WindowConfig{}, history: map[string][]json.RawMessage{}}
				v.build(f)
				p.Check = nil // the examples only
				failed, out := runAllCaptured(p, f)
				require.True(t, failed, "the edge examples of %s do not catch %s (%s)", p.ID, v.name, v.bug)
				assert.True(t, reportsUnder(out, e.clauses), "%s caught %s but not under %s:\n%s", p.ID, v.name, strings.Join(e.clauses, " or "), out)
			})
		}
	}
}

// TestFixedConversationKeepsToDeclaredFormats: the edge examples of an
// implementation that declares one provider format never send the other.
func TestFixedConversationKeepsToDeclaredFormats(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		seen := map[string]bool{}
		for seed := range 20 {
			for _, in := range edgeConversations(formats, 12, seed) {
				for _, m := range in {
					seen[gen.MessageFormat(m.Raw)] = true
				}
			}
		}
		for _, f := range protocol.Formats() {
			assert.Equal(t, formats == nil || slices.Contains(formats, f), seen[f], "formats %v: messages of %s", formats, f)
		}
	}
}

// TestEveryEdgeIsReached: every shape of history the edge examples ask for
// is found, in each provider format alone and in both — an edge that
// silently fell back to an ordinary history would test nothing.
func TestEveryEdgeIsReached(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		// The lists as the catalogue uses them: an edge's seed is its
		// position in its list.
		for _, edges := range [][]historyEdge{wellFormedEdges(), brokenEdges(0, 4), brokenEdges(0, 3), brokenEdges(0, 2), brokenEdges(1, 3)} {
			for k, e := range edges {
				o := e.o
				o.Exact, o.Marked, o.Formats = true, true, formats
				_, ok := findHistory(formats, o, k, e.accept)
				assert.True(t, ok, "formats %v: no history of the edge %q", formats, e.name)
			}
		}
	}
}

// TestEveryBrokenToolEdgeIsReached: each kind of broken structure is found
// early and late in a conversation, in each provider format alone and in
// both.
func TestEveryBrokenToolEdgeIsReached(t *testing.T) {
	for _, formats := range [][]string{{protocol.FormatOpenAI}, {protocol.FormatAnthropic}, nil} {
		var missed []string
		for k, kind := range append(slices.Clone(gen.SureDefects), gen.AmbiguousDefects...) {
			for _, where := range []string{"early", "late"} {
				if _, ok := findHistory(formats, brokenToolOpts(formats), k, brokenAt(kind, where)); !ok {
					missed = append(missed, kind+" "+where)
				}
			}
		}
		assert.Empty(t, missed, "formats %v: edges never reached", formats)
	}
}
