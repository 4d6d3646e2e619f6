package gen

import (
	"pgregory.net/rapid"
)

// Rendering a generated message, and the contents it is drawn from.

// finish adds what an agent loop or an SDK might add to a message — an
// unknown member, the marker at any position, spaced JSON — and builds it.
// Members an implementation knows nothing about must come back untouched
// (MSG-2) and must not be counted (EST-5).
func finish(t *rapid.T, role string, content *jv, extra []jmember, seq int, overflow bool) Message {
	if intRange(0, 2).Draw(t, "extras") == 0 {
		switch intRange(0, 2).Draw(t, "extra") {
		case 0:
			extra = append(extra, mem("name", drawStr(t, "name")))
		case 1:
			extra = append(extra, mem("cache_control", jobj(mem("type", jstr("ephemeral")))))
		default:
			extra = append(extra, mem("x_meta", drawAny(t, 2, overflow)))
		}
	}
	at := -1 // the marker's place among the members
	if seq >= 0 {
		members := 1 + len(extra)
		if content != nil {
			members++
		}
		at = intRange(0, members).Draw(t, "marker position")
	}
	spaced := intRange(0, 5).Draw(t, "spaced") == 0
	m := build(role, content, extra, seq, at, spaced)
	m.Unit = [2]int{-1, -1}
	m.Rendered, m.Texts = render(role, content, extra), texts(content)
	return m
}

// render is SUM-1's rendering of a message: "[role] " followed by its
// parts joined by "\n". The parts are written one after another into one
// buffer, not built as strings and joined: a message is rendered whether
// or not a summarizing property reads it.
func render(role string, content *jv, extra []jmember) string {
	var scratch [256]byte
	b := append(append(append(scratch[:0], '['), role...), "] "...)
	c := jnull() // absent content renders as null does: nothing
	if content != nil {
		c = *content
	}
	parts := 0
	if role == "tool" {
		id := ""
		for _, m := range extra {
			if m.name == "tool_call_id" && m.val.kind == jStr {
				id = m.val.str
			}
		}
		b = append(append(append(b, "tool_result "...), id...), ": "...)
		b, _ = appendParts(b, c)
		parts = 1
	} else {
		b, parts = appendParts(b, c)
	}
	for _, m := range extra {
		if m.name != "tool_calls" || m.val.kind != jArr {
			continue
		}
		for _, call := range m.val.elems {
			if parts > 0 {
				b = append(b, '\n')
			}
			parts++
			fn := call.member("function")
			b = append(append(append(append(b, "tool_call "...), fn.member("name").str...), ' '), fn.member("arguments").str...)
		}
	}
	return string(b)
}

// appendParts renders content, its parts joined by "\n", and says how
// many parts it wrote: a string is one part, itself; an array one part per
// block (SUM-1); null none (absent content is passed as null); anything else one part, its compact
// form. A tool_result block's content is rendered by the same function:
// one that recursed through another would make the compiler move every
// caller's buffer to the heap.
func appendParts(b []byte, content jv) ([]byte, int) {
	switch {
	case content.kind == jNull:
		return b, 0
	case content.kind == jStr:
		return append(b, content.str...), 1
	case content.kind != jArr:
		return content.append(b, false, false), 1
	}
	for i, block := range content.elems {
		if i > 0 {
			b = append(b, '\n')
		}
		if block.kind != jObj {
			b = block.append(b, false, false)
			continue
		}
		switch typ := block.member("type"); {
		case typ.kind == jStr && typ.str == "text" && block.member("text").kind == jStr:
			b = append(b, block.member("text").str...)
		case typ.kind == jStr && typ.str == "tool_use":
			b = append(append(append(b, "tool_use "...), block.member("name").str...), ' ')
			if in, ok := block.lookup("input"); ok {
				b = in.append(b, false, false)
			} else {
				b = append(b, "{}"...)
			}
		case typ.kind == jStr && typ.str == "tool_result":
			b = append(append(append(b, "tool_result "...), block.member("tool_use_id").str...), ": "...)
			b, _ = appendParts(b, block.member("content"))
		default:
			b = block.append(b, false, false)
		}
	}
	return b, len(content.elems)
}

