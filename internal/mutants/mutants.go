// Package mutants is the catalogue of faulty variants of the reference:
// each one a realistic bug, seen in or easy to make in real trimming code.
// The suite must reject every one, naming one of the clauses the bug breaks;
// `conform serve -mutant NAME` serves one over the wire.
package mutants

import (
	"context"
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// Mutant is one faulty variant.
type Mutant struct {
	Name string
	// Bug says, for people, what the variant gets wrong.
	Bug string
	// Clauses are the spec clauses the bug breaks; the suite must report a
	// failure tagged with at least one of them.
	Clauses []string
	// Engine serves the variant.
	Engine server.Engine
}

// All lists the catalogue, sorted by name.
func All() []Mutant {
	ms := []Mutant{
		{
			Name:    "cap-off-by-one",
			Bug:     "keeps max − h − t + 1 middle messages, one over the cap",
			Clauses: []string{"WIN-4", "WIN-6"},
			Engine:  planMutant(func(c window.Config, units []message.Unit) window.Plan { return shiftKeep(c.Plan(units), 1) }),
		},
		{
			Name:    "trims-at-cap",
			Bug:     "trims when n == max (`n < max` for the no-op test), warning about a conversation that needs no trim",
			Clauses: []string{"WIN-1", "WIN-8"},
			Engine:  planMutant(trimAtCapPlan),
		},
		{
			Name:    "head-tail-overlap",
			Bug:     "takes the tail as the last t messages even when they overlap the head, so messages appear twice",
			Clauses: []string{"WIN-2", "WIN-5"},
			Engine:  trimMutant(overlappingTrim),
		},
		{
			Name:    "evict-newest-middle",
			Bug:     "keeps the oldest middle messages and evicts the most recent ones",
			Clauses: []string{"WIN-4"},
			Engine:  trimMutant(newestEvictedTrim),
		},
		{
			Name:    "tail-zero-keeps-all",
			Bug:     "takes the tail with slice(-t), which for t = 0 is the whole conversation",
			Clauses: []string{"WIN-2"},
			Engine:  trimMutant(sliceMinusZeroTrim),
		},
		{
			Name:    "defaults-not-applied",
			Bug:     "leaves omitted config members at zero instead of 100 / false / 1 / 20",
			Clauses: []string{"CFG-1"},
			Engine:  configMutant(zeroDefaults),
		},
		{
			Name:    "zero-max-trims",
			Bug:     "treats max_messages 0 as a cap of zero instead of disabling trimming",
			Clauses: []string{"CFG-5"},
			Engine:  trimMutant(zeroMaxTrim),
		},
		{
			Name:    "negative-accepted",
			Bug:     "clamps negative counts to 0 instead of refusing them",
			Clauses: []string{"CFG-3"},
			Engine:  configMutant(clampNegatives),
		},
		{
			Name:    "unknown-config-ignored",
			Bug:     "ignores unknown config members, so a typo silently falls back to a default",
			Clauses: []string{"CFG-4"},
			Engine:  configMutant(ignoreUnknown),
		},
		{
			Name:    "no-trim-warning",
			Bug:     "never warns preserve_exceeds_max on a trim (only at creation)",
			Clauses: []string{"WIN-3"},
			Engine:  resultMutant(withoutWarnings),
		},
		{
			Name:    "metrics-input-tokens",
			Bug:     "reports estimatedTokens of the input instead of what is kept",
			Clauses: []string{"MET-1"},
			Engine:  resultMutant(inputTokenMetrics),
		},
		{
			Name:    "rewrites-messages",
			Bug:     "rebuilds kept messages from role and content, dropping every other member",
			Clauses: []string{"MSG-2"},
			Engine:  resultMutant(rewritingTrim),
		},
		{
			Name:    "estimate-bytes",
			Bug:     "counts UTF-8 bytes instead of UTF-16 code units (Go's len)",
			Clauses: []string{"EST-2", "EST-3"},
			Engine:  estimateMutant(bytesEstimate),
		},
		{
			Name:    "estimate-floor",
			Bug:     "rounds the estimate down (integer division) instead of up",
			Clauses: []string{"EST-1"},
			Engine:  estimateMutant(floorEstimate),
		},
		{
			Name:    "estimate-per-message",
			Bug:     "rounds up per message and sums, instead of dividing the total once",
			Clauses: []string{"EST-1"},
			Engine:  estimateMutant(perMessageEstimate),
		},
		{
			Name:    "estimate-counts-role",
			Bug:     "counts the role as well as the content",
			Clauses: []string{"EST-5"},
			Engine:  estimateMutant(roleCountingEstimate),
		},
		{
			Name:    "estimate-null-is-four",
			Bug:     "counts null content as JSON.stringify(null), 4 characters",
			Clauses: []string{"EST-4"},
			Engine:  estimateMutant(nullCountingEstimate),
		},
		{
			Name:    "estimate-go-json",
			Bug:     "serializes content with Go's encoding/json (sorted keys, <>& escaped) instead of JSON.stringify",
			Clauses: []string{"EST-3"},
			Engine:  estimateMutant(goJSONEstimate),
		},
		{
			Name:    "window-splits-head-unit",
			Bug:     "ends the preserved head after preserve_first_n messages even inside a tool-call unit",
			Clauses: []string{"WIN-9", "UNIT-3"},
			Engine:  planMutant(splitPlan("head")),
		},
		{
			Name:    "window-splits-tail-unit",
			Bug:     "starts the preserved tail preserve_last_n messages from the end even inside a tool-call unit, orphaning tool results",
			Clauses: []string{"WIN-9", "UNIT-3"},
			Engine:  planMutant(splitPlan("tail")),
		},
		{
			Name:    "window-splits-middle-unit",
			Bug:     "keeps exactly max − h − t middle messages even when that cuts a tool-call unit",
			Clauses: []string{"WIN-9", "UNIT-3"},
			Engine:  planMutant(splitPlan("middle")),
		},
		{
			Name:    "window-accepts-broken-tools",
			Bug:     "trims a conversation with an orphaned tool result or an unanswered call instead of refusing it",
			Clauses: []string{"UNIT-2"},
			Engine:  trimMutant(uncheckedTrim),
		},
		{
			Name:    "prune-tool-result-as-prompt",
			Bug:     "treats an Anthropic user message of tool_result blocks as a user prompt, pruning it and orphaning its call",
			Clauses: []string{"CLS-1", "PRUNE-2"},
			Engine:  engine{prune: pruneWith(func(m message.Message) bool { return m.Role() == "user" }, message.Message.IsAssistant, false)},
		},
		{
			Name:    "prune-keeps-first",
			Bug:     "keeps the first user prompt of a run instead of the last",
			Clauses: []string{"PRUNE-1"},
			Engine:  engine{prune: pruneWith(isPrompt, message.Message.IsAssistant, true)},
		},
		{
			Name:    "prune-tool-result-breaks-run",
			Bug:     "lets a tool result end a run of user prompts, so orphaned prompts before it survive",
			Clauses: []string{"PRUNE-2"},
			Engine: engine{prune: pruneWith(isPrompt, func(m message.Message) bool {
				return m.IsAssistant() || m.Class() == message.ToolResult
			}, false)},
		},
		{
			Name:    "prune-drops-between",
			Bug:     "drops everything between the members of a run (system messages, tool results), not only the orphaned prompts",
			Clauses: []string{"PRUNE-3"},
			Engine:  engine{prune: pruneDroppingBetween},
		},
		{
			Name:    "build-dangling-call",
			Bug:     "does not repair stored history, so an unanswered tool call or orphaned result is sent on",
			Clauses: []string{"BUILD-2"},
			Engine: engine{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				return history.Result{Messages: history.Window(pruned, max)}, nil
			}},
		},
		{
			Name:    "build-prunes-after-window",
			Bug:     "applies the window before pruning, wasting the budget on orphaned prompts",
			Clauses: []string{"BUILD-1"},
			Engine: engine{build: func(msgs []message.Message, max int) (history.Result, error) {
				sane, warnings := history.Sanitize(msgs)
				pruned, _ := history.Prune(history.Window(sane, max))
				return history.Result{Messages: pruned, Warnings: warnings}, nil
			}},
		},
		{
			Name:    "build-ignores-exchanges",
			Bug:     "starts the window at any message boundary instead of at a user prompt, so the model sees a reply without its question",
			Clauses: []string{"BUILD-3"},
			Engine:  engine{build: buildFromAnyUnit},
		},
		{Name: "summary-counter-never-resets", Bug: "keeps counting after a summary, so every later trim summarizes again", Clauses: []string{"SUM-5"}, Engine: summarizingMutant(neverResets)},
		{Name: "summary-counter-resets-on-failure", Bug: "forgets the pending messages when the summarizer fails, so they are never summarized", Clauses: []string{"SUM-7", "SUM-4"}, Engine: summarizingMutant(resetsOnFailure)},
		{Name: "summary-not-counted", Bug: "inserts the summary without giving up a middle place, one over the cap", Clauses: []string{"SUM-3"}, Engine: summarizingMutant(summaryNotCounted)},
		{Name: "summary-error-as-text", Bug: "inserts the summarizer's error text as the summary", Clauses: []string{"SUM-7"}, Engine: summarizingMutant(errorAsSummary)},
		{Name: "summary-every-trim", Bug: "summarizes on every trim that evicts, ignoring the rate limit", Clauses: []string{"SUM-5"}, Engine: summarizingMutant(summarizesEveryTrim)},
		{Name: "summary-prefix-missing", Bug: "leaves out the [Conversation Summary] prefix", Clauses: []string{"SUM-2"}, Engine: summarizingMutant(prefixMissing)},
		{Name: "summary-covers-only-this-trim", Bug: "summarizes only this trim's evicted messages, silently dropping the ones evicted before", Clauses: []string{"SUM-4"}, Engine: summarizingMutant(coversOnlyThisTrim)},
		{Name: "summary-of-tool-results", Bug: "calls the summarizer for evictions that hold only tool results", Clauses: []string{"SUM-6"}, Engine: summarizingMutant(summarizesToolResults)},
		{Name: "summary-max-tokens-4096", Bug: "calls the summarizer with max_tokens 4096 instead of 1024", Clauses: []string{"SUM-1"}, Engine: summarizingMutant(wrongMaxTokens)},
		{Name: "summary-after-tail", Bug: "appends the summary after the tail instead of after the head", Clauses: []string{"SUM-2"}, Engine: summarizingMutant(summaryAfterTail)},
	}
	ms = append(ms, budgetMutants()...)
	ms = append(ms, loopMutants()...)
	ms = append(ms, PropertyMutants()...)
	ms = append(ms, clauseMutants()...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return ms
}

// Lookup finds a mutant by name.
func Lookup(name string) (Mutant, bool) {
	for _, m := range All() {
		if m.Name == name {
			return m, true
		}
	}
	return Mutant{}, false
}

// engine is the reference with some behaviour replaced.
type engine struct {
	server.Reference
	parse    func(json.RawMessage) (window.Config, error)
	trim     func(window.Config, []message.Message) (window.Result, error)
	estimate func([]message.Message) int
	prune    func([]message.Message) ([]message.Message, []int)
	build    func([]message.Message, int) (history.Result, error)
	window   func(window.Config) server.Window
}

func (e engine) Name() string { return "convspec-mutant" }

func (e engine) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	if e.window != nil {
		cfg, err := window.ParseConfig(config)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		return e.window(cfg), cfg, cfg.Warnings(), nil
	}
	if e.parse == nil && e.trim == nil {
		return e.Reference.NewWindow(config)
	}
	parse := e.parse
	if parse == nil {
		parse = func(raw json.RawMessage) (window.Config, error) { return window.ParseConfig(raw) }
	}
	cfg, err := parse(config)
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	trim := e.trim
	if trim == nil {
		trim = referenceTrim
	}
	return trimmer{cfg: cfg, trim: trim}, cfg, cfg.Warnings(), nil
}

