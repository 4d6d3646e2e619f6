package protocol

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/internal/exactnum"
)

// MaxCount is the greatest count (CFG-3): 2^53 − 1.
const MaxCount = exactnum.MaxCount

// Count is a count on the wire (CFG-3): a JSON number whose value is a
// non-negative integer not greater than MaxCount, however it is written
// (`3`, `3.0` and `3e0` are all 3), read exactly from its decimal text as
// every count is (package exactnum). A negative integer decodes too, so that
// the member's own check can name it; a fraction, a string or a boolean is
// an error.
type Count int64

// UnmarshalJSON implements json.Unmarshaler.
func (c *Count) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return fmt.Errorf("must be a non-negative integer, got %s", b)
	}
	i, err := exactnum.Integer(string(b))
	switch {
	case errors.Is(err, exactnum.ErrTooBig):
		return fmt.Errorf("%w, got %s", err, b)
	case err != nil:
		return fmt.Errorf("%w, got %s", errNotCount, b)
	}
	*c = Count(i)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (c Count) MarshalJSON() ([]byte, error) { return json.Marshal(int64(c)) }

// Counts converts a map of ints, such as model limits, to wire counts.
func Counts(m map[string]int) map[string]Count {
	if m == nil {
		return nil
	}
	out := make(map[string]Count, len(m))
	for k, v := range m {
		out[k] = Count(v)
	}
	return out
}

var errNotCount = errors.New("must be a non-negative integer")
