package gen

// Generators of the differential properties: requests over the whole input
// space the spec allows, with the rare shapes drawn on purpose — both
// provider formats with every optional member absent, null or empty,
// malformed messages now and then (compared as errors by kind), summarizer
// scripts that reply, fail, reply blank or answer late.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"
)

// DiffConversation draws a conversation of n units or more for the
// differential properties: the conversation generator's agent
// conversations, with rare units inserted between units and, now and then,
// a malformed structure or an invalid message.
func DiffConversation(t *rapid.T, formats []string, n int) []json.RawMessage {
	return DrawConversation(t, formats, n, true)
}

// DrawConversation is DiffConversation; faults false leaves out malformed
// structures and invalid messages, for a request that has a fault of
// another kind already: which of two faults an error names is open.
func DrawConversation(t *rapid.T, formats []string, n int, faults bool) []json.RawMessage {
	o := HistoryOpts{N: n, Exact: true, Tools: -1, Formats: formats, Marked: anyBool.Draw(t, "marked")}
	if faults && intRange(0, 7).Draw(t, "defects") == 0 {
		o.Exact, o.Defects, o.Ambiguous = false, [2]int{1, 1}, true
	}
	h := Histories(o).Draw(t, "conversation")
	out := Raws(h.Msgs)
	starts := []int{}
	for _, u := range h.Units {
		starts = append(starts, u[0])
	}
	starts = append(starts, len(out))
	for k := range intRange(0, 2).Draw(t, "rare units") {
		at := rapid.SampledFrom(starts).Draw(t, "rare unit at")
		unit := rareUnit(t, formats, k)
		out = slices.Insert(out, at, unit...)
		for i := range starts {
			if starts[i] > at {
				starts[i] += len(unit)
			}
		}
	}
	if faults && len(out) > 0 && intRange(0, 11).Draw(t, "invalid message") == 0 {
		out[intRange(0, len(out)-1).Draw(t, "invalid at")] = InvalidMessage(t)
	}
	return out
}

