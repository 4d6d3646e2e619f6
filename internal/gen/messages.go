package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
)

// Generators. Every message is built here as a tree of jv values that knows
// both the JSON text sent on the wire and the compact serialization
// ECMAScript's JSON.stringify would write for it, so that the properties
// know each message's character count (EST-2 – EST-4) without asking any
// implementation, the reference included.

// Message is one generated message and what the properties know about it.
type Message struct {
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

	// built says the message was built here; content is where its
	// content member lies in Raw, the separator before it included
	// ({0, 0}: it has none), for WithoutContent.
	built   bool
	content [2]int
}

// WithoutContent is the message with its content member removed, to tell
// apart what an estimate counts (EST-5); nil for a message the generators
// did not build. It is written when asked: only a failing estimate asks.
// Raw less the content member and the separator before it is what writing
// the other members would give: the role comes before the content, so a
// separator always does.
func (m Message) WithoutContent() json.RawMessage {
	if !m.built {
		return nil
	}
	out := make(json.RawMessage, 0, len(m.Raw)-(m.content[1]-m.content[0]))
	return append(append(out, m.Raw[:m.content[0]]...), m.Raw[m.content[1]:]...)
}

// GoString keeps rapid's logs of drawn values readable.
func (m Message) GoString() string { return string(m.Raw) }

// MarkerName is the member that tells the messages of a conversation apart.
const MarkerName = "x_seq"

// kindNames are the JSON types of content that is neither null nor a
// string.
var kindNames = [...]string{jBool: "boolean", jNum: "number", jArr: "array", jObj: "object"}

// build writes a message — its role, its content unless nil, the extra
// members, and its marker at place at among them (-1: none), with a space
// after ',' and ':' when spaced — and fixes its texts and counts. The
// members are written as they come, not gathered into an object first:
// the message's JSON text is all that is kept of them.
func build(role string, content *jv, extra []jmember, seq, at int, spaced bool) Message {
	m := Message{Role: role, Seq: seq, Kind: "absent", built: true}
	comma, colon := ",", ":"
	if spaced {
		comma, colon = ", ", ": "
	}
	// nth is the i-th member but the marker.
	nth := func(i int) jmember {
		switch {
		case i == 0:
			return mem("role", jstr(role))
		case content != nil && i == 1:
			return mem("content", *content)
		case content != nil:
			return extra[i-2]
		default:
			return extra[i-1]
		}
	}
	members := 1 + len(extra)
	if content != nil {
		members++
	}
	var marker jmember
	if at >= 0 {
		members++
		marker = mem(MarkerName, jint(seq))
	}
	var scratch [512]byte
	b := append(scratch[:0], '{')
	var value []byte // the content as written
	for i := range members {
		j := i // its place among the members but the marker
		if at >= 0 && i > at {
			j--
		}
		mb := marker
		if i != at {
			mb = nth(j)
		}
		start := len(b)
		if i > 0 {
			b = append(b, comma...)
		}
		b = append(quoteJS(b, mb.name), colon...)
		valueAt := len(b)
		b = mb.val.append(b, true, spaced)
		if i != at && j == 1 && content != nil {
			m.content = [2]int{start, len(b)}
			value = b[valueAt:]
		}
	}
	m.Raw = bytes.Clone(append(b, '}'))
	if content != nil {
		switch content.kind {
		case jNull:
			m.Kind = "null"
		case jStr:
			m.Kind, m.Counted = "string", content.str
		default:
			m.Kind = kindNames[content.kind]
			if !spaced && content.wireIsCompact() {
				// Written as JSON.stringify writes it: no second walk.
				m.Counted = string(value)
			} else {
				m.Counted = content.compact()
			}
		}
	}
	m.Chars = UTF16Len(m.Counted)
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
	v.esc = intRange(0, 4).Draw(t, escapedLabel(label)) == 0
	return v
}

