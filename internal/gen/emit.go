package gen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
)

// Emission: turning a plan and its defects into messages, knowing the
// class, unit and structure of each.

type emitter struct {
	t      *rapid.T
	o      HistoryOpts
	h      History
	salt   string
	nextID int
	// ids are the ids each tool item declared.
	ids map[int][]string
}

func (e *emitter) newID(anthropic bool) string {
	e.nextID++
	prefix := "call_"
	if anthropic {
		prefix = "toolu_"
	}
	return prefix + e.salt + strconv.Itoa(e.nextID)
}

// add appends one message: its marker is its position.
func (e *emitter) add(role string, content *jv, extra []jmember, class string, ids []string) int {
	at := len(e.h.Msgs)
	seq := -1
	if e.o.Marked {
		seq = e.o.Base + at
	}
	m := finish(e.t, role, content, extra, seq, false)
	m.Class, m.IDs = class, ids
	e.h.Msgs = append(e.h.Msgs, m)
	return at
}

func (e *emitter) unit(start, end int) {
	for i := start; i < end; i++ {
		e.h.Msgs[i].Unit = [2]int{start, end}
	}
	e.h.Units = append(e.h.Units, [2]int{start, end})
}

func (e *emitter) broken(defect string, codes []string, idx, named []int) {
	sure := len(codes) == 1 && !slices.Contains(AmbiguousDefects, defect)
	if named == nil {
		named = idx
	}
	e.h.Broken = append(e.h.Broken, structure{Defect: defect, Codes: codes, sure: sure, Idx: idx, Named: named})
}

// The shapes of a plain unit's message and the roles of another role's,
// drawn from generators built once (shared.go).
var (
	promptShapes = newFormatChoices([]string{"text", "text", "text", "text", "blocks", "blocks", "image", "no-content", "odd", "lone-result"}, func(s string) string {
		if s == "lone-result" {
			return protocol.FormatAnthropic // a tool_result block, if not in an array
		}
		return ""
	})
	assistantShapes = rapid.SampledFrom([]string{"text", "text", "text", "blocks", "blocks", "null", "no-content", "odd", "empty-calls"})
	otherRoles      = rapid.SampledFrom([]string{"function", "critic", "ipython", "observation", "mémoire"})
)

func (e *emitter) plain(kind string) {
	t := e.t
	if e.o.templates != nil {
		k := rapid.OneOf(rapid.Just(0), intRange(0, len(e.o.templates)-1)).Draw(t, "template of")
		at := len(e.h.Msgs)
		e.h.Msgs = append(e.h.Msgs, e.o.templates[k])
		e.unit(at, at+1)
		return
	}
	var (
		role    string
		content *jv
		extra   []jmember
		class   string
	)
	// content points at c, which stays on the stack: finish copies
	// what it keeps.
	var c jv
	set := func(v jv) { c = v; content = &c }
	switch kind {
	case "system":
		var v jv
		role, v = systemParts(t)
		set(v)
		class = ClassSystem
	case "prompt":
		role, class = "user", ClassUserPrompt
		shape := promptShapes.mustDraw(t, "prompt shape")
		switch shape {
		case "text":
			set(drawStr(t, "content"))
		case "blocks":
			set(textBlocks(t, 0, 3))
		case "image":
			set(jarr(imageBlock(t), textBlock(t)))
		case "no-content":
			extra = append(extra, mem("name", drawStr(t, "name")))
		case "odd":
			set(oddContent(t, false))
		default:
			// A tool_result block that is the content, not in a content
			// array: CLS-1 asks for an array, so this is a prompt.
			set(jobj(mem("type", jstr("tool_result")), mem("tool_use_id", jstr(e.newID(true))), mem("content", drawStr(t, "content"))))
		}
	case "assistant":
		role, class = "assistant", ClassAssistantText
		switch assistantShapes.Draw(t, "assistant shape") {
		case "text":
			set(drawStr(t, "content"))
		case "blocks":
			set(textBlocks(t, 0, 3))
		case "null":
			set(jnull())
			if anyBool.Draw(t, "refusal") {
				extra = append(extra, mem("refusal", drawStr(t, "refusal")))
			}
		case "no-content":
		case "odd":
			set(oddContent(t, false))
		default:
			// An empty tool_calls array declares nothing (CLS-1).
			set(drawStr(t, "content"))
			extra = append(extra, mem("tool_calls", jarr()))
		}
	default:
		role = otherRoles.Draw(t, "other role")
		class = clsOther
		set(drawStr(t, "content"))
	}
	at := e.add(role, content, extra, class, nil)
	e.unit(at, at+1)
}