func (e engine) Prune(msgs []message.Message) ([]message.Message, []int) {
	if e.prune != nil {
		return e.prune(msgs)
	}
	return e.Reference.Prune(msgs)
}

func (e engine) Build(msgs []message.Message, max int) (history.Result, error) {
	if e.build != nil {
		return e.build(msgs, max)
	}
	return e.Reference.Build(msgs, max)
}

func (e engine) EstimateTokens(msgs []message.Message) int {
	if e.estimate != nil {
		return e.estimate(msgs)
	}
	return e.Reference.EstimateTokens(msgs)
}

type trimmer struct {
	cfg  window.Config
	trim func(window.Config, []message.Message) (window.Result, error)
}

func (t trimmer) TrimWith(_ context.Context, msgs []message.Message, _ window.Summarizer) (window.Result, error) {
	return t.trim(t.cfg, msgs)
}

func referenceTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	w, _ := window.New(c)
	return w.Trim(msgs)
}

func trimMutant(f func(window.Config, []message.Message) (window.Result, error)) server.Engine {
	return engine{trim: f}
}

// resultMutant changes what the reference's trim returns.
func resultMutant(f func(window.Config, []message.Message, window.Result) window.Result) server.Engine {
	return trimMutant(func(c window.Config, msgs []message.Message) (window.Result, error) {
		res, err := referenceTrim(c, msgs)
		if err != nil {
			return res, err
		}
		return f(c, msgs, res), nil
	})
}

