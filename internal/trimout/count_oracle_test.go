package trimout

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/convspec/convspec/internal/ecmajson"
	"github.com/convspec/convspec/internal/judgemsg"
	"github.com/convspec/convspec/reference/tokens"
)

// The oracle of FuzzCountAsOracle: TOK-2's count of a message and the
// text a declared count reads, as they were written before they read
// members with internal/jsonscan, decoding each level with encoding/json
// into maps. Kept here, in a test, only to hold the new ones to it.

// oracleMessageTokens is what a message counts (TOK-2): the tokens of its role
// and of its content, plus the fallback of a non-null tool_calls member.
func oracleMessageTokens(m judgemsg.Message) int {
	n := tokens.Count(m.Role()) + oracleContentTokens(m.Content())
	var members map[string]json.RawMessage
	if json.Unmarshal(m.Raw(), &members) == nil {
		if calls, ok := members["tool_calls"]; ok && string(calls) != "null" {
			n += fallback(calls)
		}
	}
	return n
}

// oracleContentTokens counts a content member (TOK-2): a string its tokens, an
// array the sum over its blocks, null or absent 0, anything else the
// fallback.
func oracleContentTokens(content json.RawMessage) int {
	switch {
	case len(content) == 0 || string(content) == "null":
		return 0
	case content[0] == '"':
		var s string
		_ = json.Unmarshal(content, &s)
		return tokens.Count(s)
	case content[0] == '[':
		var blocks []json.RawMessage
		_ = json.Unmarshal(content, &blocks)
		n := 0
		for _, b := range blocks {
			n += oracleBlockTokens(b)
		}
		return n
	}
	return fallback(content)
}

// oracleBlockTokens counts one block of array content (TOK-2): a text block the
// tokens of its text, a tool_result block its content counted as content,
// any other the fallback.
func oracleBlockTokens(b json.RawMessage) int {
	typ, text, content, ok := oracleBlock(b)
	switch {
	case ok && typ == "text" && text != nil:
		return tokens.Count(*text)
	case ok && typ == "tool_result":
		return oracleContentTokens(content)
	}
	return fallback(b)
}

// oracleBlock reads a content block by its members' exact names, as MSG-1 names
// members (encoding/json's struct fields would take "Type" for "type"):
// its type and content, and its text when that is a string; ok is false
// for an element that is not an object.
func oracleBlock(raw json.RawMessage) (typ string, text *string, content json.RawMessage, ok bool) {
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil || members == nil {
		return "", nil, nil, false
	}
	_ = json.Unmarshal(members["type"], &typ) // a type that is not a string is none
	var s string
	if t := members["text"]; len(t) > 0 && t[0] == '"' && json.Unmarshal(t, &s) == nil {
		text = &s
	}
	return typ, text, members["content"], true
}

// oracleText is what a declared count reads of a message: its string content or
// the text of its text blocks, and, with payloads, the compact JSON of its
// tool calls and of its other blocks.
func oracleText[M Msg](m M, payloads bool) string {
	// Members by their exact names (MSG-1), as encoding/json's struct
	// fields would not: they match "Content" too.
	var members map[string]json.RawMessage
	_ = json.Unmarshal(m.Raw(), &members)
	content, calls := members["content"], members["tool_calls"]
	var b strings.Builder
	var s string
	if json.Unmarshal(content, &s) == nil {
		b.WriteString(s)
	} else {
		var blocks []json.RawMessage
		_ = json.Unmarshal(content, &blocks)
		for _, raw := range blocks {
			switch typ, text, _, ok := oracleBlock(raw); {
			case ok && typ == "text" && text != nil:
				b.WriteString(*text)
			case payloads:
				c, _ := ecmajson.Compact(raw)
				b.WriteString(c)
			}
		}
	}
	if payloads && len(calls) > 0 && string(calls) != "null" {
		c, _ := ecmajson.Compact(calls)
		b.WriteString(c)
	}
	return b.String()
}

// rawMsg is a message as another reader holds it: bytes only.
type rawMsg []byte

func (r rawMsg) Raw() json.RawMessage { return json.RawMessage(r) }

// FuzzCountAsOracle: on every message the judge reads, TOK-2's count and
// the text a declared count reads, with and without payloads, are what
// the oracle gives; so is the text of any other reader's bytes that are
// JSON in UTF-8, and of bytes that are not JSON (none). Seeded with every golden message and with
// blocks and members where a member reader most easily parts from
// encoding/json's maps.
func FuzzCountAsOracle(f *testing.F) {
	seen := map[string]bool{}
	for _, m := range goldenMessages(f) {
		if !seen[string(m)] {
			seen[string(m)] = true
			f.Add([]byte(m))
		}
	}
	for _, seed := range []string{
		`{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"data":"abc"}},{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ok"}]},"plain",7,null,[]]}`,
		`{"role":"assistant","content":{"a":1.50},"tool_calls":[{"id":"c","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"user","content":[{"type":"text","text":null},{"type":"tool_result","tool_use_id":"t"},{"type":"text"},{"type":7,"text":"x"}]}`,
		`{"role":"user","content":[{"Type":"text","Text":"hello"},{"type":"text","text":"a","text":7},{"type":"text","type":"image","text":"b"}]}`,
		`{"role":"user","content":[{"t\u0079pe":"text","te\u0078t":"\u00e9\ud83d\ude00\n"}],"content":"last"}`,
		`{"role":"assistant","tool_calls":null,"content":null}`, `{"role":"assistant","tool_calls":[],"tool_calls":null}`,
		`{"role":"assistant","tool_calls":{"x":[1,2.50,"\u0041"]},"Tool_calls":[1]}`,
		`{"role":"user","content":7}`, `{"role":"user","content":true}`, `{"role":"user","content":"  spaced \t"}`,
		" { \"role\" : \"user\" , \"content\" : [ { \"type\" : \"text\" , \"text\" : \"x\" } , { \"type\" : \"tool_result\" , \"content\" : [ 1 , \"y\" ] } ] } ",
		`{"role":"tool","tool_call_id":"c","content":[{"type":"tool_result","content":{"type":"text","text":"z"}}]}`,
		// What the judge's reader refuses and another's may not: text all the same.
		`{"role":"assistant","content":[{"type":"tool_use","ID":"x"},{"type":"text","text":"t"}]}`, `{"content":"no role"}`,
		`{"role":"assistant","tool_calls":[{"id":""}],"content":"c"}`, `{"role":"user","content":"\ud800"}`,
		`[{"content":"x"}]`, `null`, `"content"`, `{"content":"x"`, ``,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		// Another reader's bytes, as Text takes them: any valid JSON in
		// valid UTF-8 (a message or not), and no text from what is not
		// JSON.
		if !json.Valid(raw) || utf8.Valid(raw) {
			for _, payloads := range []bool{false, true} {
				if got, want := Text(rawMsg(raw), payloads), oracleText(rawMsg(raw), payloads); got != want {
					t.Fatalf("%q: text (payloads %v) of the bytes %q, the oracle %q", raw, payloads, got, want)
				}
			}
		}
		m, err := judgemsg.Parse(raw)
		if err != nil {
			return // Count leaves it out
		}
		if got, want := messageTokens(m), oracleMessageTokens(m); got != want {
			t.Fatalf("%q: counts %d tokens, the oracle %d", raw, got, want)
		}
		for _, payloads := range []bool{false, true} {
			if got, want := Text(m, payloads), oracleText(m, payloads); got != want {
				t.Fatalf("%q: text (payloads %v) %q, the oracle %q", raw, payloads, got, want)
			}
		}
	})
}
