package properties

// Generators. Every message is built here as a tree of jv values that knows
// both the JSON text sent on the wire and the compact serialization
// ECMAScript's JSON.stringify would write for it, so that the properties
// know each message's character count (EST-2 – EST-4) without asking any
// implementation, the reference included.

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"pgregory.net/rapid"
)

// ---------------------------------------------------------------------------
// JSON values with a known serialization

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNum
	jStr
	jArr
	jObj
)

// jv is a JSON value.
type jv struct {
	kind  jkind
	b     bool
	num   numLit
	str   string // the string's value, not its JSON text
	esc   bool   // write the string on the wire with \u escapes and \/
	elems []jv
	mems  []jmember
}

type jmember struct {
	name string
	val  jv
}

// numLit is a number as written on the wire and as ECMAScript's
// Number::toString writes it (EST-3).
type numLit struct{ wire, js string }

func jnull() jv                  { return jv{kind: jNull} }
func jbool(b bool) jv            { return jv{kind: jBool, b: b} }
func jstr(s string) jv           { return jv{kind: jStr, str: s} }
func jint(i int) jv              { s := strconv.Itoa(i); return jv{kind: jNum, num: numLit{s, s}} }
func jnum(n numLit) jv           { return jv{kind: jNum, num: n} }
func jarr(elems ...jv) jv        { return jv{kind: jArr, elems: elems} }
func jobj(mems ...jmember) jv    { return jv{kind: jObj, mems: mems} }
func mem(n string, v jv) jmember { return jmember{n, v} }

// compact is JSON.stringify(JSON.parse(wire)): no white space, members in
// order, strings escaped as ECMAScript does, numbers in Number::toString form.
func (v jv) compact() string {
	var b strings.Builder
	v.write(&b, false, false)
	return b.String()
}

// wire is the JSON text sent; spaced puts a space after ',' and ':'.
func (v jv) wire(spaced bool) string {
	var b strings.Builder
	v.write(&b, true, spaced)
	return b.String()
}

func (v jv) write(b *strings.Builder, wire, spaced bool) {
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	switch v.kind {
	case jNull:
		b.WriteString("null")
	case jBool:
		b.WriteString(strconv.FormatBool(v.b))
	case jNum:
		if wire {
			b.WriteString(v.num.wire)
		} else {
			b.WriteString(v.num.js)
		}
	case jStr:
		if wire && v.esc {
			quoteEscaped(b, v.str)
		} else {
			quoteJS(b, v.str)
		}
	case jArr:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(comma)
			}
			e.write(b, wire, spaced)
		}
		b.WriteByte(']')
	case jObj:
		b.WriteByte('{')
		for i, m := range v.mems {
			if i > 0 {
				b.WriteString(comma)
			}
			quoteJS(b, m.name)
			b.WriteString(colon)
			m.val.write(b, wire, spaced)
		}
		b.WriteByte('}')
	}
}