func configMutant(f func(json.RawMessage) (window.Config, error)) server.Engine {
	return engine{parse: f}
}

func estimateMutant(f func([]message.Message) int) server.Engine {
	return engine{estimate: f}
}

// planMutant trims along a faulty plan over the conversation's units.
func planMutant(plan func(window.Config, []message.Unit) window.Plan) server.Engine {
	return trimMutant(func(c window.Config, msgs []message.Message) (window.Result, error) {
		units, err := message.Units(msgs)
		if err != nil {
			return window.Result{}, err
		}
		w, _ := window.New(c)
		return w.Apply(plan(c, units), msgs), nil
	})
}

// countPlan is the plan of the count-based algorithm, blind to units.
func countPlan(c window.Config, units []message.Unit) window.Plan {
	n := 0
	if len(units) > 0 {
		n = units[len(units)-1].End
	}
	singles := make([]message.Unit, n)
	for i := range singles {
		singles[i] = message.Unit{Start: i, End: i + 1}
	}
	return c.Plan(singles)
}

// splitPlan is the reference plan with one cut moved back to where the
// count-based algorithm puts it, inside a unit.
func splitPlan(edge string) func(window.Config, []message.Unit) window.Plan {
	return func(c window.Config, units []message.Unit) window.Plan {
		good, naive := c.Plan(units), countPlan(c, units)
		if good.HeadOnly || naive.HeadOnly {
			return good
		}
		switch edge {
		case "head":
			good.HeadEnd = min(naive.HeadEnd, good.KeepFrom)
		case "tail":
			good.TailStart = naive.TailStart
			good.KeepFrom = max(good.HeadEnd, min(good.KeepFrom, naive.KeepFrom))
		case "middle":
			good.KeepFrom = max(good.HeadEnd, min(naive.KeepFrom, good.TailStart))
		}
		return good
	}
}

