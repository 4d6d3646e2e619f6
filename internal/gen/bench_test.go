package gen

import (
	"encoding/json"
	"testing"

	"pgregory.net/rapid"
)

// BenchmarkHistories is the cost of generating a conversation as the
// trimmer properties draw one (up to 40 messages, both formats, tool
// units, orphaned runs): the largest part of the harness's generation
// (BENCHMARKS.md, "Harness throughput"). Each op draws the same 100
// seeds.
func BenchmarkHistories(b *testing.B) {
	for _, bc := range []struct {
		name string
		o    HistoryOpts
	}{
		{"n=8", HistoryOpts{N: 8, Marked: true, Tools: -1}},
		{"n=40", HistoryOpts{N: 40, Marked: true, Tools: -1, Runs: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			g := Histories(bc.o)
			b.ReportAllocs()
			for b.Loop() {
				for seed := range 100 {
					_ = g.Example(seed)
				}
			}
		})
	}
}

// BenchmarkMessages is the cost of one message on its own, as the
// estimate properties draw them (every shape, tool blocks included). Each
// op draws the same 100 seeds.
func BenchmarkMessages(b *testing.B) {
	g := Messages(3, MessageOpts{Tools: true})
	b.ReportAllocs()
	for b.Loop() {
		for seed := range 100 {
			_ = g.Example(seed)
		}
	}
}

// BenchmarkDrawConversation is the cost of a differential request's
// conversation (DrawConversation: a history, rare units, now and then a
// fault). Each op draws the same 100 seeds.
func BenchmarkDrawConversation(b *testing.B) {
	g := rapid.Custom(func(t *rapid.T) []json.RawMessage { return DrawConversation(t, nil, 12, true) })
	b.ReportAllocs()
	for b.Loop() {
		for seed := range 100 {
			_ = g.Example(seed)
		}
	}
}
