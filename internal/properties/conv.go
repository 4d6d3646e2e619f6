package properties

// Conversations with tool calls. A conversation is generated in three
// steps: a plan of units (a system prompt, a user prompt, an assistant
// reply, a message of another role, or a tool call with its results, whose
// shape — format, parallel calls, how the results are grouped and ordered —
// is fixed in the plan so that lengths are known), then the defects to
// inject into it (UNIT-2), then the messages themselves, each knowing its
// position. The generator records what it built: every message's class and
// tool ids, every unit, every broken structure. The properties take that
// knowledge as the truth; nothing is read back from the JSON and nothing is
// asked of an implementation.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"
)

// Classes of CLS-1.
const (
	clsSystem        = "system"
	clsUserPrompt    = "user_prompt"
	clsAssistantText = "assistant_text"
	clsToolCall      = "tool_call"
	clsToolResult    = "tool_result"
	clsOther         = "other"
)

// Codes of the malformed structures of UNIT-2.
const (
	codeOrphan     = "orphan_tool_result"
	codeUnanswered = "unanswered_tool_call"
	codeDuplicate  = "duplicate_tool_call_id"
	codeTwice      = "tool_call_answered_twice"
)

var structureCodes = []string{codeOrphan, codeUnanswered, codeDuplicate, codeTwice}

// isAssistant: only assistant messages end a run of user prompts (PRUNE-2).
func isAssistant(class string) bool { return class == clsAssistantText || class == clsToolCall }

// history is a generated conversation and what the generator knows of it.
type history struct {
	msgs []msg
	// units are the well-formed units (UNIT-1), in order. In a well-formed
	// conversation they cover every message; otherwise the messages of the
	// broken structures are in none.
	units [][2]int
	// broken are the injected malformed structures, in order of their
	// first message.
	broken []structure
}

// structure is one malformed tool structure (UNIT-2).
type structure struct {
	// defect is what was done to a well-formed conversation.
	defect string
	// codes are the codes UNIT-2 may give it: one, unless the spec leaves
	// the choice open (sure is false then).
	codes []string
	sure  bool
	// idx are the input positions of its messages: what build drops
	// (BUILD-2) when sure.
	idx []int
	// named are the positions an error message about it may name.
	named []int
}

func (h history) GoString() string {
	var b strings.Builder
	for i, m := range h.msgs {
		fmt.Fprintf(&b, "%d %s %s\n", i, m.Class, m.Raw)
	}
	fmt.Fprintf(&b, "units %v", h.units)
	for _, s := range h.broken {
		fmt.Fprintf(&b, "\nbroken %s %v at %v", s.defect, s.codes, s.idx)
	}
	return b.String()
}

func (h history) wellFormed() bool { return len(h.broken) == 0 }

// unitStart reports whether position i starts a well-formed unit.
func (h history) unitStart(i int) bool { return h.msgs[i].Unit[0] == i }

// ---------------------------------------------------------------------------
// Plans

// item is one planned unit.
type item struct {
	kind string // prompt, assistant, system, other, tool
	tool toolSpec
	// defect injected into a tool item (drop, twice, twice-after, dup,
	// dup-same, move, orphan-in-run); "" when it is intact.
	defect string
	// dupOf is, for a dup defect, the plan index of the earlier intact tool
	// unit whose id it declares again.
	dupOf int
	// reserved items stay intact: the source of a duplicate id, or the
	// unit a moved result is moved behind.
	reserved bool
}

// toolSpec is the shape of a tool call and its results.
type toolSpec struct {
	// anthropic says, per call, whether it is a tool_use block (true) or
	// an element of tool_calls. tool_calls come first (CLS-1).
	anthropic []bool
	// groups are the result messages in order, each the calls it answers
	// in block order; an OpenAI tool message answers exactly one.
	groups [][]int
}

func (s toolSpec) size() int { return 1 + len(s.groups) }

// insertion is a tool result inserted between planned units: at slot s it
// comes before plan item s.
type insertion struct {
	slot   int
	defect string // orphan, orphan-known-id
	known  int    // for orphan-known-id: the plan index of the unit whose id it answers
}

