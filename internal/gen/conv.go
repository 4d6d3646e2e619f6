package gen

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
	"strings"

	"pgregory.net/rapid"
)

// Classes of CLS-1.
const (
	ClassSystem        = "system"
	ClassUserPrompt    = "user_prompt"
	ClassAssistantText = "assistant_text"
	ClassToolCall      = "tool_call"
	ClassToolResult    = "tool_result"
	clsOther           = "other"
)

// Codes of the malformed structures of UNIT-2.
const (
	codeOrphan     = "orphan_tool_result"
	codeUnanswered = "unanswered_tool_call"
	codeDuplicate  = "duplicate_tool_call_id"
	codeTwice      = "tool_call_answered_twice"
)

var StructureCodes = []string{codeOrphan, codeUnanswered, codeDuplicate, codeTwice}

// IsAssistant: only assistant messages end a run of user prompts (PRUNE-2).
func IsAssistant(class string) bool { return class == ClassAssistantText || class == ClassToolCall }

// History is a generated conversation and what the generator knows of it.
type History struct {
	Msgs []Message
	// Units are the well-formed units (UNIT-1), in order. In a well-formed
	// conversation they cover every message; otherwise the messages of the
	// broken structures are in none.
	Units [][2]int
	// Broken are the injected malformed structures, in order of their
	// first message.
	Broken []structure
}

// structure is one malformed tool structure (UNIT-2).
type structure struct {
	// Defect is what was done to a well-formed conversation.
	Defect string
	// Codes are the codes UNIT-2 may give it: one, unless the spec leaves
	// the choice open (sure is false then).
	Codes []string
	sure  bool
	// Idx are the input positions of its messages: what build drops
	// (BUILD-2) when sure.
	Idx []int
	// Named are the positions an error message about it may name.
	Named []int
}

func (h History) GoString() string {
	var b strings.Builder
	for i, m := range h.Msgs {
		fmt.Fprintf(&b, "%d %s %s\n", i, m.Class, m.Raw)
	}
	fmt.Fprintf(&b, "units %v", h.Units)
	for _, s := range h.Broken {
		fmt.Fprintf(&b, "\nbroken %s %v at %v", s.Defect, s.Codes, s.Idx)
	}
	return b.String()
}

func (h History) wellFormed() bool { return len(h.Broken) == 0 }

// UnitStart reports whether position i starts a well-formed unit.
func (h History) UnitStart(i int) bool { return h.Msgs[i].Unit[0] == i }

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

