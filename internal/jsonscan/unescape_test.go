package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzUnescapeAsUnmarshal: a valid string token's text is what
// json.Unmarshal decodes it to, by unescape itself, never by the fallback
// to encoding/json; unquoted gives the same when the token has an escape.
func FuzzUnescapeAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`a\"b`, `\\`, `\/\b\f\n\r\t`, `\u0041\u00e9\u20AC`, `\ud83d\ude00`, `\uD83D\uDE00x`, `\ud800`, `\ud800x`, `\ud800\u0041`,
		`\udc00`, `\udc00\ud800`, `\ud800\ud800\udc00`, `\ud800\\u0041`, `é😀\n`, "\xff\\n", "\xed\xa0\x80\\t", "a\xc3", `\u0000`,
		`\uFFFD`, `\uffff\ud7ff\ue000`, `\'`, `\x`, `\u12`, `\u12g4`, `\`, `"`, "\x01", `plain`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		token := append(append([]byte{'"'}, body...), '"')
		got, ok := unescape(body) // must end, and not panic, whatever body is
		if !json.Valid(token) {
			return
		}
		var want string
		if err := json.Unmarshal(token, &want); err != nil {
			t.Fatalf("%q: valid, but json.Unmarshal says %v", token, err)
		}
		if !ok || got != want {
			t.Fatalf("%q: unescape gives %q (%v), json.Unmarshal %q", token, got, ok, want)
		}
		if s := unquote(token); s != want {
			t.Fatalf("%q: unquote gives %q, json.Unmarshal %q", token, s, want)
		}
		if bytes.IndexByte(body, '\\') >= 0 && string(unquoted(token)) != want {
			t.Fatalf("%q: unquoted gives %q, json.Unmarshal %q", token, unquoted(token), want)
		}
	})
}

// BenchmarkUnquote: strings as a conversation's messages write them, with
// quotes, newlines and emoji escaped.
func BenchmarkUnquote(b *testing.B) {
	tokens := [][]byte{
		[]byte(`"He said \"no\".\nThen he left."`), []byte(`"line one\nline two\n\ttabbed \u00e9 \ud83d\ude00"`),
		[]byte(`"{\"path\":\"/tmp/x\",\"n\":3}"`), []byte(`"plain text without escapes, the common case"`),
	}
	for b.Loop() {
		for _, t := range tokens {
			_ = unquote(t)
		}
	}
}
