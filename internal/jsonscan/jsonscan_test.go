package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// FuzzSplitAsUnmarshal: on valid JSON, SplitObject and SplitArray give what
// encoding/json gives when it decodes the text into
// map[string]json.RawMessage and []json.RawMessage: the same refusals, the
// same members (the last of a name written twice) and elements, byte for
// byte; String gives what decoding into a string gives. On any other text
// they end and do not panic. Text that is not valid UTF-8 is a reader's to
// refuse first, as message.Parse does.
func FuzzSplitAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"a":1,"b":[1,{"c":"]}"}],"a":"\"x\\"}`, `{"\u0061":true,"a\"b":null}`, ` { "a" : [ ] , "b" : { } } `,
		"{\n\t\"a\"\r\n:\t-1.5e3 ,\"b\":\"é😀\"}", `[1,"a",{"b":2},[3],null,true, false ]`, `[]`, `{}`, `null`, `"s\u00e9"`, `1`,
		`{"a":1,}`, `{"a"}`, `[1,`, `"`, `{"`, `{"a":"\`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		o, isObject := SplitObject(v)
		a, isArray := SplitArray(v)
		s, isString := String(bytes.TrimSpace(v))
		if !json.Valid(v) || !utf8.Valid(v) {
			// No panic is all that is asked; a reader that needs the
			// text as valid UTF-8 checks it first (encoding/json would
			// write U+FFFD for each bad byte).
			return
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(v, &m); (err == nil) != isObject {
			t.Fatalf("%q: SplitObject says object %v, encoding/json says %v", v, isObject, err)
		}
		for name, want := range m {
			if got, ok := o.Get(name); !ok || !bytes.Equal(got, want) {
				t.Fatalf("%q: member %q is %q (%v), encoding/json says %q", v, name, got, ok, want)
			}
		}
		for _, mem := range o {
			if _, ok := m[string(mem.Name)]; !ok {
				t.Fatalf("%q: member %q, which encoding/json does not see", v, mem.Name)
			}
		}
		var l []json.RawMessage
		if err := json.Unmarshal(v, &l); (err == nil && bytes.TrimSpace(v)[0] == '[') != isArray {
			t.Fatalf("%q: SplitArray says array %v, encoding/json says %v", v, isArray, err)
		}
		if isArray && len(a) != len(l) {
			t.Fatalf("%q: %d elements, encoding/json says %d", v, len(a), len(l))
		}
		for i := range a {
			if !bytes.Equal(a[i], l[i]) {
				t.Fatalf("%q: element %d is %q, encoding/json says %q", v, i, a[i], l[i])
			}
		}
		var want string
		if err := json.Unmarshal(v, &want); (err == nil && bytes.TrimSpace(v)[0] == '"') != isString || isString && s != want {
			t.Fatalf("%q: String gives %q (%v), encoding/json %q (%v)", v, s, isString, want, err)
		}
	})
}
