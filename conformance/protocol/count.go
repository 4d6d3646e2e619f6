package protocol

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// MaxCount is the greatest count (CFG-3): 2^53 − 1.
const MaxCount = 1<<53 - 1

// Count is a count on the wire (CFG-3): a JSON number whose value is a
// non-negative integer not greater than MaxCount, however it is written
// (`3`, `3.0` and `3e0` are all 3). A negative integer decodes too, so that
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
	// big.Float reads the number's text in time linear in its length and
	// never overflows; the value is checked before it becomes an int64.
	f, _, err := big.ParseFloat(string(b), 10, 64, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return fmt.Errorf("must be a non-negative integer, got %s", b)
	}
	if f.Cmp(big.NewFloat(MaxCount)) > 0 || f.Cmp(big.NewFloat(-MaxCount)) < 0 {
		return fmt.Errorf("must be an integer not greater than %d, got %s", int64(MaxCount), b)
	}
	i, _ := f.Int64()
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