// What a tool call is drawn from, built once (shared.go).
var (
	callTools     = rapid.SampledFrom([]string{"get_weather", "read_file", "bash"})
	blankContents = rapid.SampledFrom([]string{"", " ", "\n"})
	idSalts       = rapid.SampledFrom([]string{"", "0", "Ab", "é", "😀", "x-"})
)

// call emits the tool call of ids (anthropic[i] says which are tool_use
// blocks).
func (e *emitter) call(ids []string, anthropic []bool) int {
	t := e.t
	var content *jv
	var extra []jmember
	// content points at c, which stays on the stack: finish copies
	// what it keeps.
	var c jv
	set := func(v jv) { c = v; content = &c }
	// The arrays in one allocation each, for the calls and a text before
	// the blocks; a text between them grows it.
	uses := 0
	for _, a := range anthropic {
		if a {
			uses++
		}
	}
	calls := jv{kind: jArr, elems: make([]jv, 0, len(ids)-uses)}
	blocks := jv{kind: jArr, elems: make([]jv, 0, uses+1)}
	if !e.o.Silent && intRange(0, 2).Draw(t, "text before the calls") == 0 {
		blocks.elems = append(blocks.elems, textBlock(t))
	}
	for i, id := range ids {
		if anthropic[i] {
			blocks.elems = append(blocks.elems, jobj(
				mem("type", jstr("tool_use")),
				mem("id", jstr(id)),
				mem("name", jstr(callTools.Draw(t, "tool"))),
				mem("input", jobj(mem("query", drawStr(t, "input")))),
			))
			if !e.o.Silent && intRange(0, 5).Draw(t, "text between the calls") == 0 {
				blocks.elems = append(blocks.elems, textBlock(t))
			}
		} else {
			calls.elems = append(calls.elems, functionCall(t, id))
		}
	}
	if uses > 0 {
		set(blocks)
	} else {
		switch intRange(0, 3).Draw(t, "tool-call content") {
		case 0:
			// absent
		case 1:
			if e.o.Silent {
				set(jstr(blankContents.Draw(t, "blank content")))
				break
			}
			set(drawStr(t, "content"))
		default:
			set(jnull())
		}
	}
	if len(calls.elems) > 0 {
		extra = append(extra, mem("tool_calls", calls))
	}
	return e.add("assistant", content, extra, ClassToolCall, ids)
}

// result emits one result message answering ids: an OpenAI tool message
// (one id) or an Anthropic user message of tool_result blocks.
func (e *emitter) result(ids []string, anthropic bool) int {
	t := e.t
	if !anthropic {
		c := toolContent(t)
		return e.add("tool", &c, []jmember{mem("tool_call_id", jstr(ids[0]))}, ClassToolResult, ids)
	}
	// One allocation for the blocks and a text beside them, one for each
	// block's members.
	blocks := jv{kind: jArr, elems: make([]jv, 0, len(ids)+1)}
	for _, id := range ids {
		b := jobj(append(make([]jmember, 0, 4), mem("type", jstr("tool_result")), mem("tool_use_id", jstr(id)))...)
		if anyBool.Draw(t, "result as blocks") {
			b.mems = append(b.mems, mem("content", textBlocks(t, 0, 2)))
		} else {
			b.mems = append(b.mems, mem("content", drawStr(t, "result")))
		}
		if intRange(0, 3).Draw(t, "is_error") == 0 {
			b.mems = append(b.mems, mem("is_error", jbool(anyBool.Draw(t, "error"))))
		}
		blocks.elems = append(blocks.elems, b)
	}
	if intRange(0, 5).Draw(t, "text beside the results") == 0 {
		// Text beside tool results does not change the class (D-20).
		at := intRange(0, len(blocks.elems)).Draw(t, "text at")
		blocks.elems = slices.Insert(blocks.elems, at, textBlock(t))
	}
	return e.add("user", &blocks, nil, ClassToolResult, ids)
}

// pending is a result message moved behind the next unit.
type pending struct {
	ids       []string
	anthropic bool
}

