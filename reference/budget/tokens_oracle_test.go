package budget

import (
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// MessageTokens as it was before it read messages with jsonscan: every
// member, block and string decoded by encoding/json. It is the oracle the
// scanning count is held to (FuzzMessageTokensAsUnmarshal).

func messageTokensByUnmarshal(m message.Message) int {
	n := tokens.Count(m.Role()) + contentTokensByUnmarshal(m.Content())
	var members map[string]json.RawMessage
	if json.Unmarshal(m.Raw(), &members) == nil {
		if calls, ok := members["tool_calls"]; ok && string(calls) != "null" {
			n += fallback(calls)
		}
	}
	return n
}

func contentTokensByUnmarshal(content json.RawMessage) int {
	if len(content) == 0 || string(content) == "null" {
		return 0
	}
	switch content[0] {
	case '"':
		var s string
		_ = json.Unmarshal(content, &s)
		return tokens.Count(s)
	case '[':
		var blocks []json.RawMessage
		_ = json.Unmarshal(content, &blocks)
		n := 0
		for _, b := range blocks {
			n += blockTokensByUnmarshal(b)
		}
		return n
	default:
		return fallback(content)
	}
}

func blockTokensByUnmarshal(b json.RawMessage) int {
	var block struct {
		Type    string          `json:"type"`
		Text    *string         `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(b, &block) != nil {
		return fallback(b)
	}
	switch {
	case block.Type == "text" && block.Text != nil:
		return tokens.Count(*block.Text)
	case block.Type == "tool_result":
		return contentTokensByUnmarshal(block.Content)
	default:
		return fallback(b)
	}
}

// FuzzMessageTokensAsUnmarshal: every message Parse accepts counts what
// it counted when encoding/json decoded its members, blocks and strings.
func FuzzMessageTokensAsUnmarshal(f *testing.F) {
	for _, seed := range []string{
		`{"role":"user","content":"hello there"}`, `{"role":"user","content":"say \"hi\" \u00e9 \ud83d\ude00"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}`,
		`{"role":"assistant","tool_calls":null,"tool_c\u0061lls":[{"id":"x","n":1.50}],"content":"a"}`, `{"role":"user","tool_calls":{"a":1.50,"a":2}}`,
		`{"role":"user","content":[{"type":"text","text":"a b c"},{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}]}]}`,
		`{"role":"user","content":[{"Type":"text","TEXT":"x"},{"type":"text","text":null},{"type":"text","text":1},{"type":1},{"type":null,"type":"text","text":"y"}]}`,
		`{"role":"user","content":[{"type":"text","type":null,"text":"z","Text":null},{"type":"tool_result","tool_use_id":"t","Content":"q","content":null}]}`,
		`{"role":"user","content":[null,1,"s",[],{},{"type":"image","source":{"data":"AAAA"}}]}`,
		`{"role":"user","content":{"a":1,"a":2}}`, `{"role":"user","content":12.50}`, `{"role":"user","content":[{"t\u0079pe":"text","te\u0078t":"esc"}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"\u0041"},{"type":"tool_result","tool_use_id":"b"}]}`, `{"role":"tool","tool_call_id":"1","content":"ok"}`,
		"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"a\",\"ſ\":1,\"K\":2}]}",
	} {
		if _, err := message.Parse([]byte(seed)); err != nil {
			f.Fatalf("seed %s is no message, and would test nothing: %v", seed, err)
		}
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := message.Parse(data)
		if err != nil {
			return
		}
		if got, want := MessageTokens(m), messageTokensByUnmarshal(m); got != want {
			t.Fatalf("MessageTokens(%s) = %d, decoded by encoding/json: %d", data, got, want)
		}
	})
}
