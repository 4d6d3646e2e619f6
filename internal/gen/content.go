package gen

import (
	"slices"
	"strings"

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
	// The members in one allocation, the marker's place included.
	obj := jobj(append(make([]jmember, 0, len(extra)+3), mem("role", jstr(role)))...)
	if content != nil {
		obj.mems = append(obj.mems, mem("content", *content))
	}
	obj.mems = append(obj.mems, extra...)
	if seq >= 0 {
		at := intRange(0, len(obj.mems)).Draw(t, "marker position")
		obj.mems = slices.Insert(obj.mems, at, mem(MarkerName, jint(seq)))
	}
	spaced := intRange(0, 5).Draw(t, "spaced") == 0
	m := build(role, obj, content, seq, spaced)
	m.Unit = [2]int{-1, -1}
	m.Rendered, m.Texts = render(role, content, extra), texts(content)
	return m
}

// render is SUM-1's rendering of a message: "[role] " followed by its
// parts joined by "\n".
func render(role string, content *jv, extra []jmember) string {
	var parts []string
	if role == "tool" {
		id := ""
		for _, m := range extra {
			if m.name == "tool_call_id" && m.val.kind == jStr {
				id = m.val.str
			}
		}
		parts = append(parts, "tool_result "+id+": "+strings.Join(contentParts(content), "\n"))
	} else {
		parts = contentParts(content)
	}
	for _, m := range extra {
		if m.name != "tool_calls" || m.val.kind != jArr {
			continue
		}
		for _, c := range m.val.elems {
			fn := c.member("function")
			parts = append(parts, "tool_call "+fn.member("name").str+" "+fn.member("arguments").str)
		}
	}
	return "[" + role + "] " + strings.Join(parts, "\n")
}

// contentParts renders content: a string as itself, an array one part per
// block, absent or null as nothing, anything else in its compact form.
func contentParts(content *jv) []string {
	switch {
	case content == nil || content.kind == jNull:
		return nil
	case content.kind == jStr:
		return []string{content.str}
	case content.kind == jArr:
		out := []string{}
		for _, b := range content.elems {
			out = append(out, blockText(b))
		}
		return out
	default:
		return []string{content.compact()}
	}
}

// blockText renders a content block (SUM-1).
func blockText(b jv) string {
	if b.kind != jObj {
		return b.compact()
	}
	switch typ := b.member("type"); {
	case typ.kind == jStr && typ.str == "text" && b.member("text").kind == jStr:
		return b.member("text").str
	case typ.kind == jStr && typ.str == "tool_use":
		input := jobj()
		if in, ok := b.lookup("input"); ok {
			input = in
		}
		return "tool_use " + b.member("name").str + " " + input.compact()
	case typ.kind == jStr && typ.str == "tool_result":
		c, ok := b.lookup("content")
		cp := &c
		if !ok {
			cp = nil
		}
		return "tool_result " + b.member("tool_use_id").str + ": " + strings.Join(contentParts(cp), "\n")
	default:
		return b.compact()
	}
}

// texts are what SUM-6 reads of content: a string, or the text of each
// text block of an array.
func texts(content *jv) []string {
	switch {
	case content == nil:
		return nil
	case content.kind == jStr:
		return []string{content.str}
	case content.kind == jArr:
		var out []string
		for _, b := range content.elems {
			if b.kind == jObj && b.member("type").kind == jStr && b.member("type").str == "text" && b.member("text").kind == jStr {
				out = append(out, b.member("text").str)
			}
		}
		return out
	}
	return nil
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
	blocks := jarr()
	for range intRange(lo, hi).Draw(t, "text blocks") {
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

func systemParts(t *rapid.T) (string, *jv, []jmember) {
	role := rapid.SampledFrom([]string{"system", "system", "developer"}).Draw(t, "role")
	v := jstr(rapid.SampledFrom([]string{
		"You are a helpful assistant.",
		"You are a coding agent. Use the tools.\nNever guess — ask.",
		"Réponds en français. 🇫🇷",
		"Reminder: the user's files are in /work. 📁",
	}).Draw(t, "prompt"))
	if intRange(0, 5).Draw(t, "system as blocks") == 0 {
		v = jarr(jobj(mem("type", jstr("text")), mem("text", v)))
	}
	return role, &v, nil
}

// functionCall is an element of an OpenAI tool_calls array.
func functionCall(t *rapid.T, id string) jv {
	args := drawAny(t, 2, false).compact()
	return jobj(
		mem("id", jstr(id)),
		mem("type", jstr("function")),
		mem("function", jobj(mem("name", jstr(rapid.SampledFrom([]string{"get_weather", "read_file", "run_tests"}).Draw(t, "function"))), mem("arguments", jstr(args)))),
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
