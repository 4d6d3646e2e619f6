package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
)

func Raws(in []Message) []json.RawMessage {
	out := make([]json.RawMessage, len(in))
	for i, m := range in {
		out[i] = m.Raw
	}
	return out
}

func Indices(n int) []int { return IndexRange(0, n) }

func IndexRange(from, to int) []int {
	out := make([]int, 0, max(to-from, 0))
	for i := from; i < to; i++ {
		out = append(out, i)
	}
	return out
}

// MustJSON encodes v compactly without HTML escaping.
func MustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte(fmt.Sprintf("%v", v))
	}
	return bytes.TrimSpace(b.Bytes())
}