// texts are what SUM-6 reads of content: a string, or the text of each
// text block of an array (nil when it has none).
func texts(content *jv) []string {
	switch {
	case content == nil:
		return nil
	case content.kind == jStr:
		return []string{content.str}
	case content.kind == jArr:
		n := 0
		for _, b := range content.elems {
			if isTextBlock(b) {
				n++
			}
		}
		if n == 0 {
			return nil
		}
		out := make([]string, 0, n)
		for _, b := range content.elems {
			if isTextBlock(b) {
				out = append(out, b.member("text").str)
			}
		}
		return out
	}
	return nil
}

// isTextBlock reports whether b is a text block whose text is a string.
func isTextBlock(b jv) bool {
	typ := b.member("type")
	return b.kind == jObj && typ.kind == jStr && typ.str == "text" && b.member("text").kind == jStr
}

// lookup is the value of an object's member.
func (v jv) lookup(name string) (jv, bool) {
	for _, m := range v.mems {
		if m.name == name {
			return m.val, true
		}
	}
	return jv{}, false
}

// member is the value of an object's member, null when it has none.
func (v jv) member(name string) jv {
	if m, ok := v.lookup(name); ok {
		return m
	}
	return jnull()
}

// textBlocks is an array of lo to hi text blocks.
func textBlocks(t *rapid.T, lo, hi int) jv {
	n := intRange(lo, hi).Draw(t, "text blocks")
	blocks := jv{kind: jArr, elems: make([]jv, 0, n)}
	for range n {
		blocks.elems = append(blocks.elems, textBlock(t))
	}
	return blocks
}

// oddContent is content no provider sends but the message model allows:
// a number, a boolean, a lone block object, anything.
func oddContent(t *rapid.T, overflow bool) jv {
	switch intRange(0, 3).Draw(t, "odd") {
	case 0:
		return jnum(rapid.SampledFrom(numbers).Draw(t, "number"))
	case 1:
		return jbool(anyBool.Draw(t, "bool"))
	case 2:
		return textBlock(t) // a lone object, not an array
	default:
		return drawAny(t, 3, overflow)
	}
}

// What a system prompt and a function call are drawn from, built once
// (shared.go).
var (
	systemRoles   = rapid.SampledFrom([]string{"system", "system", "developer"})
	systemPrompts = rapid.SampledFrom([]string{
		"You are a helpful assistant.",
		"You are a coding agent. Use the tools.\nNever guess — ask.",
		"Réponds en français. 🇫🇷",
		"Reminder: the user's files are in /work. 📁",
	})
	functionNames = rapid.SampledFrom([]string{"get_weather", "read_file", "run_tests"})
)

func systemParts(t *rapid.T) (string, jv) {
	role := systemRoles.Draw(t, "role")
	v := jstr(systemPrompts.Draw(t, "prompt"))
	if intRange(0, 5).Draw(t, "system as blocks") == 0 {
		v = jarr(jobj(mem("type", jstr("text")), mem("text", v)))
	}
	return role, v
}

// functionCall is an element of an OpenAI tool_calls array.
func functionCall(t *rapid.T, id string) jv {
	args := drawAny(t, 2, false).compact()
	return jobj(
		mem("id", jstr(id)),
		mem("type", jstr("function")),
		mem("function", jobj(mem("name", jstr(functionNames.Draw(t, "function"))), mem("arguments", jstr(args)))),
	)
}

// toolContent is the content of an OpenAI tool message: text, a JSON
// document as a string, or (rarely) text blocks.
func toolContent(t *rapid.T) jv {
	switch intRange(0, 4).Draw(t, "tool content") {
	case 0, 1:
		return drawStr(t, "content")
	case 2, 3:
		return jstr(drawAny(t, 2, false).compact())
	default:
		return textBlocks(t, 1, 2)
	}
}
