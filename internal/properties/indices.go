package properties

import (
	"bytes"
	"encoding/json"
	"fmt"
)

func raws(in []msg) []json.RawMessage {
	out := make([]json.RawMessage, len(in))
	for i, m := range in {
		out[i] = m.Raw
	}
	return out
}

func seqIdx(n int) []int { return rangeIdx(0, n) }

func rangeIdx(from, to int) []int {
	out := []int{}
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// mustJSON encodes v compactly without HTML escaping.
func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf("%v", v))
	}
	return bytes.TrimSpace(b.Bytes())
}
