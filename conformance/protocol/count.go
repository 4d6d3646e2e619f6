package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
	i, err := integerValue(string(b))
	if err != nil {
		return fmt.Errorf("%w, got %s", err, b)
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

var (
	errNotCount = errors.New("must be a non-negative integer")
	errTooBig   = fmt.Errorf("must be an integer not greater than %d", int64(MaxCount))
)

// integerValue reads a JSON number's decimal text exactly, in time linear in
// its length: a float64 would round 9007199254740991.0000000001 to a count.
func integerValue(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil { // an exponent beyond an int: all depends on its sign
			if strings.HasPrefix(s[i+1:], "-") {
				e = -1 << 40
			} else {
				e = 1 << 40
			}
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(intPart) - (len(intPart) + len(frac) - len(digits)) + exp // digits before the point, counted in digits
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, nil
	}
	if point < len(digits) {
		return 0, errNotCount
	}
	if point > 16 {
		return 0, errTooBig
	}
	n, err := strconv.ParseInt(digits+strings.Repeat("0", point-len(digits)), 10, 64)
	if err != nil || n > MaxCount {
		return 0, errTooBig
	}
	if neg {
		n = -n
	}
	return n, nil
}
