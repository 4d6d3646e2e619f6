package paramsjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// nilMessage, as a piece of a fuzzed list, stands for a nil
// json.RawMessage, which encoding/json writes null.
const nilMessage = "~nil~"

// values builds one value of every params type Marshal writes itself from
// a fuzzer's input: msgs is a list of messages separated by NUL (a NUL is
// never in a valid JSON text), raw a single json.RawMessage, s and t
// strings, n a count, and the bits of flags choose nil, empty or present
// for each member that may be so.
func values(msgs, raw []byte, s, t string, n int64, flags uint16) []any {
	bit := func(i int) bool { return flags&(1<<i) != 0 }
	var list []json.RawMessage
	if !bit(0) {
		list = []json.RawMessage{} // empty, not nil
		if len(msgs) > 0 || bit(1) {
			for _, m := range bytes.Split(msgs, []byte{0}) {
				if string(m) == nilMessage {
					list = append(list, nil)
				} else {
					list = append(list, json.RawMessage(m))
				}
			}
		}
	}
	one := json.RawMessage(raw)
	if bit(2) {
		one = nil
	}
	var limits map[string]protocol.Count
	if bit(3) {
		limits = map[string]protocol.Count{}
		if bit(4) {
			limits[s], limits[t], limits["gpt-4o"] = protocol.Count(n), protocol.Count(-n), 3
		}
	}
	var script *protocol.SummarizerScript
	if bit(5) {
		script = &protocol.SummarizerScript{}
		if bit(6) {
			script.Reply = &s
		}
		if bit(7) {
			script.Error = &t
		}
		if bit(8) {
			script.DelayMS = protocol.Count(n)
		}
		if bit(9) {
			script.TimeoutMS = protocol.Count(n / 2)
		}
	}
	var config *protocol.ConfigSource
	if bit(10) {
		config = &protocol.ConfigSource{Format: s, Text: t}
	}
	var iterations []protocol.LoopIteration
	if bit(11) {
		iterations = []protocol.LoopIteration{{Prompt: one}, {Prompt: json.RawMessage(`{"role":"user","content":"go"}`), Turns: []protocol.LoopTurn{}}}
		if bit(12) {
			iterations[0].Turns = []protocol.LoopTurn{{Response: one, Results: list}, {Response: json.RawMessage(`{"role":"assistant","content":"ok"}`)}}
		}
	}
	var summarizers []protocol.SummarizerScript
	if bit(13) {
		summarizers = []protocol.SummarizerScript{}
		if script != nil {
			summarizers = append(summarizers, *script, protocol.SummarizerScript{})
		}
	}
	return []any{
		protocol.TrimmerTrimParams{Trimmer: s, Messages: list, Limit: one},
		protocol.TrimmerCountParams{Trimmer: t, Messages: list},
		protocol.WindowTrimParams{Window: s, Messages: list, Summarizer: script},
		protocol.WindowEstimateParams{Messages: list},
		protocol.WindowSummarizeParams{Messages: list, Summarizer: script},
		protocol.WindowCreateParams{Config: one},
		protocol.TokensEncodeParams{Text: s},
		protocol.BudgetCountParams{Messages: list},
		protocol.BudgetCheckParams{Messages: list, Model: s, Limits: limits},
		protocol.BudgetPruneParams{Messages: list, Model: t, Limits: limits, TargetRatio: one},
		protocol.BudgetCompressParams{Messages: list, Summarizer: script},
		protocol.BudgetPrepareParams{Messages: list, Model: s, Limits: limits, Summarizer: script},
		protocol.HistoryClassifyParams{Messages: list},
		protocol.HistoryPruneParams{Messages: list},
		protocol.HistoryBuildParams{Messages: list, MaxMessages: one},
		protocol.ConfigResolveParams{Config: config},
		protocol.LoopRunParams{Config: config, Initial: list, Iterations: iterations, Summarizers: summarizers},
		protocol.InitializeParams{Protocol: int(n), Suite: t},
		// As the differential properties build params: a map, its values
		// of any type.
		anyMap(flags, map[string]any{"messages": list, "model": s, t: n, s + "<": one, "summarizer": script, "limits": limits,
			"nested": map[string]any{"messages": list, "text": t}}),
	}
}

// anyMap is m, or a nil or an empty map as flags say.
func anyMap(flags uint16, m map[string]any) map[string]any {
	switch {
	case flags&(1<<14) != 0:
		return nil
	case flags&(1<<15) != 0:
		return map[string]any{}
	}
	return m
}