// escapedLabel is label+" escaped", the label of the draw that decides a
// string's spelling, not concatenated anew for the labels drawStr is
// called with.
func escapedLabel(label string) string {
	switch label {
	case "content":
		return "content escaped"
	case "text":
		return "text escaped"
	case "name":
		return "name escaped"
	case "result":
		return "result escaped"
	case "string":
		return "string escaped"
	case "input":
		return "input escaped"
	case "city":
		return "city escaped"
	case "refusal":
		return "refusal escaped"
	}
	return label + " escaped"
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

// The numbers drawAny draws from, with and without the overflowing ones,
// built once (shared.go).
var (
	anyNumber            = rapid.SampledFrom(numbers)
	anyNumberOverflowing = rapid.SampledFrom(append(append([]numLit(nil), numbers...), overflowing...))
)

var memberNames = []string{"a", "b", "city", "units", "query", "deep", "list", "n", "flag",
	"ünï", "emoji😀", "k<>&", "with space", "tab\there", `q"uote`, "x/y"}

// drawAny draws an arbitrary JSON value nested at most depth deep.
func drawAny(t *rapid.T, depth int, overflow bool) jv {
	kinds := 4
	if depth > 0 {
		kinds = 6
	}
	switch intRange(0, kinds-1).Draw(t, "kind") {
	case 0:
		return jnull()
	case 1:
		return jbool(anyBool.Draw(t, "bool"))
	case 2:
		pool := anyNumber
		if overflow {
			pool = anyNumberOverflowing
		}
		return jnum(pool.Draw(t, "number"))
	case 3:
		return drawStr(t, "string")
	case 4:
		n := intRange(0, 3).Draw(t, "len")
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
	return fmt.Sprintf("%s%04d", prefix, intRange(0, 9999).Draw(t, prefix))
}

// Content blocks of Anthropic's Messages API.
func textBlock(t *rapid.T) jv {
	return jobj(mem("type", jstr("text")), mem("text", drawStr(t, "text")))
}

// toolUseNames are the tools a tool_use block calls, drawn from a
// generator built once (shared.go).
var toolUseNames = rapid.SampledFrom([]string{"get_weather", "search", "run_code"})

func toolUseBlock(t *rapid.T, overflow bool) jv {
	input := jobj(mem("city", drawStr(t, "city")))
	for _, n := range rapid.SliceOfNDistinct(rapid.SampledFrom(memberNames[3:]), 0, 3, rapid.ID[string]).Draw(t, "input names") {
		input.mems = append(input.mems, mem(n, drawAny(t, 2, overflow)))
	}
	return jobj(
		mem("type", jstr("tool_use")),
		mem("id", jstr(drawID(t, "toolu_"))),
		mem("name", jstr(toolUseNames.Draw(t, "tool"))),
		mem("input", input),
	)
}

func toolResultBlock(t *rapid.T) jv {
	b := jobj(mem("type", jstr("tool_result")), mem("tool_use_id", jstr(drawID(t, "toolu_"))))
	if anyBool.Draw(t, "result as blocks") {
		blocks := jarr()
		for range intRange(0, 2).Draw(t, "result blocks") {
			blocks.elems = append(blocks.elems, textBlock(t))
		}
		b.mems = append(b.mems, mem("content", blocks))
	} else {
		b.mems = append(b.mems, mem("content", drawStr(t, "result")))
	}
	if anyBool.Draw(t, "is_error present") {
		b.mems = append(b.mems, mem("is_error", jbool(anyBool.Draw(t, "is_error"))))
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

// MessageOpts says what a generated message may be.
type MessageOpts struct {
	// Tools allows tool calls and tool results: OpenAI tool_calls and
	// role "tool" messages, Anthropic tool_use and tool_result blocks,
	// generated one by one rather than as a call followed by its results,
	// so that a list of them is not well-formed: only window.estimate,
	// which reads each message on its own, gets such lists. Conversations
	// with tool calls come from conversationGen and historyGen (conv.go),
	// which build whole units.
	Tools bool
	// Overflow allows numbers too large for a double (window.estimate
	// only: MSG-2 compares numbers as doubles, which they are not).
	Overflow bool
	// PlaneEdges adds, now and then, code points at the edges of the planes
	// (planeEdges) to a string content: U+FFFF counts one code unit and
	// U+10000 two (EST-2). Only the differential estimate sets it, so that
	// every other property draws as it did.
	PlaneEdges bool
}

// shapes of message, as the agent loops this suite is for send them.
var (
	plainShapes = []string{"user", "assistant", "system", "blocks-text", "blocks-image", "assistant-null", "no-content", "odd-content"}
	toolShapes  = []string{"blocks-tool-use", "blocks-tool-result", "openai-tool-calls", "openai-tool"}
)

// shapeFormat is the provider format of a shape of message; "" for none.
func shapeFormat(shape string) string {
	switch shape {
	case "blocks-tool-use", "blocks-tool-result":
		return protocol.FormatAnthropic
	case "openai-tool-calls", "openai-tool":
		return protocol.FormatOpenAI
	}
	return ""
}

// msgGen generates one message with marker seq (-1: no marker).
// stringContent draws a string content; with planeEdges, half of them end
// in one to eight plane-edge code points.
func (o MessageOpts) stringContent(t *rapid.T) jv {
	v := drawStr(t, "content")
	if o.PlaneEdges && anyBool.Draw(t, "plane edges") {
		for range intRange(1, 8).Draw(t, "edges") {
			v.str += string(rapid.SampledFrom(planeEdges).Draw(t, "edge"))
		}
	}
	return v
}

func Messages(seq int, o MessageOpts) *rapid.Generator[Message] {
	shapes := plainShapes
	if o.Tools {
		shapes = append(append([]string(nil), plainShapes...), toolShapes...)
	}
	shapeChoices := newFormatChoices(shapes, shapeFormat)
	return rapid.Custom(func(t *rapid.T) Message {
		var (
			role    string
			content *jv
			extra   []jmember
			class   string
			ids     []string
		)
		// content points at c, which stays on the stack: finish copies
		// what it keeps.
		var c jv
		set := func(v jv) { c = v; content = &c }
		shape := shapeChoices.mustDraw(t, "shape")
		switch shape {
		case "user":
			role = "user"
			set(o.stringContent(t))
		case "assistant":
			role = "assistant"
			set(o.stringContent(t))
		case "system":
			var v jv
			role, v = systemParts(t)
			set(v)
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
			if anyBool.Draw(t, "refusal") {
				extra = append(extra, mem("refusal", drawStr(t, "refusal")))
			}
		case "blocks-tool-use":
			role = "assistant"
			blocks := jarr()
			if anyBool.Draw(t, "leading text") {
				blocks.elems = append(blocks.elems, textBlock(t))
			}
			for range intRange(1, 2).Draw(t, "tool uses") {
				b := toolUseBlock(t, o.Overflow)
				ids = append(ids, b.mems[1].val.str)
				blocks.elems = append(blocks.elems, b)
			}
			set(blocks)
		case "blocks-tool-result":
			role = "user"
			blocks := jarr()
			for range intRange(1, 2).Draw(t, "tool results") {
				b := toolResultBlock(t)
				ids = append(ids, b.mems[1].val.str)
				blocks.elems = append(blocks.elems, b)
			}
			set(blocks)
		case "openai-tool-calls":
			role = "assistant"
			switch intRange(0, 3).Draw(t, "tool-call content") {
			case 0:
				// content absent
			case 1:
				set(drawStr(t, "content"))
			default:
				set(jnull())
			}
			calls := jarr()
			for range intRange(1, 2).Draw(t, "tool calls") {
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
			set(oddContent(t, o.Overflow))
		}
		switch {
		case role == "system" || role == "developer":
			class = ClassSystem
		case role == "tool":
			class = ClassToolResult
		case role == "assistant" && len(ids) > 0:
			class = ClassToolCall
		case role == "assistant":
			class = ClassAssistantText
		case len(ids) > 0:
			class = ClassToolResult
		default:
			class = ClassUserPrompt
		}
		m := finish(t, role, content, extra, seq, o.Overflow)
		m.Class, m.IDs = class, ids
		return m
	})
}