func (e *emitter) tool(idx int, it item) *pending {
	t := e.t
	s := it.tool
	ids := make([]string, len(s.anthropic))
	for i, a := range s.anthropic {
		ids[i] = e.newID(a)
	}
	groups := make([][]int, len(s.groups))
	for i, g := range s.groups {
		groups[i] = slices.Clone(g)
	}
	drop := func(c int) {
		for i, g := range groups {
			if k := slices.Index(g, c); k >= 0 {
				groups[i] = slices.Delete(g, k, k+1)
				if len(groups[i]) == 0 {
					groups = slices.Delete(groups, i, i+1)
				}
				return
			}
		}
	}
	format := func(g []int) bool { return s.anthropic[g[0]] }
	var (
		moved  *pending
		extraG = -1 // index of an inserted group answering a fresh id
		fresh  string
	)
	switch it.defect {
	case "drop":
		drop(intRange(0, len(ids)-1).Draw(t, "dropped result"))
	case "dup":
		src := e.ids[it.dupOf]
		ids[intRange(0, len(ids)-1).Draw(t, "duplicated call")] = rapid.SampledFrom(src).Draw(t, "duplicated id")
	case "dup-same":
		ids[1] = ids[0]
		s.anthropic[1] = s.anthropic[0]
		drop(1)
	case "twice", "twice-after":
		var opts []string
		for i, g := range groups {
			if format(g) {
				opts = append(opts, fmt.Sprintf("block %d", i))
			}
			if i < len(groups)-1 {
				opts = append(opts, fmt.Sprintf("message %d", i))
			}
		}
		if it.defect == "twice-after" {
			opts = []string{"after"}
		}
		switch how := rapid.SampledFrom(opts).Draw(t, "answered twice"); {
		case how == "after":
			last := groups[len(groups)-1]
			c := rapid.SampledFrom(last).Draw(t, "answered again")
			groups = append(groups, []int{c})
		case strings.HasPrefix(how, "block"):
			i, _ := strconv.Atoi(strings.TrimPrefix(how, "block "))
			c := rapid.SampledFrom(groups[i]).Draw(t, "answered again")
			at := intRange(slices.Index(groups[i], c)+1, len(groups[i])).Draw(t, "again at")
			groups[i] = slices.Insert(groups[i], at, c)
		default:
			i, _ := strconv.Atoi(strings.TrimPrefix(how, "message "))
			c := rapid.SampledFrom(groups[i]).Draw(t, "answered again")
			groups = slices.Insert(groups, i+1, []int{c})
		}
	case "move":
		g := intRange(0, len(groups)-1).Draw(t, "moved result")
		moved = &pending{anthropic: format(groups[g])}
		for _, c := range groups[g] {
			moved.ids = append(moved.ids, ids[c])
		}
		groups = slices.Delete(groups, g, g+1)
	case "orphan-in-run":
		extraG = intRange(0, len(groups)-1).Draw(t, "stranger at")
		fresh = e.newID(false)
	}
	start := e.call(ids, s.anthropic)
	for i, g := range groups {
		if i == extraG {
			a := drawAnthropic(t, "stranger format")
			e.result([]string{fresh}, a)
		}
		answer := make([]string, len(g))
		for k, c := range g {
			answer[k] = ids[c]
		}
		e.result(answer, format(g))
	}
	end := len(e.h.Msgs)
	all := IndexRange(start, end)
	switch it.defect {
	case "":
		e.unit(start, end)
		e.ids[idx] = ids
	case "drop", "move":
		e.broken(it.defect, []string{codeUnanswered}, all, nil)
	case "twice":
		e.broken(it.defect, []string{codeTwice}, all, nil)
	case "twice-after":
		e.broken(it.defect, []string{codeTwice, codeOrphan}, all, nil)
	case "dup":
		e.broken(it.defect, []string{codeDuplicate}, all, append(e.unitOf(it.dupOf), all...))
	case "dup-same":
		e.broken(it.defect, []string{codeDuplicate}, all, nil)
	case "orphan-in-run":
		e.broken(it.defect, []string{codeOrphan, codeUnanswered}, all, nil)
	}
	return moved
}

// unitOf is the positions of the unit plan item i was emitted as.
func (e *emitter) unitOf(i int) []int {
	ids := e.ids[i]
	for _, u := range e.h.Units {
		if slices.Equal(e.h.Msgs[u[0]].IDs, ids) {
			return IndexRange(u[0], u[1])
		}
	}
	return nil
}

