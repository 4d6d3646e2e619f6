package jsoncmp

import "testing"

// BenchmarkEqual compares one returned message with an input message, the
// comparison the suite makes most (tracing every returned message back to
// the input): the same text, an equal one spelled differently, and a
// different one.
func BenchmarkEqual(b *testing.B) {
	msg := []byte(`{"role":"assistant","content":[{"type":"text","text":"Let me look that up for you."},{"type":"tool_use","id":"toolu_01","name":"search","input":{"query":"weather in Paris","limit":3}}],"x-convspec-seq":7}`)
	for _, c := range []struct {
		name  string
		other []byte
	}{
		{"same-text", append([]byte(nil), msg...)},
		{"equal-spelled-apart", []byte(`{"x-convspec-seq":7.0,"content":[{"type":"text","text":"Let me look that up for you."},{"type":"tool_use","id":"toolu_01","name":"search","input":{"limit":3,"query":"weather in Paris"}}],"role":"assistant"}`)},
		{"different", []byte(`{"role":"user","content":"What is the weather in Paris today?","x-convspec-seq":6}`)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				Equal(msg, c.other)
			}
		})
	}
}