// genOpts says what a conversation may hold.
type genOpts struct {
	// exact: exactly n messages, else at least n.
	n     int
	exact bool
	// marked gives every message its position as marker (x_seq).
	marked bool
	// tools is the weight of tool units: 0 never, else drawn per
	// conversation when -1.
	tools int
	// runs makes orphaned prompt runs likely: prompts after prompts,
	// separated by system messages and other roles, at the start and
	// the end (PRUNE-1, PRUNE-2).
	runs bool
	// defects is how many defects to inject: at least defects[0], at
	// most defects[1].
	defects [2]int
	// ambiguous allows defects whose code or extent the spec leaves open.
	ambiguous bool
	// plainTemplates, when set, makes every message that is not part of a
	// tool unit a copy of one of these (no marker).
	templates []msg
	// force makes every unit of this kind (tool, prompt, …).
	force string
	// silent leaves the text out of tool calls (SUM-6: only tool results
	// and calls, nothing to summarize).
	silent bool
	// base is added to every marker and idBase to every tool id number,
	// so that conversations generated one after another can be joined.
	base, idBase int
}

// markov lists what may follow a unit of each kind; rapid shrinks towards
// the first entry.
var markov = map[string][]string{
	"":          {"prompt", "system", "prompt", "system", "assistant", "tool", "other"},
	"system":    {"prompt", "prompt", "assistant", "tool", "system", "other"},
	"prompt":    {"assistant", "tool", "assistant", "tool", "prompt", "system", "other"},
	"assistant": {"prompt", "prompt", "prompt", "tool", "assistant", "system", "other"},
	"tool":      {"assistant", "tool", "tool", "assistant", "prompt", "system"},
	"other":     {"prompt", "assistant", "tool", "other"},
}

func drawPlan(t *rapid.T, o genOpts) []item {
	tools := o.tools
	if tools < 0 {
		tools = rapid.SampledFrom([]int{1, 2, 0, 3}).Draw(t, "tool weight")
	}
	runs := 0
	if o.runs {
		runs = rapid.IntRange(1, 4).Draw(t, "run weight")
	}
	var (
		plan    []item
		size    int
		prev    string
		stretch int // units left in a tool-free stretch
	)
	for size < o.n {
		left := o.n - size
		var kinds []string
		for _, k := range markov[prev] {
			switch {
			case k == "tool" && (tools == 0 || stretch > 0):
				continue
			case k == "tool":
				for range tools {
					kinds = append(kinds, k)
				}
				continue
			case k == "prompt" && (prev == "prompt" || prev == "" || prev == "system" || prev == "other"):
				for range runs {
					kinds = append(kinds, k)
				}
			}
			kinds = append(kinds, k)
		}
		if runs > 0 && prev == "prompt" {
			kinds = append(kinds, "system", "other")
		}
		kind := rapid.SampledFrom(kinds).Draw(t, "unit")
		if o.force != "" {
			kind = o.force
		}
		if stretch > 0 {
			stretch--
		} else if tools > 0 && rapid.IntRange(0, 15).Draw(t, "tool-free stretch") == 0 {
			stretch = rapid.IntRange(4, 30).Draw(t, "stretch length")
		}
		it := item{kind: kind}
		if kind == "tool" {
			limit := left
			if !o.exact {
				limit = 1 << 20
			}
			spec, ok := drawToolSpec(t, limit)
			if !ok {
				it.kind = "prompt"
			}
			it.tool = spec
		}
		plan = append(plan, it)
		size += itemSize(it)
		prev = it.kind
	}
	if !o.exact && runs > 0 && rapid.Bool().Draw(t, "end with a run") {
		for range rapid.IntRange(1, 3).Draw(t, "trailing prompts") {
			if rapid.IntRange(0, 3).Draw(t, "system inside the run") == 0 {
				plan = append(plan, item{kind: "system"})
			}
			plan = append(plan, item{kind: "prompt"})
		}
	}
	return plan
}

func itemSize(it item) int {
	if it.kind == "tool" {
		return it.tool.size()
	}
	return 1
}

