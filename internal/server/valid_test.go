package server

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzValidAsJSONValid: the request line check accepts exactly what
// json.Valid accepts.
func FuzzValidAsJSONValid(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,-2.5e+3,0,-0,1E9,true,false,null,"s\"\\\/\b\f\n\r\t\u00e9\uD800"]}}`,
		` [ ] `, `{}`, `""`, `0`, `-`, `01`, `1.`, `.5`, `1e`, `1e+`, `-01`, `+1`, `1.5E-7`, `[1,]`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`,
		`[1 2]`, `{"a":1 "b":2}`, `nul`, `truex`, `[true false]`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"\x01\"", "\"\x7f\xff\"", `"abc`, `[`, `]`,
		"{\"a\":[1,{\"b\":null}]}\n", "\t1\r\n", `[] []`, `"a" "b"`, ``, ` `, `{"a":1}}`, `[[[]]`, `1 x`, `tru`, `nulll`, `-0.0e-0`, `[-]`, `[0x1]`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000), strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
		strings.Repeat("[", 10001),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", data, got, want)
		}
	})
}
