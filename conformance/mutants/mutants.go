// Package mutants is the catalogue of faulty variants of the reference:
// each one a realistic bug, seen in or easy to make in real trimming code.
// The suite must reject every one, naming one of the clauses the bug breaks;
// `conform serve -mutant NAME` serves one over the wire.
package mutants

import (
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/convspec/convspec/conformance/server"
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
			Engine:  planMutant(func(c window.Config, n int) window.Plan { return shiftKeep(c.Plan(n), 1) }),
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
			Engine:  trimMutant(withoutWarnings),
		},
		{
			Name:    "metrics-input-tokens",
			Bug:     "reports estimatedTokens of the input instead of what is kept",
			Clauses: []string{"MET-1"},
			Engine:  trimMutant(inputTokenMetrics),
		},
		{
			Name:    "rewrites-messages",
			Bug:     "rebuilds kept messages from role and content, dropping every other member",
			Clauses: []string{"MSG-2"},
			Engine:  trimMutant(rewritingTrim),
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
	}
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
	trim     func(window.Config, []message.Message) window.Result
	estimate func([]message.Message) int
}

func (e engine) Name() string { return "convspec-mutant" }

func (e engine) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
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

func (e engine) EstimateTokens(msgs []message.Message) int {
	if e.estimate != nil {
		return e.estimate(msgs)
	}
	return e.Reference.EstimateTokens(msgs)
}

type trimmer struct {
	cfg  window.Config
	trim func(window.Config, []message.Message) window.Result
}

func (t trimmer) Trim(msgs []message.Message) window.Result { return t.trim(t.cfg, msgs) }

func referenceTrim(c window.Config, msgs []message.Message) window.Result {
	w, _ := window.New(c)
	return w.Trim(msgs)
}

func trimMutant(f func(window.Config, []message.Message) window.Result) server.Engine {
	return engine{trim: f}
}

func configMutant(f func(json.RawMessage) (window.Config, error)) server.Engine {
	return engine{parse: f}
}

func estimateMutant(f func([]message.Message) int) server.Engine {
	return engine{estimate: f}
}

// planMutant trims along a faulty plan.
func planMutant(plan func(window.Config, int) window.Plan) server.Engine {
	return trimMutant(func(c window.Config, msgs []message.Message) window.Result {
		return applyPlan(c, plan(c, len(msgs)), msgs)
	})
}

// applyPlan builds a result from a plan without the reference's checks.
func applyPlan(c window.Config, p window.Plan, msgs []message.Message) window.Result {
	res := window.Result{Trimmed: []message.Message{}, Evicted: []message.Message{}}
	res.Trimmed = append(res.Trimmed, msgs[:p.HeadEnd]...)
	res.Evicted = append(res.Evicted, msgs[p.HeadEnd:p.KeepFrom]...)
	res.Trimmed = append(res.Trimmed, msgs[p.KeepFrom:]...)
	if p.HeadOnly {
		res.Warnings = c.Warnings()
	}
	return withMetrics(res, len(msgs))
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
func trimAtCapPlan(c window.Config, n int) window.Plan {
	if n != c.MaxMessages || n == 0 {
		return c.Plan(n)
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
	if p.Evicted() >= extra {
		p.KeepFrom -= extra
	}
	return p
}

// sliceTrim is the textbook array-slicing trim with the given tail slice.
func sliceTrim(c window.Config, msgs []message.Message, tailOf func(int) []message.Message) window.Result {
	n := len(msgs)
	if c.MaxMessages == 0 || n <= c.MaxMessages {
		return withMetrics(window.Result{Trimmed: append([]message.Message{}, msgs...), Evicted: []message.Message{}}, n)
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
	return withMetrics(res, n)
}

func overlappingTrim(c window.Config, msgs []message.Message) window.Result {
	return sliceTrim(c, msgs, func(t int) []message.Message { return msgs[len(msgs)-min(t, len(msgs)):] })
}

func sliceMinusZeroTrim(c window.Config, msgs []message.Message) window.Result {
	return sliceTrim(c, msgs, func(t int) []message.Message {
		if t == 0 {
			return msgs // JavaScript's msgs.slice(-0)
		}
		return msgs[len(msgs)-min(t, len(msgs)-min(c.PreserveFirstN, len(msgs))):]
	})
}

func newestEvictedTrim(c window.Config, msgs []message.Message) window.Result {
	p := c.Plan(len(msgs))
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
	return withMetrics(res, len(msgs))
}

func zeroMaxTrim(c window.Config, msgs []message.Message) window.Result {
	if c.MaxMessages != 0 {
		return referenceTrim(c, msgs)
	}
	c.MaxMessages = 1 // as if 0 were a tiny cap
	return applyPlan(c, window.Plan{N: len(msgs), HeadEnd: min(c.PreserveFirstN, len(msgs)), KeepFrom: len(msgs) - min(c.PreserveLastN, len(msgs)-min(c.PreserveFirstN, len(msgs))), HeadOnly: true}, msgs)
}

func withoutWarnings(c window.Config, msgs []message.Message) window.Result {
	res := referenceTrim(c, msgs)
	res.Warnings = nil
	return res
}

func inputTokenMetrics(c window.Config, msgs []message.Message) window.Result {
	res := referenceTrim(c, msgs)
	res.Metrics.EstimatedTokens = window.EstimateTokens(msgs)
	return res
}

func rewritingTrim(c window.Config, msgs []message.Message) window.Result {
	res := referenceTrim(c, msgs)
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