func (e *emitter) orphan(x insertion) {
	t := e.t
	anthropic := drawAnthropic(t, "orphan format")
	var ids []string
	named := []int(nil)
	switch x.defect {
	case "orphan-known-id":
		ids = []string{rapid.SampledFrom(e.ids[x.known]).Draw(t, "known id")}
		named = e.unitOf(x.known)
	default:
		ids = []string{e.newID(anthropic)}
		if anthropic && intRange(0, 3).Draw(t, "two orphans in one message") == 0 {
			ids = append(ids, e.newID(true))
		}
	}
	at := e.result(ids, anthropic)
	codes := []string{codeOrphan}
	if x.defect == "orphan-known-id" {
		codes = []string{codeOrphan, codeTwice}
	}
	e.broken(x.defect, codes, []int{at}, append(named, at))
}

func emit(t *rapid.T, plan []item, ins []insertion, o HistoryOpts) History {
	e := &emitter{t: t, o: o, ids: map[int][]string{}, nextID: o.IdBase}
	e.salt = idSalts.Draw(t, "id salt")
	// The messages in one allocation: at most one per planned message,
	// one per insertion and one more per defect (a result answered twice
	// or a stranger in a run). They are clipped at the end, as the units
	// are, so that a caller's append never writes into another's.
	n := len(ins)
	for _, it := range plan {
		n += itemSize(it)
		if it.defect != "" {
			n++
		}
	}
	e.h.Msgs = make([]Message, 0, n)
	e.h.Units = make([][2]int, 0, len(plan))
	var moved *pending
	for i := 0; i <= len(plan); i++ {
		for _, x := range ins {
			if x.slot == i {
				e.orphan(x)
			}
		}
		if i == len(plan) {
			break
		}
		it := plan[i]
		var next *pending
		if it.kind == "tool" {
			next = e.tool(i, it)
		} else {
			e.plain(it.kind)
		}
		if moved != nil {
			at := e.result(moved.ids, moved.anthropic)
			e.broken("move", []string{codeOrphan}, []int{at}, nil)
		}
		moved = next
	}
	slices.SortStableFunc(e.h.Broken, func(a, b structure) int { return a.Idx[0] - b.Idx[0] })
	e.h.Msgs, e.h.Units = slices.Clip(e.h.Msgs), slices.Clip(e.h.Units)
	return e.h
}

// Conversations generates a well-formed conversation of exactly n
// messages, each with its position as marker: agent conversations in both
// formats, with parallel calls, results in any order, long tool-free
// stretches, multi-block content and unicode.
func Conversations(n int) *rapid.Generator[[]Message] {
	return rapid.Custom(func(t *rapid.T) []Message {
		o := HistoryOpts{N: n, Exact: true, Marked: true, Tools: -1}
		return emit(t, drawPlan(t, o), nil, o).Msgs
	})
}

// Histories generates a conversation of at least o.n messages with the
// defects o allows.
func Histories(o HistoryOpts) *rapid.Generator[History] {
	return rapid.Custom(func(t *rapid.T) History {
		o := o
		plan := drawPlan(t, o)
		plan, ins := drawDefects(t, plan, o)
		return emit(t, plan, ins, o)
	})
}

// IdenticalConversations generates n messages without markers, each a
// copy of one of one to three plain templates (mostly the first) or a
// message of a tool-call unit, so that only their position tells the
// copies apart.
func IdenticalConversations(n int) *rapid.Generator[Identical] {
	return rapid.Custom(func(t *rapid.T) Identical {
		k := intRange(1, 3).Draw(t, "templates")
		var c Identical
		for range k {
			c.Templates = append(c.Templates, Messages(-1, MessageOpts{}).Draw(t, "template"))
		}
		o := HistoryOpts{N: n, Exact: true, Tools: rapid.SampledFrom([]int{0, 1}).Draw(t, "tools"), templates: c.Templates}
		c.Msgs = emit(t, drawPlan(t, o), nil, o).Msgs
		return c
	})
}

type Identical struct {
	Templates []Message
	Msgs      []Message
}

func (c Identical) Messages() []Message { return c.Msgs }

// Of is the template message k copies, -1 for a message of a tool unit.
func (c Identical) Of(k int) int {
	for i, m := range c.Templates {
		if string(m.Raw) == string(c.Msgs[k].Raw) {
			return i
		}
	}
	return -1
}

func (c Identical) GoString() string {
	var b strings.Builder
	for i, m := range c.Templates {
		fmt.Fprintf(&b, "template %c: %s\n", 'A'+i, m.Raw)
	}
	b.WriteString("messages: ")
	for k := range c.Msgs {
		b.WriteByte(c.Letter(k))
	}
	return b.String()
}

// Letter is the template letter of message k, '*' for a tool unit's.
func (c Identical) Letter(k int) byte {
	if t := c.Of(k); t >= 0 {
		return byte('A' + t)
	}
	return '*'
}
