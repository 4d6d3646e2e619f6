package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzValidAsEncodingJSON: Valid says of every text what json.Valid says.
func FuzzValidAsEncodingJSON(f *testing.F) {
	for _, seed := range []string{
		`{"a":1,"b":[1,{"c":"]}"}],"a":"\"x\\"}`, `{"\u0061":true,"a\"b":null,"":{}}`, ` { "a" : [ ] , "b" : { } } `,
		"{\n\t\"a\"\r\n:\t-1.5e3 ,\"b\":\"é😀\"}", `[1,"a",{"b":2},[3],null,true, false ]`, `[]`, `{}`, `null`, `"s\u00e9"`, `1`,
		"\"\xff\"", `"\ud800x"`, "{\"\xfe\":1}", `[[[]],{"a":{"b":[0.50,-0,1E+2]}}]`, `{"a":1,}`, `{"a"}`, `[1,`, `"`, `{"`, `{"a":"\`, `]`, `[}`,
		`01`, `-`, `1.`, `1e`, `1e+`, `.5`, `+1`, `tru`, `nul`, `falsey`, `"\u12"`, `"\x"`, "\"\t\"", `[1 2]`, `{"a" 1}`, `{1:2}`, ``, ` `, `{} {}`, `"a"b`,
		// The request lines conform serve checks (D-90): every escape, numbers at their edges,
		// nesting at json.Valid's limit and past it.
		`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[1,-2.5e+3,0,-0,1E9,true,false,null,"s\"\\\/\b\f\n\r\t\u00e9\uD800"]}}`,
		`-01`, `1.5E-7`, `[1,]`, `{"a":}`, `"\u12g4"`, "\"\x01\"", "\"\x7f\xff\"", `"abc`, "\t1\r\n", `{"a":1}}`, `[[[]]`, `1 x`, `nulll`,
		`-0.0e-0`, `[-]`, `[0x1]`,
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000), strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
		strings.Repeat("[", 10001),
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		if got, want := Valid(v), json.Valid(v); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", v, got, want)
		}
	})
}

// TestValidNesting: Valid refuses the nesting json.Valid refuses, and no
// less.
func TestValidNesting(t *testing.T) {
	for _, depth := range []int{1, 63, 64, 65, maxDepth - 1, maxDepth, maxDepth + 1} {
		for _, open := range []string{"[", "{\"a\":"} {
			closing := map[string]string{"[": "]", "{\"a\":": "}"}[open]
			for _, inner := range []string{"", "1"} {
				v := []byte(strings.Repeat(open, depth) + inner + strings.Repeat(closing, depth))
				if open != "[" && inner == "" {
					v = []byte(strings.Repeat(open, depth-1) + "{}" + strings.Repeat(closing, depth-1))
				}
				if got, want := Valid(v), json.Valid(v); got != want {
					t.Errorf("depth %d of %s%s: Valid %v, json.Valid %v", depth, open, inner, got, want)
				}
			}
		}
	}
}

// TestValidEveryByte: Valid agrees with json.Valid on every byte in every
// place of the grammar: in a string, after a backslash, in a \u escape,
// in and after a number, a literal, between members and elements.
func TestValidEveryByte(t *testing.T) {
	places := []string{
		`%`, `"%"`, `"\%"`, `"\u00%0"`, `"\u0%"`, `[1%]`, `[1,%]`, `[%1]`, `{"a"%1}`, `{"a":1%}`, `{%}`, `{"a":%}`,
		`1%`, `-%`, `0%`, `1.%`, `1.0%`, `1e%`, `1e+%`, `1E-1%`, `t%`, `tru%`, `true%`, `nul%`, `fals%`, `[]%`, `{}%`, `%[]`,
	}
	for b := range 256 {
		for _, p := range places {
			v := []byte(strings.Replace(p, "%", string([]byte{byte(b)}), 1))
			if got, want := Valid(v), json.Valid(v); got != want {
				t.Errorf("Valid(%q) = %v, json.Valid %v", v, got, want)
			}
		}
	}
}

// BenchmarkValid checks a result of 100 messages, as the harness checks
// every response line, with Valid and with json.Valid.
func BenchmarkValid(b *testing.B) {
	msgs := make([]string, 100)
	for i := range msgs {
		msgs[i] = `{"role":"user","content":"message number ` + strings.Repeat("x", i%40) + ` of the conversation","x_seq":12345}`
	}
	line := []byte(`{"jsonrpc":"2.0","id":7,"result":{"trimmed":[` + strings.Join(msgs, ",") + `],"evicted":[],"metrics":{"totalMessages":100,"preservedMessages":100,"evictedMessages":0,"estimatedTokens":100},"warnings":[]}}`)
	for _, v := range []struct {
		name  string
		valid func([]byte) bool
	}{{"jsonscan", Valid}, {"encoding-json", json.Valid}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(line)))
			for b.Loop() {
				if !v.valid(line) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
