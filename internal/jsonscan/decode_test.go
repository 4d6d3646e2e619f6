package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzValueAsDecoder: on valid JSON, Value gives what a json.Decoder with
// UseNumber gives; on any other text it ends and does not panic.
func FuzzValueAsDecoder(f *testing.F) {
	for _, seed := range []string{
		`{"a":1,"b":[1,{"c":"]}"}],"a":"\"x\\"}`, `{"\u0061":true,"a\"b":null,"":{}}`, ` { "a" : [ ] , "b" : { } } `,
		"{\n\t\"a\"\r\n:\t-1.5e3 ,\"b\":\"é😀\"}", `[1,"a",{"b":2},[3],null,true, false ]`, `[]`, `{}`, `null`, `"s\u00e9"`, `1`,
		"\"\xff\"", `"\ud800x"`, "{\"\xfe\":1}", `[[[]],{"a":{"b":[0.50,-0,1E+2]}}]`, `{"a":1,}`, `{"a"}`, `[1,`, `"`, `{"`, `{"a":"\`, `]`, `[}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		got := Value(v)
		if !json.Valid(v) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(v))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("%q: valid, but the Decoder says %v", v, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got  %#v\n want %#v", v, got, want)
		}
	})
}

type fieldsTest struct {
	S      string            `json:"s"`
	Raw    json.RawMessage   `json:"raw,omitempty"`
	List   []json.RawMessage `json:"list"`
	N      int               `json:"n"`
	L      []int             `json:"l"`
	P      *struct{ A int }  `json:"p"`
	M      map[string]int    `json:"m"`
	Untag  string
	Skip   string `json:"-"`
	hidden string
	Named  kind         `json:"named"`
	B      bool         `json:"b"`
	SL     []string     `json:"sl"`
	In     inner        `json:"in"`
	InL    []inner      `json:"inl"`
	Self   []fieldsTest `json:"self"`
	Num    json.Number  `json:"num"`
	Text   textual      `json:"text"`
	SP     *string      `json:"sp"`
}

type inner struct {
	A    int               `json:"a"`
	S    string            `json:"s"`
	R    []json.RawMessage `json:"r"`
	Deep []inner           `json:"deep"`
}

// textual decodes itself from a string; encoding/json gives it an object
// as an error.
type textual struct{ s string }

func (t *textual) UnmarshalText(b []byte) error { t.s = string(b); return nil }

type kind string

type embeds struct {
	fieldsTest
	X string `json:"x"`
}

type quoted struct {
	N int `json:"n,string"`
}

// FuzzFieldsAsUnmarshal: whatever Fields reads, it reads as json.Unmarshal
// does; what it does not, json.Unmarshal is left to decode.
func FuzzFieldsAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"s":"a","raw":{"x":[1]},"list":[1,"2",{}],"n":3,"p":{"A":1},"m":{"a":1},"Untag":"u","Skip":"k","hidden":"h","named":"k"}`,
		`{"S":"a","s":"b","RAW":null,"list":null,"LIST":[],"untag":"x","UNTAG":"y"}`, `{"s":null,"list":[ 1 , 2 ]}`, `{"s":1}`, `{"list":{}}`,
		`{"n":2.5}`, `{"n":"3"}`, `{"p":null,"p":{"A":2},"p":{"B":1}}`, `{"m":{"a":1},"m":{"b":2}}`, "{\"s\":\"\xff\\u00e9\",\"s\":\"\\ud800\"}",
		`{"\u0073":"esc","x":"y"}`, `{"l":[1,-2,null,0]}`, `{"l":null,"n":null}`, `{"l":[1.5]}`, `{"l":[1e2]}`, `{"n":-0,"l":[-0]}`,
		`{"n":9223372036854775808}`, `{"l":"1"}`, `{"l":[true]}`, `{}`, `{"n":"3","s":"q"}`, `{"named":"\u0041"}`, `{"ſ":"long s","K":1}`,
		`{"l":[1,2],"l":[null]}`, `{"l":[5,6],"l":[],"l":[null,null]}`, `{"sl":["a"],"sl":[null]}`, `{"b":true,"b":null,"sl":["x",null]}`,
		`{"in":{"a":1,"s":"x"},"in":{"a":2},"IN":null}`, `{"inl":[{"a":1},null,{"s":"y","r":[1]}]}`, `{"inl":[{"a":1}],"inl":[{"s":"z"}]}`,
		`{"inl":[{"deep":[{"a":1,"A":2}]}],"in":{"deep":null}}`, `{"in":[1]}`, `{"inl":[1]}`, `{"inl":{}}`, `{"self":[{"s":"a","self":[{}]}]}`,
		`{"num":1.5}`, `{"text":"t"}`, `{"text":{}}`, `{"b":1}`, `{"sl":[1]}`, `{"in":{"a":"1"}}`,
		`{"sp":"a"}`, `{"sp":"a","SP":null}`, `{"sp":null,"sp":"\u00e9"}`, `{"sp":1}`, `{"sp":{}}`, "{\"sp\":\"\xff\"}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		members, ok := SplitObject(data)
		if !json.Valid(data) || !ok {
			return
		}
		for _, newV := range []func() any{
			func() any { return new(fieldsTest) }, func() any { return new(embeds) }, func() any { return new(quoted) },
		} {
			got, want := newV(), newV()
			wantErr := json.Unmarshal(data, want)
			if !Fields(members, got) {
				continue
			}
			if wantErr != nil {
				t.Fatalf("%q into %T: read, but json.Unmarshal says %v", data, got, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%q into %T:\n got  %#v\n want %#v", data, got, got, want)
			}
		}
	})
}

// TestFieldsReadsWhatItCan: Fields reads a struct of plain fields, and
// leaves to json.Unmarshal the types it cannot read as encoding/json would.
func TestFieldsReadsWhatItCan(t *testing.T) {
	members, _ := SplitObject([]byte(`{"s":"a","list":[1,{"b":2}],"n":3,"l":[4],"m":{"a":1}}`))
	var v fieldsTest
	if !Fields(members, &v) {
		t.Fatal("a struct of plain fields was left to json.Unmarshal")
	}
	if v.S != "a" || v.SP != nil || len(v.List) != 2 || string(v.List[1]) != `{"b":2}` || v.N != 3 || v.L[0] != 4 || v.M["a"] != 1 {
		t.Fatalf("read %+v", v)
	}
	// The elements of a list share one copy, each ending where its
	// capacity does: an append to one leaves the next as it was.
	_ = append(v.List[0], "9999"...)
	if string(v.List[1]) != `{"b":2}` || cap(v.List[0]) != len(v.List[0]) {
		t.Fatalf("an append to the first element wrote over the second: %s", v.List[1])
	}
	nested, _ := SplitObject([]byte(`{"b":true,"sp":"p","sl":["x"],"in":{"a":1,"deep":[{"s":"d"}]},"inl":[{"a":2},null]}`))
	if !Fields(nested, &v) || !v.B || v.SL[0] != "x" || v.In.A != 1 || v.In.Deep[0].S != "d" || len(v.InL) != 2 || v.InL[0].A != 2 || v.SP == nil || *v.SP != "p" {
		t.Fatalf("nested structs, lists of them, booleans, pointers to strings and lists of strings were left to json.Unmarshal, or read as %+v", v)
	}
	if Fields(members, new(embeds)) || Fields(members, new(quoted)) || Fields(members, &members) {
		t.Fatal("an embedded struct, a string option or a value that is not a struct was read")
	}
}