// FuzzMarshalAsEncodingJSON: for every params type it writes itself,
// Marshal writes json.Marshal's bytes, and fails when and as it fails.
func FuzzMarshalAsEncodingJSON(f *testing.F) {
	compact := `{"role":"user","content":"hello"}`
	for _, seed := range []struct {
		msgs, raw string
		s, t      string
		n         int64
		flags     uint16
	}{
		{compact + "\x00" + `{"role":"assistant","content":"hi"}`, "10", "tail", "gpt-4o", 3, 0},
		// Not compact: white space between tokens, a string's own kept.
		{" {\"role\" : \"user\",\n\t\"content\":\"a  b\"} \x00[1, 2]", " 7 ", "w1", "m", 0, 1<<3 | 1<<4},
		// Escaped for HTML: < > & and U+2028, U+2029, in messages, strings and map names.
		{`{"role":"user","content":"<b>&amp;</b>"}` + "\x00{\"content\":\"a\u2028b\u2029\"}\x00\"\xe2\x80\xaa\"", `"<&>"`, "a<b", "c&d>\u2028", -5, 0x3ffe},
		{`{"content":"a<b"}` + "\x00\"&\"\x00\">\"\x00\"\u2028\"\x00\"\u2029\"", `["<"]`, "<", ">", 1, 0x3ffe},
		// Invalid: a message, the single raw, an empty (not nil) one.
		{compact + "\x00{\"role\":", "1", "x", "y", 1, 0},
		{compact, "{", "x", "y", 1, 1 << 11},
		{compact + "\x00", "1", "x", "y", 1, 0},
		{compact, "", "x", "y", 1, 1 << 11},
		{"\x00", "null", "", "", 0, 0},
		// nil and empty lists, nil messages, every member omitted or present.
		{"", "", "", "", 0, 1},
		{"", "", "", "", 0, 0},
		{nilMessage + "\x00" + compact, "null", "s", "t", 0, 1<<2 | 1<<5 | 1<<11 | 1<<12 | 1<<13},
		{compact, "0.5", "s", "t", 0, 1 << 3},
		{compact, "2", "r", "e", 9007199254740991, 0xffff &^ 1},
		{compact, "2", "", "", 0, 1<<5 | 1<<13},
		{compact, "2", "", "", 0, 1 << 13}, // summarizers empty, not nil: omitted as json.Marshal omits it
		{compact, "2", "", "", 0, 1 << 14},
		{compact, "2", "", "", 0, 1 << 15},
		{compact, "2", "b", "a", 0, 1<<3 | 1<<4 | 1<<5},
		// A map whose value json.Marshal refuses: a message that is not JSON in a nested list.
		{compact + "\x00[", "2", "b", "a", 0, 0},
		// Each of < > & alone in a string, where nothing else sends it to json.Marshal.
		{compact, "1", "a&b", "c", 0, 0},
		{compact, "1", "a<b", "c", 0, 0},
		{compact, "1", "a>b", "c", 0, 0},
		// Strings encoding/json escapes: quotes, controls, bytes that are not UTF-8.
		{compact, `"\u00e9"`, "q\"\\\n\x01\x7f", "\xff\xfeé😀", 42, 0xffff &^ 1},
		{"\"\xff\"\x00[\"\\u2028\"]", "true", "yaml: 1\n", "{\"a\": [1]}", 7, 1<<10 | 1<<11 | 1<<12},
	} {
		f.Add([]byte(seed.msgs), []byte(seed.raw), seed.s, seed.t, seed.n, seed.flags)
	}
	f.Fuzz(func(t *testing.T, msgs, raw []byte, s1, s2 string, n int64, flags uint16) {
		for _, v := range values(msgs, raw, s1, s2, n, flags) {
			got, err := Marshal(v)
			want, wantErr := json.Marshal(v)
			if !bytes.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("%T: Marshal wrote\n%q, %v\njson.Marshal\n%q, %v", v, got, err, want, wantErr)
			}
		}
	})
}

