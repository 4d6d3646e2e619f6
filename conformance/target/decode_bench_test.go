package target_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
)

// BenchmarkDecodeResult decodes a window.trim result of n messages as the
// harness does for every response: members checked against the protocol's
// types, the JSON Schema, then the Go value (compare with -benchmem).
func BenchmarkDecodeResult(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		msgs := make([]string, n)
		for i := range msgs {
			msgs[i] = fmt.Sprintf(`{"role":"user","content":"message number %d of the conversation","x_seq":%d}`, i, i)
		}
		raw := json.RawMessage(`{"trimmed":[` + strings.Join(msgs, ",") + `],"evicted":[],"metrics":{"totalMessages":` + fmt.Sprint(n) +
			`,"preservedMessages":` + fmt.Sprint(n) + `,"evictedMessages":0,"estimatedTokens":100},"warnings":[]}`)
		b.Run(fmt.Sprintf("messages-%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				var res protocol.WindowTrimResult
				if err := target.DecodeResult(protocol.MethodWindowTrim, raw, &res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