func withMetrics(res window.Result, n int) window.Result {
	res.Metrics = window.Metrics{
		TotalMessages:     n,
		PreservedMessages: len(res.Trimmed),
		EvictedMessages:   len(res.Evicted),
		EstimatedTokens:   window.EstimateTokens(res.Trimmed),
	}
	return res
}

// trimAtCapPlan runs the trimming path for n == max too: it evicts nothing
// there, but warns when head and tail fill the cap.
func trimAtCapPlan(c window.Config, units []message.Unit) window.Plan {
	n := 0
	if len(units) > 0 {
		n = units[len(units)-1].End
	}
	if n != c.MaxMessages || n == 0 {
		return c.Plan(units)
	}
	head := min(c.PreserveFirstN, n)
	tailStart := n - min(c.PreserveLastN, n-head)
	headOnly := c.PreserveExceedsMax()
	keep := tailStart - head
	if headOnly {
		keep = 0
	}
	return window.Plan{N: n, HeadEnd: head, KeepFrom: tailStart - keep, TailStart: tailStart, HeadOnly: headOnly}
}

func shiftKeep(p window.Plan, extra int) window.Plan {
	if p.HeadOnly {
		return p
	}
	if p.Evicted() >= extra {
		p.KeepFrom -= extra
	}
	return p
}