// TestEveryParamsTypeIsWrittenHere: every params type of the protocol but
// shutdown's, which has none, is written by encode, not handed to
// encoding/json; the oracle above covers each.
func TestEveryParamsTypeIsWrittenHere(t *testing.T) {
	msgs := []byte(`{"role":"user","content":"hi"}` + "\x00" + `{"role":"assistant","content":"<b>"}`)
	seen := map[reflect.Type]bool{}
	for _, v := range values(msgs, []byte("1"), "s", "t", 1, 0x3fff&^1) {
		if _, ok := v.(map[string]any); !ok {
			seen[reflect.TypeOf(v)] = true
		}
		if _, ok := encode(v); !ok {
			t.Errorf("%T is handed to encoding/json", v)
		}
	}
	if got, want := len(seen), len(protocol.Methods())-1; got != want {
		t.Errorf("%d params types are written here; the protocol has %d methods with params", got, want)
	}
	if _, ok := encode(&protocol.BudgetCountParams{}); ok {
		t.Error("a pointer to params is written here, not by encoding/json")
	}
	if _, ok := encode(protocol.BudgetCountParams{Messages: []json.RawMessage{json.RawMessage(`{`)}}); ok {
		t.Error("a message that is not JSON is written here: its error must be encoding/json's")
	}
}

// BenchmarkMarshal encodes a trimmer.trim request of 50 messages, one in
// four holding a '<' that is escaped and one in eight written with white
// space, as the suite's generators write them, with Marshal and with
// json.Marshal.
func BenchmarkMarshal(b *testing.B) {
	msgs := make([]json.RawMessage, 50)
	for i := range msgs {
		text := "message number " + strconv.Itoa(i) + " of the conversation, with a few more words in it"
		switch {
		case i%8 == 0:
			msgs[i] = json.RawMessage(`{ "role": "user", "content": "` + text + `" }`)
		case i%4 == 1:
			msgs[i] = json.RawMessage(`{"role":"assistant","content":"<b>` + text + `</b>"}`)
		default:
			msgs[i] = json.RawMessage(`{"role":"user","content":"` + text + `"}`)
		}
	}
	params := protocol.TrimmerTrimParams{Trimmer: "tail", Messages: msgs, Limit: json.RawMessage("20")}
	for _, m := range []struct {
		name    string
		marshal func(any) ([]byte, error)
	}{{"paramsjson", Marshal}, {"encoding-json", json.Marshal}} {
		b.Run(m.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := m.marshal(params); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestEveryMemberIsWritten: each params type written here, with every
// member at every depth set (a string with '<', a non-compact message,
// one element in each list and map), is written as json.Marshal writes
// it; so a member added to a params type, omitempty or not, fails here
// until Marshal writes it.
func TestEveryMemberIsWritten(t *testing.T) {
	for _, v := range values(nil, []byte("1"), "s", "t", 1, 0) {
		typ := reflect.TypeOf(v)
		if typ.Kind() != reflect.Struct {
			continue
		}
		filled := reflect.New(typ).Elem()
		fill(t, filled)
		got, err := Marshal(filled.Interface())
		want, wantErr := json.Marshal(filled.Interface())
		if !bytes.Equal(got, want) || err != nil || wantErr != nil {
			t.Errorf("%v: Marshal wrote\n%s, %v\njson.Marshal\n%s, %v", typ, got, err, want, wantErr)
		}
	}
}

var rawType = reflect.TypeFor[json.RawMessage]()

// fill sets v and everything in it to a value that is not empty.
func fill(t *testing.T, v reflect.Value) {
	switch {
	case v.Type() == rawType:
		v.SetBytes([]byte(` {"k": [1, "<\u2028"]} `))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("v<&")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(t, v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		key, elem := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(t, key)
		fill(t, elem)
		v.SetMapIndex(key, elem)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i))
		}
	default:
		t.Fatalf("no value to fill a %v with", v.Type())
	}
}

// TestRawParams: params already written are written again as json.Marshal
// writes a json.RawMessage: compacted, HTML escaped, null when nil, and a
// text that is not JSON gets encoding/json's error.
func TestRawParams(t *testing.T) {
	for _, raw := range []json.RawMessage{
		json.RawMessage(`{"messages":[{"role":"user","content":"<b> & </b>"}],"max_messages":3}`),
		json.RawMessage("{ \"messages\" : [ ] ,\n \"model\": \"gpt-4o\" }"),
		nil,
	} {
		got, err := Marshal(raw)
		want, wantErr := json.Marshal(raw)
		if err != nil || wantErr != nil || string(got) != string(want) {
			t.Errorf("Marshal(%q) = %q, %v; json.Marshal: %q, %v", raw, got, err, want, wantErr)
		}
	}
	_, err := Marshal(json.RawMessage(`{"messages":[`))
	_, wantErr := json.Marshal(json.RawMessage(`{"messages":[`))
	if err == nil || err.Error() != wantErr.Error() {
		t.Errorf("not JSON: %v, json.Marshal's %v", err, wantErr)
	}
}