// drawToolSpec draws a tool call of 1 to 5 parallel calls whose unit holds
// at most limit messages; ok is false when limit is below 2.
func drawToolSpec(t *rapid.T, limit int) (toolSpec, bool) {
	if limit < 2 {
		return toolSpec{}, false
	}
	format := rapid.SampledFrom([]string{"openai", "anthropic", "openai", "anthropic", "mixed"}).Draw(t, "format")
	n := rapid.SampledFrom([]int{1, 1, 1, 2, 2, 3, 4, 5}).Draw(t, "parallel calls")
	if format == "mixed" && n < 2 {
		format = "openai"
	}
	var s toolSpec
	perm := func(k int) []int { return rapid.Permutation(seqIdx(k)).Draw(t, "result order") }
	switch format {
	case "openai":
		n = min(n, limit-1)
		s.anthropic = make([]bool, n)
		for _, c := range perm(n) {
			s.groups = append(s.groups, []int{c})
		}
	case "anthropic":
		s.anthropic = slices.Repeat([]bool{true}, n)
		s.groups = groupResults(t, perm(n), limit-1)
	default:
		k := rapid.IntRange(1, n-1).Draw(t, "openai calls")
		s.anthropic = append(make([]bool, k), slices.Repeat([]bool{true}, n-k)...)
		var groups [][]int
		for c := range k {
			groups = append(groups, []int{c})
		}
		var blocks []int
		for _, c := range perm(n - k) {
			blocks = append(blocks, k+c)
		}
		groups = append(groups, groupResults(t, blocks, 1<<20)...)
		groups = rapid.Permutation(groups).Draw(t, "message order")
		if len(groups) > limit-1 {
			// Too long for what is left: one Anthropic call, one result.
			s = toolSpec{anthropic: []bool{true}, groups: [][]int{{0}}}
			return s, true
		}
		s.groups = groups
	}
	return s, true
}

// groupResults splits Anthropic results into user messages: all in one
// (the usual), one per message (pairs appended one by one), or runs; at
// most limit messages.
func groupResults(t *rapid.T, ids []int, limit int) [][]int {
	how := rapid.SampledFrom([]string{"one", "one", "each", "runs"}).Draw(t, "grouping")
	if how == "each" && len(ids) > limit || limit < 2 {
		how = "one"
	}
	switch how {
	case "one":
		return [][]int{ids}
	case "each":
		var out [][]int
		for _, c := range ids {
			out = append(out, []int{c})
		}
		return out
	}
	var out [][]int
	for len(ids) > 0 {
		k := rapid.IntRange(1, len(ids)).Draw(t, "run of results")
		if len(out) == limit-1 {
			k = len(ids)
		}
		out = append(out, ids[:k])
		ids = ids[k:]
	}
	return out
}

// ---------------------------------------------------------------------------
// Defects (UNIT-2)

// Defects whose code and extent the spec fixes, and those it leaves open
// (sent only where any reading gives the same answer: window.trim must
// refuse them all, history.prune ignores structure).
var (
	sureDefects      = []string{"orphan", "drop", "move", "twice", "dup"}
	ambiguousDefects = []string{"orphan-known-id", "orphan-in-run", "twice-after", "dup-same"}
)

