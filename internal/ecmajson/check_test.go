package ecmajson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

var checkSeeds = []string{
	`"hi"`, `"é😀"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\ud800"`, `"\ud800x"`,
	`"\\ud800"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u0000\u001f\u00e9"`, "\"\xff\"", "\"\xed\xa0\x80\"", "\"a\x01\"", "\"a\x1f\"", `"a" `, `"a"b"`, `"\x"`,
	`"\u12"`, `"\u12g4"`, `"`, `""`, `"\"`, `{"role":"user","content":"\ud800\udc00"}`, `["\u00e9",1e400,{"a":"\\\ud800"}]`, `[1,2]`,
	`{"a\ud834\udd1e":"x\u0041","b":"\udbff\udfff"}`, "{\"a\":\"\xc3\"}", `"\uDBFF\uDFFF"`, `"\uDFFF\uDBFF"`,
}

// FuzzCountableAsCompact: on a text json.Valid accepts, Countable is
// Compact accepting it; the message parser counts on it to spare a
// compaction (MSG-1).
func FuzzCountableAsCompact(f *testing.F) {
	for _, s := range checkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := Countable(data) // ends, and does not panic, on any text
		if !json.Valid(data) {
			return
		}
		if _, err := Compact(data); got != (err == nil) {
			t.Fatalf("Countable(%q) = %v, but Compact says %v", data, got, err)
		}
	})
}

// contentLengthByCompact is ContentLength as it was before contents were
// measured as written: a string compacted to be checked, decoded by
// encoding/json and measured; anything else compacted and measured.
func contentLengthByCompact(content []byte) (int, error) {
	c := bytes.Trim(content, jsonSpace)
	switch {
	case len(c) == 0 || string(c) == "null":
		return 0, nil
	case c[0] == '"':
		if _, err := Compact(c); err != nil {
			return 0, err
		}
		var s string
		if err := json.Unmarshal(c, &s); err != nil {
			return 0, err
		}
		return Length(s), nil
	default:
		ser, err := Compact(c)
		if err != nil {
			return 0, err
		}
		return Length(ser), nil
	}
}

// FuzzContentLengthAsCompact: a content measured as it is written
// measures what it measured compacted (and a string decoded), with the
// same error, for any text.
func FuzzContentLengthAsCompact(f *testing.F) {
	for _, s := range checkSeeds {
		f.Add([]byte(s))
	}
	for _, s := range []string{
		` [ {"type":"text","text":"a\"b"} , {"a":1.50,"b":-0,"c":1e400,"d":-1e-400,"e":123456789012345678,"f":100} ] `,
		`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\u0062":1}`, `[true,false,null]`, `{"a":{"b":[]},"c":{}}`, `-0`, `0.0`, `1E2`, `12345678901234567`, `[100000000000000000000000,-1234567890123456789012]`,
		`[1,]`, `{"a":1,}`, `{"a" 1}`, `[01]`, `[1.]`, `[-]`, `{"a":"\u0022\u002f\u005c\/\u0001\u007f\u2028"}`, `[1] x`, `[`, `tru`,
		`{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0,"k":0,"l":0,"m":0,"n":0,"o":0,"p":0,"q":0,"a":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, gotErr := ContentLength(data)
		want, wantErr := contentLengthByCompact(data)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("ContentLength(%q) = %d, %v; compacted: %d, %v", data, got, gotErr, want, wantErr)
		}
	})
}
