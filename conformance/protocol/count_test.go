package protocol

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Count
		ok   bool
	}{
		{"3", 3, true}, {"3.0", 3, true}, {"3e0", 3, true}, {"3e3", 3000, true}, {"1.0", 1, true},
		{"-1", -1, true}, {"9007199254740991", MaxCount, true}, {"9223372036855", 9223372036855, true},
		{"2.5", 0, false}, {`"3"`, 0, false}, {"true", 0, false}, {"9007199254740992", 0, false}, {"1e400", 0, false},
	} {
		var c Count
		err := json.Unmarshal([]byte(tc.in), &c)
		if !tc.ok {
			assert.Error(t, err, "Count %s = %d", tc.in, c)
		} else if assert.NoError(t, err, "Count %s", tc.in) {
			assert.Equal(t, tc.want, c, "Count %s", tc.in)
		}
	}
}

// FuzzCount: any JSON number decodes as a count exactly when it is an
// integer within ±(2^53 − 1), to that integer; nothing panics.
func FuzzCount(f *testing.F) {
	for _, seed := range []string{"0", "3.0", "3e3", "-0", "1e-7", "9007199254740991", "9007199254740992", "1e400", "0.1e1", "abc"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var c Count
		err := json.Unmarshal([]byte(s), &c)
		var n json.Number
		if len(s) > 40 { // big.Rat would spend its time on 1e999999999
			return
		}
		// json.Number also reads a number in a string ("3"), which is no count
		if json.Unmarshal([]byte(s), &n) != nil || !json.Valid([]byte(s)) || strings.HasPrefix(strings.TrimSpace(s), `"`) {
			if err == nil && string(s) != "null" {
				t.Fatalf("%q is not a JSON number but decoded as count %d", s, c)
			}
			return
		}
		r, ok := new(big.Rat).SetString(n.String())
		if !ok {
			return
		}
		want := r.IsInt() && r.Num().CmpAbs(big.NewInt(MaxCount)) <= 0
		if want != (err == nil) {
			t.Fatalf("%s: decoded %v (err %v), want ok %v", s, err == nil, err, want)
		}
		if want && big.NewInt(int64(c)).Cmp(r.Num()) != 0 {
			t.Fatalf("%s decoded as %d", s, c)
		}
	})
}
