package trimout

import (
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/judgemsg"
)

// BenchmarkCount counts every distinct golden message alone by cl100k
// (TOK-2) and reads its text with payloads, as the trimmer checks do: the
// judge's cost of measuring what it sends and receives, reading
// included.
func BenchmarkCount(b *testing.B) {
	seen := map[string]bool{}
	var msgs []json.RawMessage
	for _, m := range goldenMessages(b) {
		if !seen[string(m)] {
			seen[string(m)] = true
			msgs = append(msgs, m)
		}
	}
	read := judgemsg.Read(msgs)
	cl100k := protocol.TrimmerDecl{Bound: protocol.BoundTokens, Counter: protocol.CounterCl100k}
	b.Run("cl100k", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for _, m := range msgs {
				Count(cl100k, []json.RawMessage{m})
			}
		}
	})
	b.Run("text", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for _, m := range read {
				Text(m, true)
			}
		}
	})
}
