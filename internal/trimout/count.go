package trimout

import (
	"encoding/json"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// The counts of the second declaration (ANY-6, D-60): a message bound that
// counts a call's results as one message, and token counts over the
// messages' texts, per message or joined, with or without tool payloads.

// countV2 counts msgs by a second declaration's members; ok is false when
// they do not change D-35's count.
func countV2(d protocol.TrimmerDecl, msgs []json.RawMessage) (n int, ok bool) {
	switch {
	case d.Bound == protocol.BoundMessages && d.Results == protocol.ResultsOne:
		parsed := Messages(msgs)
		for i, m := range parsed {
			if i == 0 || m.Class() != message.ToolResult || parsed[i-1].Class() != message.ToolResult {
				n++
			}
		}
		return n, true
	case d.Bound == protocol.BoundTokens && d.Count != nil:
		var texts []string
		for _, m := range Messages(msgs) {
			texts = append(texts, Text(m, d.Count.CountsToolPayloads()))
		}
		if joined, sep := d.Count.Joined(); joined {
			if len(texts) == 0 {
				return 0, true
			}
			return countText(d.Counter, strings.Join(texts, sep)), true
		}
		for _, t := range texts {
			n += countText(d.Counter, t)
		}
		return n, true
	}
	return 0, false
}

func countText(counter, text string) int {
	if counter == protocol.CounterCl100k {
		return tokens.Count(text)
	}
	return (message.Length(text) + 3) / 4
}

// Text is what a declared count reads of a message: its string content or
// the text of its text blocks, and, with payloads, the compact JSON of its
// tool calls and of its other blocks.
func Text(m message.Message, payloads bool) string {
	var b strings.Builder
	content := m.Content()
	var s string
	if json.Unmarshal(content, &s) == nil {
		b.WriteString(s)
	} else {
		var blocks []json.RawMessage
		_ = json.Unmarshal(content, &blocks)
		for _, raw := range blocks {
			var block struct {
				Type string  `json:"type"`
				Text *string `json:"text"`
			}
			switch {
			case json.Unmarshal(raw, &block) == nil && block.Type == "text" && block.Text != nil:
				b.WriteString(*block.Text)
			case payloads:
				c, _ := message.Compact(raw)
				b.WriteString(c)
			}
		}
	}
	if payloads {
		var members struct {
			ToolCalls json.RawMessage `json:"tool_calls"`
		}
		if json.Unmarshal(m.Raw(), &members) == nil && len(members.ToolCalls) > 0 && string(members.ToolCalls) != "null" {
			c, _ := message.Compact(members.ToolCalls)
			b.WriteString(c)
		}
	}
	return b.String()
}
