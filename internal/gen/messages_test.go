package gen

import (
	"bytes"
	"encoding/json"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/internal/jsoncmp"
)

// TestSpecExamples checks the serialization the estimates count against
// the spec's own examples (EST-2, EST-3).
func TestSpecExamples(t *testing.T) {
	// EST-3: [ {"type": "text", "text": "hi 😀"} ] is 32 characters.
	v := jarr(jobj(mem("type", jstr("text")), mem("text", jstr("hi 😀"))))
	if got, want := v.compact(), `[{"type":"text","text":"hi 😀"}]`; got != want || UTF16Len(got) != 32 {
		t.Errorf("compact = %s (%d characters), want %s (32)", got, UTF16Len(got), want)
	}
	// EST-2: "a", "é", "你" count 1; "😀" counts 2.
	for s, n := range map[string]int{"a": 1, "é": 1, "你": 1, "😀": 2, "e\u0301": 2, "👩‍💻": 5} {
		if UTF16Len(s) != n {
			t.Errorf("utf16Len(%q) = %d, want %d", s, UTF16Len(s), n)
		}
	}
}

// TestGeneratedMessages checks the generators against themselves: every
// message is valid JSON with a role, its wire form and compact form are
// the same value, and the compact form is compact.
func TestGeneratedMessages(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := Messages(rapid.IntRange(-1, 5).Draw(rt, "seq"), MessageOpts{Tools: rapid.Bool().Draw(rt, "tools")}).Draw(rt, "message")
		var members map[string]json.RawMessage
		if err := json.Unmarshal(m.Raw, &members); err != nil {
			rt.Fatalf("not a JSON object: %v: %s", err, m.Raw)
		}
		var role string
		if json.Unmarshal(members["role"], &role) != nil || role != m.Role {
			rt.Fatalf("role %q, want %q: %s", role, m.Role, m.Raw)
		}
		c, ok := members["content"]
		switch {
		case m.Kind == "absent":
			if ok {
				rt.Fatalf("content present: %s", m.Raw)
			}
		case m.Kind == "string":
			var s string
			if json.Unmarshal(c, &s) != nil || s != m.Counted {
				rt.Fatalf("string content %s decodes to %q, want %q", c, s, m.Counted)
			}
		case m.Kind != "null":
			if !jsoncmp.Equal(c, []byte(m.Counted)) {
				rt.Fatalf("compact form %s is not the content %s", m.Counted, c)
			}
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(m.Counted)); err != nil || b.String() != m.Counted {
				rt.Fatalf("compact form %s is not compact JSON (%v)", m.Counted, err)
			}
		}
	})
}