// quoteJS quotes s as JSON.stringify does: only '"', '\' and U+0000–U+001F
// are escaped, with the short forms \b \t \n \f \r and otherwise \u00xx in
// lower case; everything else (U+007F, '/', U+2028, astral characters) is
// written as itself.
func quoteJS(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// quoteEscaped writes s the way an ASCII-only encoder might: every
// character outside printable ASCII as \uXXXX (upper-case hex, astral
// characters as surrogate pairs) and '/' as \/. The value is the same;
// only its spelling differs, which an implementation must see through
// (EST-2: "\u00e9" is one character, not six).
func quoteEscaped(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '/':
			b.WriteString(`\/`)
		case r < 0x20 || r >= 0x7f:
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(b, `\u%04X`, u)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// utf16Len is the number of UTF-16 code units of s: ECMAScript's
// String.prototype.length (EST-2).
func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// ---------------------------------------------------------------------------
// Messages

// msg is one generated message and what the properties know about it.
type msg struct {
	Role string
	// Seq is the value of its "x_seq" marker member, -1 when it has none.
	Seq int
	// Raw is the JSON text sent.
	Raw json.RawMessage
	// Kind is the JSON type of its content, or "absent".
	Kind string
	// Counted is what EST-2 – EST-4 count for it: the string content's
	// value, the compact serialization of other content, "" otherwise.
	Counted string
	// Chars is the number of characters it contributes to an estimate.
	Chars int
	// withoutContent is the message with its content member removed, to
	// tell apart what an estimate counts.
	withoutContent json.RawMessage

	// What the generator built, so that no property has to read it back
	// from the JSON: the class (CLS-1), the tool call ids the message
	// declares (tool_call: tool_calls ids, then tool_use ids) or answers
	// (tool_result: in block order), and the unit it belongs to as
	// [start, end) of the conversation it was generated for, {-1, -1} when
	// it is part of a broken structure (UNIT-2).
	Class string
	IDs   []string
	Unit  [2]int

	// Rendered is the message as a summarization prompt renders it
	// (SUM-1), and Texts the texts SUM-6 looks at: a string content, the
	// text of each text block of an array content.
	Rendered string
	Texts    []string
}

// GoString keeps rapid's logs of drawn values readable.
func (m msg) GoString() string { return string(m.Raw) }

// markerName is the member that tells the messages of a conversation apart.
const markerName = "x_seq"

// build fixes a message's texts and counts.
func build(role string, obj jv, content *jv, seq int, spaced bool) msg {
	m := msg{Role: role, Seq: seq, Raw: json.RawMessage(obj.wire(spaced)), Kind: "absent"}
	if content != nil {
		switch content.kind {
		case jNull:
			m.Kind = "null"
		case jStr:
			m.Kind, m.Counted = "string", content.str
		default:
			m.Kind = map[jkind]string{jBool: "boolean", jNum: "number", jArr: "array", jObj: "object"}[content.kind]
			m.Counted = content.compact()
		}
	}
	m.Chars = utf16Len(m.Counted)
	rest := jv{kind: jObj}
	for _, mb := range obj.mems {
		if mb.name != "content" {
			rest.mems = append(rest.mems, mb)
		}
	}
	m.withoutContent = json.RawMessage(rest.wire(spaced))
	return m
}

// fragments are pieces of text chosen for what they do to a character
// count or a serialization: astral characters count 2 (EST-2), combining
// marks and ZWJ sequences count each code point, control characters are
// escaped in compact JSON and '/', U+007F, U+2028 are not (EST-3), and
// '<', '>', '&' are where Go's encoding/json differs from JSON.stringify.
var fragments = []string{
	"Hello", "ok", "", " ",
	"What's the weather in Paris?", "Sure — here it is.",
	"😀", "👩‍💻", "🇫🇷", "𝔘𝔫𝔦", "你好，世界", "日本語のテキスト", "한국어",
	"e\u0301", "ñ", "Ünïcödé", "naïve café", "\u00a0", "\ufeff", "\ufffd",
	"\n", "\t", "\r\n", "\b\f", "\u0000", "\u0001", "\u001c", "\u001f", "\u007f", "\u0085", "\u2028", "\u2029",
	`"quoted"`, `back\slash`, "a/b/c", "https://example.com/x?y=1&z=2",
	"<b>bold</b>", "a < b && c > d", "&amp;", "</script>",
	"{\"looks\": \"like json\"}", "[1, 2, 3]", "null",
}

var textGen = rapid.OneOf(
	rapid.Map(rapid.SliceOfN(rapid.SampledFrom(fragments), 0, 6), func(p []string) string { return strings.Join(p, "") }),
	rapid.Map(rapid.SliceOfN(rapid.SampledFrom(fragments), 1, 4), func(p []string) string { return strings.Join(p, " ") }),
	rapid.StringN(0, 16, -1),
)

// drawStr draws a string value, sometimes spelled with escapes on the wire.
func drawStr(t *rapid.T, label string) jv {
	v := jstr(textGen.Draw(t, label))
	v.esc = rapid.IntRange(0, 4).Draw(t, label+" escaped") == 0
	return v
}

// numbers are written in forms that JSON.stringify rewrites (EST-3).
var numbers = []numLit{
	{"0", "0"}, {"1", "1"}, {"42", "42"}, {"-7", "-7"},
	{"1.0", "1"}, {"2.50", "2.5"}, {"1e3", "1000"}, {"1E2", "100"}, {"-2.5E+3", "-2500"},
	{"-0", "0"}, {"-0.0", "0"}, {"0.1", "0.1"}, {"0.000001", "0.000001"}, {"0.0000001", "1e-7"},
	{"1e-7", "1e-7"}, {"1.5e-10", "1.5e-10"}, {"1e20", "100000000000000000000"}, {"1e21", "1e+21"},
	{"123456789012345678901", "123456789012345680000"}, {"12345678901234567890123", "1.2345678901234568e+22"},
	{"5e-324", "5e-324"}, {"1.7976931348623157e308", "1.7976931348623157e+308"},
}

// overflowing numbers are not doubles; JSON.stringify writes null for them.
// They are only sent to window.estimate: MSG-2 compares numbers as
// doubles, which they are not, so a trim may not be able to return them.
var overflowing = []numLit{{"1e400", "null"}, {"-1e400", "null"}}

var memberNames = []string{"a", "b", "city", "units", "query", "deep", "list", "n", "flag",
	"ünï", "emoji😀", "k<>&", "with space", "tab\there", `q"uote`, "x/y"}

// drawAny draws an arbitrary JSON value nested at most depth deep.
func drawAny(t *rapid.T, depth int, overflow bool) jv {
	kinds := 4
	if depth > 0 {
		kinds = 6
	}
	switch rapid.IntRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return jnull()
	case 1:
		return jbool(rapid.Bool().Draw(t, "bool"))
	case 2:
		pool := numbers
		if overflow {
			pool = append(append([]numLit(nil), numbers...), overflowing...)
		}
		return jnum(rapid.SampledFrom(pool).Draw(t, "number"))
	case 3:
		return drawStr(t, "string")
	case 4:
		n := rapid.IntRange(0, 3).Draw(t, "len")
		a := jarr()
		for range n {
			a.elems = append(a.elems, drawAny(t, depth-1, overflow))
		}
		return a
	default:
		names := rapid.SliceOfNDistinct(rapid.SampledFrom(memberNames), 0, 3, rapid.ID[string]).Draw(t, "names")
		o := jobj()
		for _, n := range names {
			o.mems = append(o.mems, mem(n, drawAny(t, depth-1, overflow)))
		}
		return o
	}
}

func drawID(t *rapid.T, prefix string) string {
	return fmt.Sprintf("%s%04d", prefix, rapid.IntRange(0, 9999).Draw(t, prefix))
}

// Content blocks of Anthropic's Messages API.
func textBlock(t *rapid.T) jv {
	return jobj(mem("type", jstr("text")), mem("text", drawStr(t, "text")))
}

func toolUseBlock(t *rapid.T, overflow bool) jv {
	input := jobj(mem("city", drawStr(t, "city")))
	for _, n := range rapid.SliceOfNDistinct(rapid.SampledFrom(memberNames[3:]), 0, 3, rapid.ID[string]).Draw(t, "input names") {
		input.mems = append(input.mems, mem(n, drawAny(t, 2, overflow)))
	}
	return jobj(
		mem("type", jstr("tool_use")),
		mem("id", jstr(drawID(t, "toolu_"))),
		mem("name", jstr(rapid.SampledFrom([]string{"get_weather", "search", "run_code"}).Draw(t, "tool"))),
		mem("input", input),
	)
}

func toolResultBlock(t *rapid.T) jv {
	b := jobj(mem("type", jstr("tool_result")), mem("tool_use_id", jstr(drawID(t, "toolu_"))))
	if rapid.Bool().Draw(t, "result as blocks") {
		blocks := jarr()
		for range rapid.IntRange(0, 2).Draw(t, "result blocks") {
			blocks.elems = append(blocks.elems, textBlock(t))
		}
		b.mems = append(b.mems, mem("content", blocks))
	} else {
		b.mems = append(b.mems, mem("content", drawStr(t, "result")))
	}
	if rapid.Bool().Draw(t, "is_error present") {
		b.mems = append(b.mems, mem("is_error", jbool(rapid.Bool().Draw(t, "is_error"))))
	}
	return b
}

func imageBlock(t *rapid.T) jv {
	data := rapid.StringOfN(rapid.RuneFrom([]rune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")), 4, 24, -1).Draw(t, "image data")
	return jobj(
		mem("type", jstr("image")),
		mem("source", jobj(
			mem("type", jstr("base64")),
			mem("media_type", jstr("image/png")),
			mem("data", jstr("iVBORw0KGgo"+data+"==")),
		)),
	)
}

// msgOpts says what a generated message may be.
type msgOpts struct {
	// tools allows tool calls and tool results: OpenAI tool_calls and
	// role "tool" messages, Anthropic tool_use and tool_result blocks,
	// generated one by one rather than as a call followed by its results,
	// so that a list of them is not well-formed: only window.estimate,
	// which reads each message on its own, gets such lists. Conversations
	// with tool calls come from conversationGen and historyGen (conv.go),
	// which build whole units.
	tools bool
	// overflow allows numbers too large for a double (window.estimate
	// only: MSG-2 compares numbers as doubles, which they are not).
	overflow bool
}

// shapes of message, as the agent loops this suite is for send them.
var (
	plainShapes = []string{"user", "assistant", "system", "blocks-text", "blocks-image", "assistant-null", "no-content", "odd-content"}
	toolShapes  = []string{"blocks-tool-use", "blocks-tool-result", "openai-tool-calls", "openai-tool"}
)

// msgGen generates one message with marker seq (-1: no marker).
func msgGen(seq int, o msgOpts) *rapid.Generator[msg] {
	shapes := plainShapes
	if o.tools {
		shapes = append(append([]string(nil), plainShapes...), toolShapes...)
	}
	return rapid.Custom(func(t *rapid.T) msg {
		var (
			role    string
			content *jv
			extra   []jmember
			class   string
			ids     []string
		)
		set := func(v jv) { content = &v }
		switch rapid.SampledFrom(shapes).Draw(t, "shape") {
		case "user":
			role = "user"
			set(drawStr(t, "content"))
		case "assistant":
			role = "assistant"
			set(drawStr(t, "content"))
		case "system":
			role, content, extra = systemParts(t)
		case "blocks-text":
			role = rapid.SampledFrom([]string{"user", "assistant"}).Draw(t, "role")
			set(textBlocks(t, 0, 3))
		case "blocks-image":
			role = "user"
			set(jarr(imageBlock(t), textBlock(t)))
		case "assistant-null":
			// An assistant turn with null content and no tool call (a
			// refusal, say): content null counts 0 (EST-4).
			role = "assistant"
			set(jnull())
			if rapid.Bool().Draw(t, "refusal") {
				extra = append(extra, mem("refusal", drawStr(t, "refusal")))
			}
		case "blocks-tool-use":
			role = "assistant"
			blocks := jarr()
			if rapid.Bool().Draw(t, "leading text") {
				blocks.elems = append(blocks.elems, textBlock(t))
			}
			for range rapid.IntRange(1, 2).Draw(t, "tool uses") {
				b := toolUseBlock(t, o.overflow)
				ids = append(ids, b.mems[1].val.str)
				blocks.elems = append(blocks.elems, b)
			}
			set(blocks)
		case "blocks-tool-result":
			role = "user"
			blocks := jarr()
			for range rapid.IntRange(1, 2).Draw(t, "tool results") {
				b := toolResultBlock(t)
				ids = append(ids, b.mems[1].val.str)
				blocks.elems = append(blocks.elems, b)
			}
			set(blocks)
		case "openai-tool-calls":
			role = "assistant"
			switch rapid.IntRange(0, 3).Draw(t, "tool-call content") {
			case 0:
				// content absent
			case 1:
				set(drawStr(t, "content"))
			default:
				set(jnull())
			}
			calls := jarr()
			for range rapid.IntRange(1, 2).Draw(t, "tool calls") {
				id := drawID(t, "call_")
				ids = append(ids, id)
				calls.elems = append(calls.elems, functionCall(t, id))
			}
			extra = append(extra, mem("tool_calls", calls))
		case "openai-tool":
			role = "tool"
			id := drawID(t, "call_")
			ids = append(ids, id)
			extra = append(extra, mem("tool_call_id", jstr(id)))
			set(toolContent(t))
		case "no-content":
			role = rapid.SampledFrom([]string{"user", "assistant", "developer"}).Draw(t, "role")
			extra = append(extra, mem("name", drawStr(t, "name")))
		case "odd-content":
			role = rapid.SampledFrom([]string{"user", "assistant"}).Draw(t, "role")
			set(oddContent(t, o.overflow))
		}
		switch {
		case role == "system" || role == "developer":
			class = clsSystem
		case role == "tool":
			class = clsToolResult
		case role == "assistant" && len(ids) > 0:
			class = clsToolCall
		case role == "assistant":
			class = clsAssistantText
		case len(ids) > 0:
			class = clsToolResult
		default:
			class = clsUserPrompt
		}
		m := finish(t, role, content, extra, seq, o.overflow)
		m.Class, m.IDs = class, ids
		return m
	})
}

// finish adds what an agent loop or an SDK might add to a message — an
// unknown member, the marker at any position, spaced JSON — and builds it.
// Members an implementation knows nothing about must come back untouched
// (MSG-2) and must not be counted (EST-5).
func finish(t *rapid.T, role string, content *jv, extra []jmember, seq int, overflow bool) msg {
	if rapid.IntRange(0, 2).Draw(t, "extras") == 0 {
		switch rapid.IntRange(0, 2).Draw(t, "extra") {
		case 0:
			extra = append(extra, mem("name", drawStr(t, "name")))
		case 1:
			extra = append(extra, mem("cache_control", jobj(mem("type", jstr("ephemeral")))))
		default:
			extra = append(extra, mem("x_meta", drawAny(t, 2, overflow)))
		}
	}
	obj := jobj(mem("role", jstr(role)))
	if content != nil {
		obj.mems = append(obj.mems, mem("content", *content))
	}
	obj.mems = append(obj.mems, extra...)
	if seq >= 0 {
		at := rapid.IntRange(0, len(obj.mems)).Draw(t, "marker position")
		obj.mems = append(obj.mems[:at], append([]jmember{mem(markerName, jint(seq))}, obj.mems[at:]...)...)
	}
	spaced := rapid.IntRange(0, 5).Draw(t, "spaced") == 0
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
	for range rapid.IntRange(lo, hi).Draw(t, "text blocks") {
		blocks.elems = append(blocks.elems, textBlock(t))
	}
	return blocks
}

// oddContent is content no provider sends but the message model allows:
// a number, a boolean, a lone block object, anything.
func oddContent(t *rapid.T, overflow bool) jv {
	switch rapid.IntRange(0, 3).Draw(t, "odd") {
	case 0:
		return jnum(rapid.SampledFrom(numbers).Draw(t, "number"))
	case 1:
		return jbool(rapid.Bool().Draw(t, "bool"))
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
	if rapid.IntRange(0, 5).Draw(t, "system as blocks") == 0 {
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
	switch rapid.IntRange(0, 4).Draw(t, "tool content") {
	case 0, 1:
		return drawStr(t, "content")
	case 2, 3:
		return jstr(drawAny(t, 2, false).compact())
	default:
		return textBlocks(t, 1, 2)
	}
}

// ---------------------------------------------------------------------------
// Configurations

// Defaults of CFG-1.
const (
	defaultMax   = 100
	defaultFirst = 1
	defaultLast  = 20
)

// cfgCase is a generated ConversationHistoryConfig.
type cfgCase struct {
	// Raw is the config sent; nil sends no config member at all.
	Raw json.RawMessage
	// Max, First and Last are the counts sent; nil when the member is
	// absent or null, so that its default applies.
	Max, First, Last *int
	Summarize        *bool
	// Sent maps each member sent to its JSON text ("null" included).
	Sent map[string]string
}

// clause is the clause that fixes the effective value of member.
func (c cfgCase) clause(member string) string {
	sent, ok := c.Sent[member]
	switch {
	case !ok:
		return "CFG-1"
	case sent == "null":
		return "CFG-2"
	case strings.HasSuffix(sent, ".0") || strings.HasSuffix(sent, "e0"):
		return "CFG-3"
	default:
		return "CFG-1"
	}
}

// how says how member was sent.
func (c cfgCase) how(member string) string {
	sent, ok := c.Sent[member]
	switch {
	case c.Raw == nil:
		return "no config was sent, which is the config {}, so every member takes its default"
	case !ok:
		return "the member was absent, so it takes its default"
	case sent == "null":
		return "the member was null, which means absent, so it takes its default"
	default:
		return "the member was sent as " + sent
	}
}

func (c cfgCase) GoString() string {
	if c.Raw == nil {
		return "(no config)"
	}
	return string(c.Raw)
}

// want is the effective configuration the case must produce (CFG-1, CFG-2).
func (c cfgCase) want() (maxN, first, last int, summarize bool) {
	or := func(p *int, d int) int {
		if p == nil {
			return d
		}
		return *p
	}
	if c.Summarize != nil {
		summarize = *c.Summarize
	}
	return or(c.Max, defaultMax), or(c.First, defaultFirst), or(c.Last, defaultLast), summarize
}

// maxGen draws max_messages with weight on the small values where the
// boundaries are; 0 disables trimming (CFG-5).
var maxGen = rapid.OneOf(
	rapid.SampledFrom([]int{0, 1, 2, 3, 4, 5, 8, 10, 20}),
	rapid.IntRange(0, 30),
)

// configGen draws a configuration whose preserve_first_n + preserve_last_n
// lands below, at, one above and far above max_messages, with members
// sometimes absent or null, and counts sometimes spelled 3.0 or 3e0
// (CFG-3). maxes draws max_messages.
func configGen(maxes *rapid.Generator[int]) *rapid.Generator[cfgCase] {
	return rapid.Custom(func(t *rapid.T) cfgCase {
		// rapid favours the first choices, so the rare one comes last. A
		// default max_messages (100) takes a conversation of 101 messages to
		// trim, slow to shrink and long to read, so it stays rare.
		if rapid.IntRange(0, 23).Draw(t, "no config") == 23 {
			return cfgCase{}
		}
		maxN := maxes.Draw(t, "max_messages")
		var sum int
		switch rapid.IntRange(0, 7).Draw(t, "h+t versus max") {
		case 0:
			sum = maxN - 1
		case 1:
			sum = maxN
		case 2:
			sum = maxN + 1
		case 3:
			sum = maxN - 2
		case 4:
			sum = 2*maxN + rapid.IntRange(1, 10).Draw(t, "far above")
		default:
			sum = rapid.IntRange(0, 40).Draw(t, "h+t")
		}
		sum = max(sum, 0)
		first := rapid.IntRange(0, sum).Draw(t, "preserve_first_n")
		last := sum - first

		c := cfgCase{Sent: map[string]string{}}
		var mems []string
		count := func(name string, v int, dst **int) {
			presence := []string{"set", "set", "set", "set", "set", "set", "absent", "null"}
			if name == "max_messages" {
				presence = append(slices.Repeat([]string{"set"}, 14), "absent", "null")
			}
			switch rapid.SampledFrom(presence).Draw(t, name+" present") {
			case "set":
				spelled := strconv.Itoa(v)
				switch rapid.IntRange(0, 9).Draw(t, name+" spelling") {
				case 0:
					spelled += ".0"
				case 1:
					spelled += "e0"
				}
				*dst = &v
				c.Sent[name] = spelled
				mems = append(mems, fmt.Sprintf("%q:%s", name, spelled))
			case "null":
				c.Sent[name] = "null"
				mems = append(mems, fmt.Sprintf("%q:null", name))
			}
		}
		count("max_messages", maxN, &c.Max)
		count("preserve_first_n", first, &c.First)
		count("preserve_last_n", last, &c.Last)
		switch rapid.IntRange(0, 4).Draw(t, "summarize_on_trim") {
		case 0:
			b := true
			c.Summarize = &b
			c.Sent["summarize_on_trim"] = "true"
			mems = append(mems, `"summarize_on_trim":true`)
		case 1:
			b := false
			c.Summarize = &b
			c.Sent["summarize_on_trim"] = "false"
			mems = append(mems, `"summarize_on_trim":false`)
		case 2:
			c.Sent["summarize_on_trim"] = "null"
			mems = append(mems, `"summarize_on_trim":null`)
		}
		mems = rapid.Permutation(mems).Draw(t, "member order")
		c.Raw = json.RawMessage("{" + strings.Join(mems, ",") + "}")
		return c
	})
}

// lengthMode says which side of the cap a conversation length falls on.
type lengthMode int

const (
	anyLength   lengthMode = iota
	overCap                // n > max when max > 0, so that the window trims
	withinLimit            // n <= max, or any n when max is 0 (WIN-1)
)

// longest is the longest conversation generated.
const longest = 130

// lengthGen draws a conversation length around every boundary of the
// effective configuration: 0, 1, max − 1, max, max + 1, h + t ± 1, and
// longer ones.
func lengthGen(maxN, h, t int, mode lengthMode) *rapid.Generator[int] {
	if mode == anyLength {
		return rapid.OneOf(lengthGen(maxN, h, t, withinLimit), lengthGen(maxN, h, t, overCap))
	}
	cands := []int{0, 1, 2, maxN - 1, maxN, maxN + 1, maxN + 2, h + t - 1, h + t, h + t + 1,
		h, h + 1, t, t + 1, 2 * maxN, maxN + h + t, maxN + h + t + 1}
	lo, hi := 0, longest
	switch mode {
	case overCap:
		if maxN > 0 {
			lo = maxN + 1
		}
	case withinLimit:
		if maxN > 0 {
			hi = maxN
		}
	}
	var keep []int
	for _, c := range cands {
		if c >= lo && c <= hi {
			keep = append(keep, c)
		}
	}
	random := rapid.IntRange(lo, min(hi, lo+60))
	if len(keep) == 0 {
		return random
	}
	// The cap itself and one past it get weight of their own: they are
	// where WIN-1 ends and trimming starts.
	var edges []int
	for _, c := range []int{maxN, maxN + 1} {
		if c >= lo && c <= hi {
			edges = append(edges, c)
		}
	}
	if len(edges) == 0 {
		return rapid.OneOf(rapid.SampledFrom(keep), rapid.SampledFrom(keep), random)
	}
	return rapid.OneOf(rapid.SampledFrom(edges), rapid.SampledFrom(keep), rapid.SampledFrom(keep), random)
}