// sliceTrim is the textbook array-slicing trim with the given tail slice.
func sliceTrim(c window.Config, msgs []message.Message, tailOf func(int) []message.Message) (window.Result, error) {
	n := len(msgs)
	if c.MaxMessages == 0 || n <= c.MaxMessages {
		return withMetrics(window.Result{Trimmed: append([]message.Message{}, msgs...), Evicted: []message.Message{}}, n), nil
	}
	head := msgs[:min(c.PreserveFirstN, n)]
	tail := tailOf(c.PreserveLastN)
	middleEnd := max(len(head), n-len(tail))
	middle := msgs[len(head):middleEnd]
	keep := max(0, c.MaxMessages-c.PreserveFirstN-c.PreserveLastN)
	keep = min(keep, len(middle))
	res := window.Result{Evicted: append([]message.Message{}, middle[:len(middle)-keep]...)}
	res.Trimmed = append(append(append([]message.Message{}, head...), middle[len(middle)-keep:]...), tail...)
	if c.PreserveExceedsMax() {
		res.Warnings = c.Warnings()
	}
	return withMetrics(res, n), nil
}

func overlappingTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	return sliceTrim(c, msgs, func(t int) []message.Message { return msgs[len(msgs)-min(t, len(msgs)):] })
}

func sliceMinusZeroTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	return sliceTrim(c, msgs, func(t int) []message.Message {
		if t == 0 {
			return msgs // JavaScript's msgs.slice(-0)
		}
		return msgs[len(msgs)-min(t, len(msgs)-min(c.PreserveFirstN, len(msgs))):]
	})
}

func newestEvictedTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return window.Result{}, err
	}
	p := c.Plan(units)
	if p.Evicted() == 0 {
		return referenceTrim(c, msgs)
	}
	kept := p.TailStart - p.KeepFrom
	res := window.Result{}
	res.Trimmed = append(append(append([]message.Message{}, msgs[:p.HeadEnd]...), msgs[p.HeadEnd:p.HeadEnd+kept]...), msgs[p.TailStart:]...)
	res.Evicted = append([]message.Message{}, msgs[p.HeadEnd+kept:p.TailStart]...)
	if p.HeadOnly {
		res.Warnings = c.Warnings()
	}
	return withMetrics(res, len(msgs)), nil
}

func zeroMaxTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	if c.MaxMessages != 0 {
		return referenceTrim(c, msgs)
	}
	c.MaxMessages = 1 // as if 0 were a tiny cap
	w, _ := window.New(c)
	return w.Trim(msgs)
}

func withoutWarnings(_ window.Config, _ []message.Message, res window.Result) window.Result {
	res.Warnings = nil
	return res
}

func inputTokenMetrics(_ window.Config, msgs []message.Message, res window.Result) window.Result {
	res.Metrics.EstimatedTokens = window.EstimateTokens(msgs)
	return res
}

func rewritingTrim(_ window.Config, _ []message.Message, res window.Result) window.Result {
	for i, m := range res.Trimmed {
		var content any
		_ = json.Unmarshal(m.Content(), &content)
		if rebuilt, err := message.New(m.Role(), content); err == nil {
			res.Trimmed[i] = rebuilt
		}
	}
	return res
}

func zeroDefaults(raw json.RawMessage) (window.Config, error) {
	var c window.Config
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &c); err != nil {
			return window.Config{}, &window.ConfigError{Reason: err.Error()}
		}
	}
	return c, c.Validate()
}

func clampNegatives(raw json.RawMessage) (window.Config, error) {
	cfg, err := window.ParseConfig(raw)
	if err == nil {
		return cfg, nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for k, v := range m {
			if f, ok := v.(float64); ok && f < 0 {
				m[k] = 0
			}
		}
		fixed, _ := json.Marshal(m)
		return window.ParseConfig(fixed)
	}
	return cfg, err
}

