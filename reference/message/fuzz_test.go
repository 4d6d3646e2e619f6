package message

import (
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzParse: a message parses or is refused with an error, never a panic;
// the compact JSON form of what parses is valid UTF-8 JSON, and compacting
// it again changes nothing.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`{"role":"user","content":"hi"}`, `{"role":"assistant","content":[{"type":"text","text":"a"}]}`,
		`{"role":"tool","content":"x","tool_call_id":"1"}`, `{"role":"user","content":[1e400,{"a":"\u0001"}]}`,
		`{"role":"user","content":"\ud800"}`, `{"role":"user","content":{"a":1,"a":2}}`, "{\"role\":\"user\",\"content\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := Parse(data); err != nil {
			return
		}
		// A message Parse accepts can always be counted (MSG-1): Compact
		// accepts it too, whichever path Parse validated it by.
		c, err := Compact(data)
		if err != nil {
			t.Fatalf("Parse accepted %q, which Compact refuses: %v", data, err)
		}
		if !utf8.ValidString(c) || !json.Valid([]byte(c)) {
			t.Fatalf("Compact(%q) = %q, not valid UTF-8 JSON", data, c)
		}
		again, err := Compact([]byte(c))
		if err != nil || again != c {
			t.Fatalf("Compact is not stable on %q: %q then %q (%v)", data, c, again, err)
		}
	})
}
