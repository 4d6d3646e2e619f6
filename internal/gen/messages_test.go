package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

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

// TestPlain holds plain to what it says: nothing to escape (no '"', '\'
// or control character) and valid UTF-8, checked here in two passes as it
// was written before it made one.
func TestPlain(t *testing.T) {
	want := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i]; c < 0x20 || c == '"' || c == '\\' {
				return false
			}
		}
		return utf8.ValidString(s)
	}
	cases := append([]string{"", "a\xffb", "\xed\xa0\x80", "é\"", "\ufffd", "日本\x01", "x\xe6\x97", "\xf4\x90\x80\x80"}, fragments...)
	for _, s := range cases {
		if got := plain(s); got != want(s) {
			t.Errorf("plain(%q) = %v, want %v", s, got, want(s))
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		b := rapid.SliceOfN(rapid.SampledFrom([]byte("a\"\\\x00\x1f\x7f\x80\xbf\xc3\xa9\xe6\x97\xa5\xed\xa0\xf0\x9f\x98\x80\xff")), 0, 12).Draw(rt, "bytes")
		if s := string(b); plain(s) != want(s) {
			rt.Fatalf("plain(%q) = %v, want %v", s, plain(s), want(s))
		}
	})
}

// TestQuotesAsFmtWrote holds the string writers to the way they were
// written with fmt and utf16.Encode, for every code point of the first
// plane's edges, the controls, the astral planes' edges and invalid bytes.
func TestQuotesAsFmtWrote(t *testing.T) {
	jsWant := func(s string) string {
		b := []byte{'"'}
		for _, r := range s {
			switch {
			case r == '"' || r == '\\':
				b = append(b, '\\', byte(r))
			case r == '\b':
				b = append(b, `\b`...)
			case r == '\t':
				b = append(b, `\t`...)
			case r == '\n':
				b = append(b, `\n`...)
			case r == '\f':
				b = append(b, `\f`...)
			case r == '\r':
				b = append(b, `\r`...)
			case r < 0x20:
				b = fmt.Appendf(b, `\u%04x`, r)
			default:
				b = utf8.AppendRune(b, r)
			}
		}
		return string(append(b, '"'))
	}
	escWant := func(s string) string {
		b := []byte{'"'}
		for _, r := range s {
			switch {
			case r == '"' || r == '\\':
				b = append(b, '\\', byte(r))
			case r == '/':
				b = append(b, `\/`...)
			case r < 0x20 || r >= 0x7f:
				for _, u := range utf16.Encode([]rune{r}) {
					b = fmt.Appendf(b, `\u%04X`, u)
				}
			default:
				b = append(b, byte(r))
			}
		}
		return string(append(b, '"'))
	}
	var cases []string
	for r := rune(0); r < 0x100; r++ {
		cases = append(cases, string(r), "a"+string(r)+"b")
	}
	for _, r := range []rune{0x7ff, 0x800, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff, 0x2028, 0x2029} {
		cases = append(cases, string(r), "x"+string(r))
	}
	cases = append(cases, "a\xffb", "\xed\xa0\x80", "x\xe6\x97", "\xf4\x90\x80\x80")
	cases = append(cases, fragments...)
	for _, s := range cases {
		if got, want := string(quoteJS(nil, s)), jsWant(s); got != want {
			t.Errorf("quoteJS(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(quoteEscaped(nil, s)), escWant(s); got != want {
			t.Errorf("quoteEscaped(%q) = %s, want %s", s, got, want)
		}
	}
}