// rareUnit draws a well-formed unit of a rare shape: a developer prompt,
// an empty tool_calls array, a tool_use without input, tool_result content
// as an array (empty or not) or absent, a thinking block, content empty or
// null, an unknown block type.
func rareUnit(t *rapid.T, formats []string, k int) []json.RawMessage {
	id := fmt.Sprintf("rare_%d_%d", k, intRange(0, 99).Draw(t, "rare id"))
	// Corner texts (every Unicode category, white-space runs,
	// contractions) reach the counters through these units.
	text := func(label string) string { return string(MustJSON(CornerTexts.Draw(t, label))) }
	openai := formats == nil || slices.Contains(formats, "openai")
	if openai && (formats == nil || slices.Contains(formats, "anthropic")) {
		openai = anyBool.Draw(t, "openai")
	}
	switch intRange(0, 12).Draw(t, "rare unit") {
	case 11:
		if openai {
			return everyRoleMembers(t, id, text)
		}
	case 12:
		if units := repeatedNames(t, id, openai, text); units != nil {
			return units
		}
	case 10:
		return one(`{"role":%q,"content":%s}`, rapid.SampledFrom([]string{"user", "assistant"}).Draw(t, "role"), text("corner text"))
	case 0:
		return one(`{"role":"developer","content":%s}`, text("developer"))
	case 1:
		return one(`{"role":"assistant","content":%s,"tool_calls":%s}`, text("content"), rapid.SampledFrom([]string{"[]", "null"}).Draw(t, "empty calls"))
	case 2:
		return one(`{"role":%q,"content":%s}`, rapid.SampledFrom([]string{"user", "assistant", "system"}).Draw(t, "role"),
			rapid.SampledFrom([]string{`""`, `[]`, `null`, `{}`, `[{"type":"text","text":""}]`, `[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"ok"}]`, `[{"type":"custom_block","x":1}]`}).Draw(t, "rare content"))
	case 3:
		return one(`{"role":"user"}`)
	}
	if openai {
		call := fmt.Sprintf(`{"id":%q,"type":"function","function":{"name":"f","arguments":%s}}`, id,
			rapid.SampledFrom([]string{`""`, `"{}"`, `"{\"a\":1}"`}).Draw(t, "arguments"))
		result := rapid.SampledFrom([]string{
			`{"role":"tool","tool_call_id":%q,"content":"ok"}`,
			`{"role":"tool","tool_call_id":%q,"content":[{"type":"text","text":"ok"}]}`,
			`{"role":"tool","tool_call_id":%q,"content":""}`,
			`{"role":"tool","tool_call_id":%q}`,
			`{"role":"tool","tool_call_id":%q,"content":null,"name":"f"}`,
		}).Draw(t, "tool message")
		return []json.RawMessage{
			json.RawMessage(fmt.Sprintf(`{"role":"assistant","content":%s,"tool_calls":[%s]}`, rapid.SampledFrom([]string{"null", `""`, text("call text")}).Draw(t, "call content"), call)),
			json.RawMessage(fmt.Sprintf(result, id)),
		}
	}
	use := rapid.SampledFrom([]string{
		`{"type":"tool_use","id":%q,"name":"f"}`,
		`{"type":"tool_use","id":%q,"name":"f","input":{}}`,
		`{"type":"tool_use","id":%q,"name":"f","input":null}`,
		`{"type":"tool_use","id":%q,"name":"f","input":{"q":[1,{"r":"s"}]}}`,
	}).Draw(t, "tool_use")
	result := rapid.SampledFrom([]string{
		`{"type":"tool_result","tool_use_id":%q}`,
		`{"type":"tool_result","tool_use_id":%q,"content":[]}`,
		`{"type":"tool_result","tool_use_id":%q,"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
		`{"type":"tool_result","tool_use_id":%q,"content":"","is_error":true}`,
		`{"type":"tool_result","tool_use_id":%q,"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}`,
	}).Draw(t, "tool_result")
	before := rapid.SampledFrom([]string{"", `{"type":"text","text":"Let me look."},`, `{"type":"thinking","thinking":"…","signature":"x"},`}).Draw(t, "before the call")
	after := rapid.SampledFrom([]string{"", `,{"type":"text","text":"and more"}`}).Draw(t, "after the result")
	return []json.RawMessage{
		json.RawMessage(fmt.Sprintf(`{"role":"assistant","content":[%s%s]}`, before, fmt.Sprintf(use, id))),
		json.RawMessage(fmt.Sprintf(`{"role":"user","content":[%s%s]}`, fmt.Sprintf(result, id), after)),
	}
}

// everyRoleMembers draws a message that is not an assistant's with a
// tool_calls member: TOK-2 counts a non-null tool_calls on a message of any
// role and SUM-1 renders it after any message's content, while CLS-1 reads
// calls of assistants only — so such a message is well-formed, and a
// library that looks for calls on assistants alone counts and renders it
// wrong.
func everyRoleMembers(t *rapid.T, id string, text func(string) string) []json.RawMessage {
	role := rapid.SampledFrom([]string{"user", "system", "developer"}).Draw(t, "role with calls")
	calls := rapid.SampledFrom([]string{
		`[{"id":"%s_x","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"a b\"}"}}]`,
		`[{"id":"%s_x","type":"function","function":{"name":"f","arguments":""}},{"id":"%s_y","function":{"name":"g","arguments":"[1]"}}]`,
		`[]`,
	}).Draw(t, "calls on another role")
	calls = strings.ReplaceAll(calls, "%s", id)
	return one(`{"role":%q,"content":%s,"tool_calls":%s}`, role, text("content with calls"), calls)
}

// repeatedNames draws a unit in which a member SUM-1 renders is given twice
// with different values: a name given twice is one member with the value
// of its last occurrence (EST-3, as JSON.parse reads it), which a reader
// that keeps the first, or that renders both, gets wrong. Nil when the
// formats allow none of the shapes drawn.
func repeatedNames(t *rapid.T, id string, openai bool, text func(string) string) []json.RawMessage {
	switch intRange(0, 3).Draw(t, "repeated name") {
	case 0:
		return one(`{"role":%q,"content":"a draft","content":%s}`, rapid.SampledFrom([]string{"user", "assistant", "system"}).Draw(t, "role"), text("last content"))
	case 1:
		return one(`{"role":"assistant","content":[{"type":"text","text":"first","text":%s}]}`, text("last text"))
	case 2:
		return one(`{"role":"user","content":[{"type":"image","source":{"type":"url","url":"u"},"type":"text","text":%s}]}`, text("block text"))
	}
	if !openai {
		return nil
	}
	return []json.RawMessage{
		json.RawMessage(fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":%q,"type":"function","function":{"name":"draft","arguments":"{}","name":"read_file","arguments":"{\"path\":\"b.go\"}"}}]}`, id)),
		json.RawMessage(fmt.Sprintf(`{"role":"tool","tool_call_id":%q,"content":"package b"}`, id)),
	}
}

func one(format string, args ...any) []json.RawMessage {
	return []json.RawMessage{json.RawMessage(fmt.Sprintf(format, args...))}
}

// InvalidMessage draws a message MSG-1 or CLS-2 refuses.
func InvalidMessage(t *rapid.T) json.RawMessage {
	return json.RawMessage(rapid.SampledFrom(onlyFormats(t, []string{
		`{"content":"hi"}`, `{"role":""}`, `{"role":7}`, `"hi"`, `null`, `[]`,
		`{"role":"user","content":"\ud800"}`, `{"role":"user","content":"a\udc00b"}`,
		`{"role":"assistant","tool_calls":{}}`, `{"role":"assistant","tool_calls":[{"type":"function"}]}`,
		`{"role":"assistant","tool_calls":[{"id":""}]}`, `{"role":"tool","content":"x"}`, `{"role":"tool","tool_call_id":7}`,
		`{"role":"assistant","content":[{"type":"tool_use","name":"f","input":{}}]}`,
		`{"role":"user","content":[{"type":"tool_result","content":"x"}]}`,
	}, func(m string) string { return MessageFormat(json.RawMessage(m)) })).Draw(t, "invalid message"))
}

// Scripts draws a summarizer script: a reply (sometimes blank or only
// white space), an error, or either answering late, within its timeout or
// after it.
func Scripts() *rapid.Generator[map[string]any] {
	return rapid.Custom(func(t *rapid.T) map[string]any {
		s := map[string]any{}
		switch intRange(0, 5).Draw(t, "script") {
		case 0, 1:
			s["reply"] = rapid.OneOf(rapid.Just("Read a.go; fixed the nil check."), textGen).Draw(t, "reply")
		case 2:
			s["reply"] = rapid.SampledFrom([]string{"", " ", "\n\t ", "\u00a0", "\u2028", "\u3000"}).Draw(t, "blank reply")
		case 3:
			s["error"] = rapid.SampledFrom([]string{"rate limited", "", "boom"}).Draw(t, "error")
		default:
			s["reply"] = "late reply"
			if anyBool.Draw(t, "fails late") {
				delete(s, "reply")
				s["error"] = "late failure"
			}
			switch intRange(0, 2).Draw(t, "timing") {
			case 0:
				s["delay_ms"], s["timeout_ms"] = 1, 1000 // within the timeout
			case 1:
				s["delay_ms"], s["timeout_ms"] = 300, 5 // after it: the call fails
			default:
				s["delay_ms"] = 0
			}
		}
		return s
	})
}