func drawDefects(t *rapid.T, plan []item, o genOpts) ([]item, []insertion) {
	count := o.defects[0]
	if o.defects[1] > count {
		count = rapid.IntRange(o.defects[0], o.defects[1]).Draw(t, "defects")
	}
	kinds := sureDefects
	if o.ambiguous {
		kinds = append(append([]string(nil), sureDefects...), ambiguousDefects...)
	}
	var ins []insertion
	free := func(i int) bool { return plan[i].kind == "tool" && plan[i].defect == "" && !plan[i].reserved }
	intactTool := func(i int) bool { return plan[i].kind == "tool" && plan[i].defect == "" }
	slotFree := func(s int) bool {
		for _, x := range ins {
			if x.slot == s {
				return false
			}
		}
		// Right after a broken call, a result would be read as one of its
		// results: the spec does not say which structure it breaks.
		return s == 0 || plan[s-1].defect == ""
	}
	for d := 0; d < count; d++ {
		kind := rapid.SampledFrom(kinds).Draw(t, "defect")
		var cands []int
		switch kind {
		case "orphan", "orphan-known-id":
			for s := 0; s <= len(plan); s++ {
				if !slotFree(s) {
					continue
				}
				if kind == "orphan-known-id" && !slices.ContainsFunc(seqIdx(s), intactTool) {
					continue
				}
				cands = append(cands, s)
			}
		default:
			for i := range plan {
				if !free(i) {
					continue
				}
				g := plan[i].tool.groups
				ok := true
				switch kind {
				case "twice":
					ok = len(g) >= 2 || slices.Contains(plan[i].tool.anthropic, true)
				case "dup":
					ok = slices.ContainsFunc(seqIdx(i), intactTool)
				case "dup-same":
					ok = len(plan[i].tool.anthropic) >= 2
				case "move":
					// The result moves behind the next unit, which stays
					// intact; the slot after the call must not get an
					// orphan of its own.
					ok = i+1 < len(plan) && (plan[i+1].defect == "" || plan[i+1].kind != "tool") &&
						!slices.ContainsFunc(ins, func(x insertion) bool { return x.slot == i+1 })
				}
				if ok && !slices.ContainsFunc(ins, func(x insertion) bool { return x.slot == i+1 }) {
					cands = append(cands, i)
				}
			}
		}
		if len(cands) == 0 {
			if d < o.defects[0] && kind != "orphan" {
				d-- // slot 0 is free unless an orphan is there already
				kinds = []string{"orphan"}
			}
			continue
		}
		at := rapid.SampledFrom(cands).Draw(t, "defect at")
		switch kind {
		case "orphan":
			ins = append(ins, insertion{slot: at, defect: kind})
		case "orphan-known-id":
			var known []int
			for i := range at {
				if intactTool(i) {
					known = append(known, i)
				}
			}
			k := rapid.SampledFrom(known).Draw(t, "answers the id of")
			plan[k].reserved = true
			ins = append(ins, insertion{slot: at, defect: kind, known: k})
		default:
			plan[at].defect = kind
			switch kind {
			case "dup":
				var src []int
				for i := range at {
					if intactTool(i) {
						src = append(src, i)
					}
				}
				plan[at].dupOf = rapid.SampledFrom(src).Draw(t, "duplicates an id of")
				plan[plan[at].dupOf].reserved = true
			case "move":
				plan[at+1].reserved = true
			}
		}
	}
	slices.SortStableFunc(ins, func(a, b insertion) int { return a.slot - b.slot })
	return plan, ins
}

// ---------------------------------------------------------------------------
// Emission

type emitter struct {
	t      *rapid.T
	o      genOpts
	h      history
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
	at := len(e.h.msgs)
	seq := -1
	if e.o.marked {
		seq = e.o.base + at
	}
	m := finish(e.t, role, content, extra, seq, false)
	m.Class, m.IDs = class, ids
	e.h.msgs = append(e.h.msgs, m)
	return at
}

func (e *emitter) unit(start, end int) {
	for i := start; i < end; i++ {
		e.h.msgs[i].Unit = [2]int{start, end}
	}
	e.h.units = append(e.h.units, [2]int{start, end})
}

func (e *emitter) broken(defect string, codes []string, idx, named []int) {
	sure := len(codes) == 1 && !slices.Contains(ambiguousDefects, defect)
	if named == nil {
		named = idx
	}
	e.h.broken = append(e.h.broken, structure{defect: defect, codes: codes, sure: sure, idx: idx, named: named})
}

