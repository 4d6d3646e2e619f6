package adapter

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/reference/window"
)

// Originals maps messages a library rebuilt (its own structs, encoded
// again) back to the input messages they stand for, so that the result
// carries the exact input JSON (MSG-2): member order, number spellings and
// unknown members as sent. Each rebuilt message must be JSON-equal to an
// input message after the one the previous rebuilt message matched — a
// trimmer keeps order — or Originals fails naming it.
func Originals(inputs []json.RawMessage, rebuilt []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(rebuilt))
	next := 0
	for i, m := range rebuilt {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("adapter.Originals: rebuilt message %d cannot be encoded: %w", i, err)
		}
		found := -1
		for j := next; j < len(inputs); j++ {
			if jsoncmp.Equal(inputs[j], b) {
				found = j
				break
			}
		}
		if found < 0 {
			return nil, fmt.Errorf("adapter.Originals: rebuilt message %d (%s) equals no input message after position %d: the library altered or reordered it", i, abbreviate(b), next)
		}
		out = append(out, inputs[found])
		next = found + 1
	}
	return out, nil
}

// count reads a count parameter as CFG-3 does; a bad one is
// invalid_params naming it.
func count(name string, raw json.RawMessage) (int, error) {
	n, err := window.ParseCount(name, raw)
	if err != nil {
		var ce *window.ConfigError
		if errors.As(err, &ce) {
			return 0, protocol.NewError(protocol.KindInvalidParams, "params.%s: %s", name, ce.Reason)
		}
		return 0, protocol.NewError(protocol.KindInvalidParams, "params.%s: %v", name, err)
	}
	return n, nil
}

func abbreviate(b []byte) string {
	if len(b) > 80 {
		return string(b[:77]) + "..."
	}
	return string(b)
}
