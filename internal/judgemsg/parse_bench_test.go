package judgemsg

import (
	"encoding/json"
	"testing"
)

// BenchmarkParse reads every distinct message of the golden cases once
// per op: the judge's cost of reading what it sends and receives.
func BenchmarkParse(b *testing.B) {
	seen := map[string]bool{}
	var msgs []json.RawMessage
	for _, list := range goldenLists(b) {
		for _, m := range list {
			if !seen[string(m)] {
				seen[string(m)] = true
				msgs = append(msgs, m)
			}
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, m := range msgs {
			_, _ = Parse(m)
		}
	}
}
