package exactnum

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestScaled(t *testing.T) {
	for _, c := range []struct {
		text   string
		places int
		want   int64
		err    error
	}{
		{"3", 0, 3, nil}, {"3.0", 0, 3, nil}, {"3e0", 0, 3, nil}, {"30e-1", 0, 3, nil}, {"0.3e1", 0, 3, nil}, {"-0", 0, 0, nil}, {"-3", 0, -3, nil},
		{"9007199254740991", 0, MaxCount, nil}, {"9007199254740991.000", 0, MaxCount, nil},
		{"9007199254740992", 0, 0, ErrTooBig}, {"1e16", 0, 0, ErrTooBig}, {"1e99999999999999999999", 0, 0, ErrTooBig}, {"-1e20", 0, 0, ErrTooBig},
		{"3.0000000000000001", 0, 0, ErrNotInteger}, {"9007199254740991.0000000001", 0, 0, ErrNotInteger}, {"1e-99999999999999999999", 0, 0, ErrNotInteger},
		{"0e99999999999999999999", 0, 0, nil},
		{"0.8", 2, 80, nil}, {"0.80", 2, 80, nil}, {"8e-1", 2, 80, nil}, {"1", 2, 100, nil}, {"0.01", 2, 1, nil},
		{"0.805", 2, 0, ErrNotInteger}, {"0.8000000000000001", 2, 0, ErrNotInteger},
		{"", 0, 0, ErrNotNumber}, {"+3", 0, 0, ErrNotNumber}, {"03", 0, 0, ErrNotNumber}, {".5", 0, 0, ErrNotNumber}, {"5.", 0, 0, ErrNotNumber},
		{"1e", 0, 0, ErrNotNumber}, {`"3"`, 0, 0, ErrNotNumber}, {"true", 0, 0, ErrNotNumber}, {" 3", 0, 0, ErrNotNumber},
	} {
		got, err := Scaled(c.text, c.places)
		if !errors.Is(err, c.err) || (c.err == nil && got != c.want) {
			t.Errorf("Scaled(%q, %d) = %d, %v; want %d, %v", c.text, c.places, got, err, c.want, c.err)
		}
	}
	// Linear in the length: a million digits are read at once.
	if _, err := Integer("1." + strings.Repeat("0", 1_000_000)); err != nil {
		t.Errorf("1.000…0: %v", err)
	}
}

// Scaled reads RFC 8259's number grammar: over strings of the characters
// a number is made of, what it refuses as not a number is what
// encoding/json refuses, for which any valid text of these characters is a
// number.
func TestNumbersAreWhatEncodingJSONAccepts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.StringOfN(rapid.RuneFrom([]rune("0123456789.eE+-")), 0, 12, -1).Draw(t, "s")
		_, err := Scaled(s, 0)
		if got, want := !errors.Is(err, ErrNotNumber), json.Valid([]byte(s)); got != want {
			t.Fatalf("Scaled(%q) takes it for a number: %v, json.Valid = %v", s, got, want)
		}
	})
}