func ignoreUnknown(raw json.RawMessage) (window.Config, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil {
		for k := range m {
			switch k {
			case "max_messages", "summarize_on_trim", "preserve_first_n", "preserve_last_n":
			default:
				delete(m, k)
			}
		}
		raw, _ = json.Marshal(m)
	}
	return window.ParseConfig(raw)
}

// contentChars applies a faulty character count per message.
func totalChars(msgs []message.Message, chars func(message.Message) int) int {
	n := 0
	for _, m := range msgs {
		n += chars(m)
	}
	return n
}

func bytesEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		c := m.Content()
		if len(c) == 0 || string(c) == "null" {
			return 0
		}
		var s string
		if json.Unmarshal(c, &s) == nil {
			return len(s)
		}
		ser, _ := message.Compact(c)
		return len(ser)
	}) + 3) / 4
}

func floorEstimate(msgs []message.Message) int {
	return totalChars(msgs, message.Message.ContentLength) / 4
}

func perMessageEstimate(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		n += (m.ContentLength() + 3) / 4
	}
	return n
}

func roleCountingEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int { return m.ContentLength() + utf8.RuneCountInString(m.Role()) }) + 3) / 4
}

func nullCountingEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		if string(m.Content()) == "null" {
			return 4
		}
		return m.ContentLength()
	}) + 3) / 4
}

func goJSONEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		c := m.Content()
		var v any
		if len(c) == 0 || json.Unmarshal(c, &v) != nil || v == nil {
			return 0
		}
		if s, ok := v.(string); ok {
			return message.Length(s)
		}
		b, _ := json.Marshal(v)
		return message.Length(string(b))
	}) + 3) / 4
}

// uncheckedTrim is the count-based trim without the structure check.
func uncheckedTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	w, _ := window.New(c)
	return w.Apply(countPlan(c, []message.Unit{{Start: 0, End: len(msgs)}}), msgs), nil
}

func isPrompt(m message.Message) bool { return m.Class() == message.UserPrompt }

// pruneWith is pruning with a faulty notion of prompt or of what ends a run.
func pruneWith(prompt, ends func(message.Message) bool, keepFirst bool) func([]message.Message) ([]message.Message, []int) {
	return func(msgs []message.Message) ([]message.Message, []int) {
		var removed []int
		var run []int
		flush := func() {
			if len(run) > 1 {
				if keepFirst {
					removed = append(removed, run[1:]...)
				} else {
					removed = append(removed, run[:len(run)-1]...)
				}
			}
			run = nil
		}
		for i, m := range msgs {
			switch {
			case prompt(m):
				run = append(run, i)
			case ends(m):
				flush()
			}
		}
		flush()
		sort.Ints(removed)
		return without(msgs, removed), removed
	}
}

func pruneDroppingBetween(msgs []message.Message) ([]message.Message, []int) {
	_, removed := history.Prune(msgs)
	drop := append([]int(nil), removed...)
	for _, r := range removed {
		for j := r + 1; j < len(msgs) && msgs[j].Class() != message.UserPrompt && !msgs[j].IsAssistant(); j++ {
			drop = append(drop, j)
		}
	}
	sort.Ints(drop)
	return without(msgs, drop), removed
}

func without(msgs []message.Message, drop []int) []message.Message {
	gone := map[int]bool{}
	for _, i := range drop {
		gone[i] = true
	}
	out := []message.Message{}
	for i, m := range msgs {
		if !gone[i] {
			out = append(out, m)
		}
	}
	return out
}

func buildFromAnyUnit(msgs []message.Message, max int) (history.Result, error) {
	sane, warnings := history.Sanitize(msgs)
	pruned, _ := history.Prune(sane)
	sys := 0
	for sys < len(pruned) && pruned[sys].Class() == message.System {
		sys++
	}
	rest := pruned[sys:]
	start := 0
	if max > 0 && len(rest) > max {
		units, _ := message.Structure(rest)
		start = units[len(units)-1].Start
		for _, u := range units {
			if len(rest)-u.Start <= max {
				start = u.Start
				break
			}
		}
	}
	return history.Result{Messages: append(append([]message.Message{}, pruned[:sys]...), rest[start:]...), Warnings: warnings}, nil
}