// HistoryOpts says what a conversation may hold.
type HistoryOpts struct {
	// exact: exactly n messages, else at least n.
	N     int
	Exact bool
	// Marked gives every message its position as marker (x_seq).
	Marked bool
	// Tools is the weight of tool units: 0 never, else drawn per
	// conversation when -1.
	Tools int
	// Runs makes orphaned prompt runs likely: prompts after prompts,
	// separated by system messages and other roles, at the start and
	// the end (PRUNE-1, PRUNE-2).
	Runs bool
	// Defects is how many defects to inject: at least defects[0], at
	// most defects[1].
	Defects [2]int
	// Ambiguous allows defects whose code or extent the spec leaves open.
	Ambiguous bool
	// plainTemplates, when set, makes every message that is not part of a
	// tool unit a copy of one of these (no marker).
	templates []Message
	// Force makes every unit of this kind (tool, prompt, …).
	Force string
	// Silent leaves the text out of tool calls (SUM-6: only tool results
	// and calls, nothing to summarize).
	Silent bool
	// Formats are the provider formats tool units may take (nil: both,
	// and units mixing them; see providerFormats).
	Formats []string
	// Format, when set ("openai" or "anthropic"), makes every tool call
	// of that format: a trimmer may declare only one (ANY-10).
	Format string
	// Base is added to every marker and idBase to every tool id number,
	// so that conversations generated one after another can be joined.
	Base, IdBase int
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

// What a plan is drawn from, built once (shared.go).
var (
	toolWeights   = rapid.SampledFrom([]int{1, 2, 0, 3})
	parallelCalls = rapid.SampledFrom([]int{1, 1, 1, 2, 2, 3, 4, 5})
	groupings     = rapid.SampledFrom([]string{"one", "one", "each", "runs"})
	// toolFormats are the formats of a tool unit: "mixed" has calls of
	// both.
	toolFormats = newFormatChoices([]string{"openai", "anthropic", "openai", "anthropic", "mixed"}, func(f string) string { return f })
)

func drawPlan(t *rapid.T, o HistoryOpts) []item {
	tools := o.Tools
	if tools < 0 {
		tools = toolWeights.Draw(t, "tool weight")
	}
	runs := 0
	if o.Runs {
		runs = intRange(1, 4).Draw(t, "run weight")
	}
	var (
		// Every unit holds a message at least: at most o.N of them, and
		// a trailing run grows it only when it must.
		plan    = make([]item, 0, o.N)
		size    int
		prev    string
		stretch int // units left in a tool-free stretch
	)
	for size < o.N {
		left := o.N - size
		kind := followerGen(followKey{prev, tools, runs, stretch > 0}).Draw(t, "unit")
		if o.Force != "" {
			kind = o.Force
		}
		if stretch > 0 {
			stretch--
		} else if tools > 0 && intRange(0, 15).Draw(t, "tool-free stretch") == 0 {
			stretch = intRange(4, 30).Draw(t, "stretch length")
		}
		it := item{kind: kind}
		if kind == "tool" {
			limit := left
			if !o.Exact {
				limit = 1 << 20
			}
			spec, ok := drawToolSpec(t, limit, o.Format, o.Formats)
			if !ok {
				it.kind = "prompt"
			}
			it.tool = spec
		}
		plan = append(plan, it)
		size += itemSize(it)
		prev = it.kind
	}
	if !o.Exact && runs > 0 && anyBool.Draw(t, "end with a run") {
		for range intRange(1, 3).Draw(t, "trailing prompts") {
			if intRange(0, 3).Draw(t, "system inside the run") == 0 {
				plan = append(plan, item{kind: "system"})
			}
			plan = append(plan, item{kind: "prompt"})
		}
	}
	return plan
}

// followKey is what the kinds of unit that may come next depend on: the
// kind of the unit before, the weights of tool units and of prompt runs,
// and whether a tool-free stretch is under way.
type followKey struct {
	prev        string
	tools, runs int
	inStretch   bool
}

// followers lists the kinds of unit that may follow k.prev, each as many
// times as its weight: markov's list with tool units weighted by k.tools
// (none in a tool-free stretch) and prompts after prompts, system messages
// and other roles by k.runs.
func followers(k followKey) []string {
	var kinds []string
	for _, next := range markov[k.prev] {
		switch {
		case next == "tool" && (k.tools == 0 || k.inStretch):
			continue
		case next == "tool":
			for range k.tools {
				kinds = append(kinds, next)
			}
			continue
		case next == "prompt" && (k.prev == "prompt" || k.prev == "" || k.prev == "system" || k.prev == "other"):
			for range k.runs {
				kinds = append(kinds, next)
			}
		}
		kinds = append(kinds, next)
	}
	if k.runs > 0 && k.prev == "prompt" {
		kinds = append(kinds, "system", "other")
	}
	return kinds
}

// followerGens holds rapid.SampledFrom(followers(k)) for every k drawPlan
// meets with the weights it draws (tools up to 3, runs up to 4), built
// once (shared.go) and only read after: a plan draws one per unit.
var followerGens = func() map[followKey]*rapid.Generator[string] {
	gens := map[followKey]*rapid.Generator[string]{}
	for prev := range markov {
		for tools := range 4 {
			for runs := range 5 {
				for _, in := range []bool{false, true} {
					k := followKey{prev, tools, runs, in}
					gens[k] = rapid.SampledFrom(followers(k))
				}
			}
		}
	}
	return gens
}()

// followerGen draws the kind of the unit that follows k.prev.
func followerGen(k followKey) *rapid.Generator[string] {
	if g, ok := followerGens[k]; ok {
		return g
	}
	return rapid.SampledFrom(followers(k))
}

func itemSize(it item) int {
	if it.kind == "tool" {
		return it.tool.size()
	}
	return 1
}

// drawToolSpec draws a tool call of 1 to 5 parallel calls whose unit holds
// at most limit messages; ok is false when limit is below 2.
func drawToolSpec(t *rapid.T, limit int, only string, formats []string) (toolSpec, bool) {
	if limit < 2 {
		return toolSpec{}, false
	}
	choices := toolFormats
	drop := func(f string) bool { return !slices.Contains(formats, f) && (f != "mixed" || len(formats) < 2) }
	if formats != nil && slices.ContainsFunc(choices.all, drop) {
		choices.all = slices.DeleteFunc(slices.Clone(choices.all), drop)
		if len(choices.all) == 0 {
			return toolSpec{}, false
		}
		choices.every = rapid.SampledFrom(choices.all)
	}
	// The formats the target declared (D-42) narrow the choice further.
	format, ok := choices.draw(t, "format")
	if !ok {
		return toolSpec{}, false
	}
	if only != "" {
		format = only
	}
	n := parallelCalls.Draw(t, "parallel calls")
	if format == "mixed" && n < 2 {
		format = "openai"
	}
	var s toolSpec
	perm := func(k int) []int { return rapid.Permutation(Indices(k)).Draw(t, "result order") }
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
		k := intRange(1, n-1).Draw(t, "openai calls")
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
	how := groupings.Draw(t, "grouping")
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
		k := intRange(1, len(ids)).Draw(t, "run of results")
		if len(out) == limit-1 {
			k = len(ids)
		}
		out = append(out, ids[:k])
		ids = ids[k:]
	}
	return out
}