func (e *emitter) plain(kind string) {
	t := e.t
	if e.o.templates != nil {
		k := rapid.OneOf(rapid.Just(0), rapid.IntRange(0, len(e.o.templates)-1)).Draw(t, "template of")
		at := len(e.h.msgs)
		e.h.msgs = append(e.h.msgs, e.o.templates[k])
		e.unit(at, at+1)
		return
	}
	var (
		role    string
		content *jv
		extra   []jmember
		class   string
	)
	set := func(v jv) { content = &v }
	switch kind {
	case "system":
		role, content, extra = systemParts(t)
		class = clsSystem
	case "prompt":
		role, class = "user", clsUserPrompt
		switch rapid.SampledFrom([]string{"text", "text", "text", "text", "blocks", "blocks", "image", "no-content", "odd", "lone-result"}).Draw(t, "prompt shape") {
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
		role, class = "assistant", clsAssistantText
		switch rapid.SampledFrom([]string{"text", "text", "text", "blocks", "blocks", "null", "no-content", "odd", "empty-calls"}).Draw(t, "assistant shape") {
		case "text":
			set(drawStr(t, "content"))
		case "blocks":
			set(textBlocks(t, 0, 3))
		case "null":
			set(jnull())
			if rapid.Bool().Draw(t, "refusal") {
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
		role = rapid.SampledFrom([]string{"function", "critic", "ipython", "observation", "mémoire"}).Draw(t, "other role")
		class = clsOther
		set(drawStr(t, "content"))
	}
	at := e.add(role, content, extra, class, nil)
	e.unit(at, at+1)
}

// call emits the tool call of ids (anthropic[i] says which are tool_use
// blocks).
func (e *emitter) call(ids []string, anthropic []bool) int {
	t := e.t
	var content *jv
	var extra []jmember
	set := func(v jv) { content = &v }
	calls := jarr()
	blocks := jarr()
	if !e.o.silent && rapid.IntRange(0, 2).Draw(t, "text before the calls") == 0 {
		blocks.elems = append(blocks.elems, textBlock(t))
	}
	for i, id := range ids {
		if anthropic[i] {
			blocks.elems = append(blocks.elems, jobj(
				mem("type", jstr("tool_use")),
				mem("id", jstr(id)),
				mem("name", jstr(rapid.SampledFrom([]string{"get_weather", "read_file", "bash"}).Draw(t, "tool"))),
				mem("input", jobj(mem("query", drawStr(t, "input")))),
			))
			if !e.o.silent && rapid.IntRange(0, 5).Draw(t, "text between the calls") == 0 {
				blocks.elems = append(blocks.elems, textBlock(t))
			}
		} else {
			calls.elems = append(calls.elems, functionCall(t, id))
		}
	}
	if slices.Contains(anthropic, true) {
		set(blocks)
	} else {
		switch rapid.IntRange(0, 3).Draw(t, "tool-call content") {
		case 0:
			// absent
		case 1:
			if e.o.silent {
				set(jstr(rapid.SampledFrom([]string{"", " ", "\n"}).Draw(t, "blank content")))
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
	return e.add("assistant", content, extra, clsToolCall, ids)
}

// result emits one result message answering ids: an OpenAI tool message
// (one id) or an Anthropic user message of tool_result blocks.
func (e *emitter) result(ids []string, anthropic bool) int {
	t := e.t
	if !anthropic {
		c := toolContent(t)
		return e.add("tool", &c, []jmember{mem("tool_call_id", jstr(ids[0]))}, clsToolResult, ids)
	}
	blocks := jarr()
	for _, id := range ids {
		b := jobj(mem("type", jstr("tool_result")), mem("tool_use_id", jstr(id)))
		if rapid.Bool().Draw(t, "result as blocks") {
			b.mems = append(b.mems, mem("content", textBlocks(t, 0, 2)))
		} else {
			b.mems = append(b.mems, mem("content", drawStr(t, "result")))
		}
		if rapid.IntRange(0, 3).Draw(t, "is_error") == 0 {
			b.mems = append(b.mems, mem("is_error", jbool(rapid.Bool().Draw(t, "error"))))
		}
		blocks.elems = append(blocks.elems, b)
	}
	if rapid.IntRange(0, 5).Draw(t, "text beside the results") == 0 {
		// Text beside tool results does not change the class (D-20).
		at := rapid.IntRange(0, len(blocks.elems)).Draw(t, "text at")
		blocks.elems = slices.Insert(blocks.elems, at, textBlock(t))
	}
	return e.add("user", &blocks, nil, clsToolResult, ids)
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
		drop(rapid.IntRange(0, len(ids)-1).Draw(t, "dropped result"))
	case "dup":
		src := e.ids[it.dupOf]
		ids[rapid.IntRange(0, len(ids)-1).Draw(t, "duplicated call")] = rapid.SampledFrom(src).Draw(t, "duplicated id")
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
			at := rapid.IntRange(slices.Index(groups[i], c)+1, len(groups[i])).Draw(t, "again at")
			groups[i] = slices.Insert(groups[i], at, c)
		default:
			i, _ := strconv.Atoi(strings.TrimPrefix(how, "message "))
			c := rapid.SampledFrom(groups[i]).Draw(t, "answered again")
			groups = slices.Insert(groups, i+1, []int{c})
		}
	case "move":
		g := rapid.IntRange(0, len(groups)-1).Draw(t, "moved result")
		moved = &pending{anthropic: format(groups[g])}
		for _, c := range groups[g] {
			moved.ids = append(moved.ids, ids[c])
		}
		groups = slices.Delete(groups, g, g+1)
	case "orphan-in-run":
		extraG = rapid.IntRange(0, len(groups)-1).Draw(t, "stranger at")
		fresh = e.newID(false)
	}
	start := e.call(ids, s.anthropic)
	for i, g := range groups {
		if i == extraG {
			a := rapid.Bool().Draw(t, "stranger format")
			e.result([]string{fresh}, a)
		}
		answer := make([]string, len(g))
		for k, c := range g {
			answer[k] = ids[c]
		}
		e.result(answer, format(g))
	}
	end := len(e.h.msgs)
	all := rangeIdx(start, end)
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
	for _, u := range e.h.units {
		if slices.Equal(e.h.msgs[u[0]].IDs, ids) {
			return rangeIdx(u[0], u[1])
		}
	}
	return nil
}

func (e *emitter) orphan(x insertion) {
	t := e.t
	anthropic := rapid.Bool().Draw(t, "orphan format")
	var ids []string
	named := []int(nil)
	switch x.defect {
	case "orphan-known-id":
		ids = []string{rapid.SampledFrom(e.ids[x.known]).Draw(t, "known id")}
		named = e.unitOf(x.known)
	default:
		ids = []string{e.newID(anthropic)}
		if anthropic && rapid.IntRange(0, 3).Draw(t, "two orphans in one message") == 0 {
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

func emit(t *rapid.T, plan []item, ins []insertion, o genOpts) history {
	e := &emitter{t: t, o: o, ids: map[int][]string{}, nextID: o.idBase}
	e.salt = rapid.SampledFrom([]string{"", "0", "Ab", "é", "😀", "x-"}).Draw(t, "id salt")
	e.h.msgs = []msg{}
	e.h.units = [][2]int{}
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
	slices.SortStableFunc(e.h.broken, func(a, b structure) int { return a.idx[0] - b.idx[0] })
	return e.h
}

// conversationGen generates a well-formed conversation of exactly n
// messages, each with its position as marker: agent conversations in both
// formats, with parallel calls, results in any order, long tool-free
// stretches, multi-block content and unicode.
func conversationGen(n int) *rapid.Generator[[]msg] {
	return rapid.Custom(func(t *rapid.T) []msg {
		o := genOpts{n: n, exact: true, marked: true, tools: -1}
		return emit(t, drawPlan(t, o), nil, o).msgs
	})
}

// historyGen generates a conversation of at least o.n messages with the
// defects o allows.
func historyGen(o genOpts) *rapid.Generator[history] {
	return rapid.Custom(func(t *rapid.T) history {
		o := o
		plan := drawPlan(t, o)
		plan, ins := drawDefects(t, plan, o)
		return emit(t, plan, ins, o)
	})
}

// identicalConversationGen generates n messages without markers, each a
// copy of one of one to three plain templates (mostly the first) or a
// message of a tool-call unit, so that only their position tells the
// copies apart.
func identicalConversationGen(n int) *rapid.Generator[identical] {
	return rapid.Custom(func(t *rapid.T) identical {
		k := rapid.IntRange(1, 3).Draw(t, "templates")
		var c identical
		for range k {
			c.templates = append(c.templates, msgGen(-1, msgOpts{}).Draw(t, "template"))
		}
		o := genOpts{n: n, exact: true, tools: rapid.SampledFrom([]int{0, 1}).Draw(t, "tools"), templates: c.templates}
		c.msgs = emit(t, drawPlan(t, o), nil, o).msgs
		return c
	})
}

type identical struct {
	templates []msg
	msgs      []msg
}

func (c identical) messages() []msg { return c.msgs }

// of is the template message k copies, -1 for a message of a tool unit.
func (c identical) of(k int) int {
	for i, m := range c.templates {
		if string(m.Raw) == string(c.msgs[k].Raw) {
			return i
		}
	}
	return -1
}

func (c identical) GoString() string {
	var b strings.Builder
	for i, m := range c.templates {
		fmt.Fprintf(&b, "template %c: %s\n", 'A'+i, m.Raw)
	}
	b.WriteString("messages: ")
	for k := range c.msgs {
		b.WriteByte(c.letter(k))
	}
	return b.String()
}

// letter is the template letter of message k, '*' for a tool unit's.
func (c identical) letter(k int) byte {
	if t := c.of(k); t >= 0 {
		return byte('A' + t)
	}
	return '*'
}
