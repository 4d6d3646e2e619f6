package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzMarshaledAsMarshal: Marshaled says of every text what json.Marshal
// of a json.RawMessage holding it says: valid when Marshal has no error,
// same when Marshal writes the text unchanged; and AppendMarshaled appends
// Marshal's bytes, or nothing when Marshal fails.
func FuzzMarshaledAsMarshal(f *testing.F) {
	for _, seed := range []string{
		`{"role":"user","content":"hi"}`, ` {"role" : "user",` + "\n\t" + `"content":"a b"} `, `[1, 2 ,3]`,
		`{"content":"<b>&amp;</b>"}`, "{\"content\":\"a\u2028b\u2029c\"}", "\"\xe2\x80\xa8\"", "\"\xe2\x80\"", "\"\xe2\x80\xaa\"", "\"\xe2\"",
		"\"\u2029\"", "{\"a\":1,\r\"b\":[1\r]}", `"\"<\\"`, `"\\"`, `"\u003c"`, `"a\" <"`, "[\"\\\" \", \" x\"]", `{"a":"\u2028"}`, "\"\xff<\"",
		`{"a":1,}`, `{"a"}`, `[1,`, `nul`, ``, ` `, `"abc`, "\"\t\"", `{} {}`, `01`, `1 `, ` 1`, `{"a":[true,false,null,-1.5e3]}`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if v == nil {
			v = []byte{} // a nil json.RawMessage is null to Marshal; the callers write it themselves
		}
		want, err := json.Marshal(json.RawMessage(v))
		valid, same := scan(v)
		if valid != (err == nil) {
			t.Fatalf("scan(%q) valid = %v, json.Marshal's error %v", v, valid, err)
		}
		if valid && same != bytes.Equal(want, v) {
			t.Fatalf("scan(%q) same = %v, json.Marshal writes %q", v, same, want)
		}
		got, ok := AppendMarshaled([]byte("x"), v)
		if ok != valid || (ok && string(got) != "x"+string(want)) || (!ok && string(got) != "x") {
			t.Fatalf("AppendMarshaled(%q) = %q, %v; json.Marshal writes %q, %v", v, got, ok, want, err)
		}
		if valid { // without HTML escaping: json.Compact, as the reference server writes messages
			var compact bytes.Buffer
			if err := json.Compact(&compact, v); err != nil {
				t.Fatalf("json.Compact(%q): %v, json.Marshal took it", v, err)
			}
			if got := AppendCompact([]byte("x"), v, false); string(got) != "x"+compact.String() {
				t.Fatalf("AppendCompact(%q, false) = %q; json.Compact writes %q", v, got, compact.String())
			}
		}
	})
}
