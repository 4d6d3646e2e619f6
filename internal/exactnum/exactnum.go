// Package exactnum reads the value of a JSON number from its decimal text
// exactly, in time linear in its length: the one reader of every count of
// the protocol, of configurations and of config files (CFG-3), and of a
// ratio's two decimals. A float64 would round 9007199254740991.0000000001
// or 3.0000000000000001 to a whole number.
package exactnum

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/jsonscan"
)

// MaxCount is the greatest count (CFG-3): 2^53 − 1, the greatest integer
// every JSON implementation holds exactly.
const MaxCount = 1<<53 - 1

var (
	// ErrNotInteger is returned for a number with a fractional part.
	ErrNotInteger = errors.New("must be a whole number")
	// ErrTooBig is returned for an integer beyond MaxCount either way.
	ErrTooBig = fmt.Errorf("must be an integer not greater than %d", int64(MaxCount))
	// ErrNotNumber is returned for text that is not a JSON number.
	ErrNotNumber = errors.New("must be a number")
)

// Integer is the value of the JSON number text when it is an integer of
// magnitude at most MaxCount, however it is written (3, 3.0, 3e0, 30e-1);
// a negative one is returned as such, for the caller's own check to name.
func Integer(text string) (int64, error) { return Scaled(text, 0) }

// Scaled is the value of the JSON number text times 10^places, when that
// is an integer of magnitude at most MaxCount: Scaled("0.8", 2) is 80,
// Scaled("0.805", 2) is ErrNotInteger.
func Scaled(text string, places int) (int64, error) {
	if !jsonscan.Number(text) {
		return 0, ErrNotNumber
	}
	neg := strings.HasPrefix(text, "-")
	s := strings.TrimPrefix(text, "-")
	mant, exp := s, places
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
		exp += e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	point := len(digits) - len(frac) + exp // digits before the point
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, nil
	}
	if point < len(digits) {
		return 0, ErrNotInteger
	}
	if point > 16 {
		return 0, ErrTooBig
	}
	n, err := strconv.ParseInt(digits+strings.Repeat("0", point-len(digits)), 10, 64)
	if err != nil || n > MaxCount {
		return 0, ErrTooBig
	}
	if neg {
		n = -n
	}
	return n, nil
}
