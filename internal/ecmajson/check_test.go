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

// contentLengthByCompact is ContentLength of a string as it was before
// strings were counted as written: compacted to be checked, decoded by
// encoding/json, measured.
func contentLengthByCompact(content []byte) (int, error) {
	c := bytes.Trim(content, jsonSpace)
	if _, err := Compact(c); err != nil {
		return 0, err
	}
	var s string
	if err := json.Unmarshal(c, &s); err != nil {
		return 0, err
	}
	return Length(s), nil
}

// FuzzStringLengthAsCompact: a string counted as it is written counts
// what it counted compacted and decoded, with the same error, for any
// text.
func FuzzStringLengthAsCompact(f *testing.F) {
	for _, s := range checkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 || data[0] != '"' {
			data = append([]byte{'"'}, data...)
		}
		got, gotErr := ContentLength(data)
		want, wantErr := contentLengthByCompact(data)
		if got != want || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("ContentLength(%q) = %d, %v; compacted and decoded: %d, %v", data, got, gotErr, want, wantErr)
		}
	})
}
