package mutants

// Faulty variants of the capability window: configuration (CFG-*),
// trimming (WIN-*) and metrics (MET-*).

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// parsedWith creates reference windows from a faulty reading of the
// config.
type parsedWith struct {
	server.Reference
	parse func(json.RawMessage) (window.Config, error)
}

func (parsedWith) Name() string { return "convspec-mutant" }

func (p parsedWith) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	return server.NewWindowFrom(p.parse(config))
}

// nullAsZero reads the config as `"name" in config ? Number(config[name])
// : default` would: a null count is 0, a null boolean false.
func nullAsZero(raw json.RawMessage) (window.Config, error) {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) == nil && m != nil {
		for k, v := range m {
			if string(v) != "null" {
				continue
			}
			if k == "summarize_on_trim" {
				m[k] = json.RawMessage("false")
			} else {
				m[k] = json.RawMessage("0")
			}
		}
		raw, _ = json.Marshal(m)
	}
	return window.ParseConfig(raw)
}

// createMutant changes the warnings of window.create only.
type createMutant struct {
	server.Reference
	warnings func(window.Config, []window.Warning) []window.Warning
}

func (createMutant) Name() string { return "convspec-mutant" }

func (c createMutant) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	w, cfg, warnings, err := c.Reference.NewWindow(config)
	if err != nil {
		return w, cfg, warnings, err
	}
	return w, cfg, c.warnings(cfg, warnings), nil
}

// resumingWindow assumes every trim is given the whole history so far:
// the messages its earlier trims evicted are taken to be still there,
// right after the head, and are skipped before planning.
type resumingWindow struct {
	cfg window.Config
	ref *window.Window

	mu   sync.Mutex
	gone int
}

func newResumingWindow(c window.Config) *resumingWindow {
	w, _ := window.New(c)
	return &resumingWindow{cfg: c, ref: w}
}

func (r *resumingWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return window.Result{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	headEnd := len(msgs)
	for _, u := range units {
		if u.Start >= min(r.cfg.PreserveFirstN, len(msgs)) {
			headEnd = u.Start
			break
		}
	}
	skipEnd := headEnd
	for _, u := range units {
		if u.Start == skipEnd && skipEnd-headEnd < r.gone {
			skipEnd = u.End
		}
	}
	live := slices.Concat(msgs[:headEnd], msgs[skipEnd:])
	res, err := r.ref.TrimWith(ctx, live, s)
	if err != nil {
		return res, err
	}
	r.gone += len(res.Evicted)
	res.Evicted = slices.Concat(msgs[headEnd:skipEnd], res.Evicted)
	res.Metrics.TotalMessages = len(msgs)
	res.Metrics.EvictedMessages = len(res.Evicted)
	return res, nil
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

// windowCatalogue is the catalogue's variants of capability window: its
// configuration, plan, trim, metrics and warnings.
func windowCatalogue() []Mutant {
	return []Mutant{
		variant("cap-off-by-one", "keeps max − h − t + 1 middle messages, one over the cap", planMutant(func(c window.Config, units []message.Unit) window.Plan { return shiftKeep(c.Plan(units), 1) }), "WIN-4", "WIN-6"),
		variant("config-null-is-zero", "reads a member that is present but null as 0 (JavaScript's Number(null)), so null max_messages disables trimming", parsedWith{parse: nullAsZero}, "CFG-2"),
		variant("create-no-warning", "warns preserve_exceeds_max only when a trim takes the head-and-tail path, never at creation", createMutant{warnings: func(window.Config, []window.Warning) []window.Warning { return nil }}, "CFG-6"),
		{Name: "create-warning-strict", Clauses: []string{"CFG-6"},
			Bug: "warns preserve_exceeds_max at creation only when head and tail exceed the cap (>), not when they fill it",
			Engine: createMutant{warnings: func(c window.Config, ws []window.Warning) []window.Warning {
				if c.PreserveFirstN+c.PreserveLastN == c.MaxMessages {
					return nil
				}
				return ws
			}}},
		variant("defaults-not-applied", "leaves omitted config members at zero instead of 100 / false / 1 / 20", configMutant(zeroDefaults), "CFG-1"),
		variant("evict-newest-middle", "keeps the oldest middle messages and evicts the most recent ones", trimMutant(newestEvictedTrim), "WIN-4"),
		variant("head-tail-overlap", "takes the tail as the last t messages even when they overlap the head, so messages appear twice", trimMutant(overlappingTrim), "WIN-2", "WIN-5"),
		variant("metrics-input-tokens", "reports estimatedTokens of the input instead of what is kept", resultMutant(inputTokenMetrics), "MET-1"),
		{
			Name:    "metrics-only-when-trimmed",
			Bug:     "returns early when nothing needs trimming, with zero metrics",
			Clauses: []string{"MET-2"},
			Engine: engine{window: func(c window.Config) server.Window {
				w, _ := window.New(c)
				return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
					res, err := w.TrimWith(ctx, msgs, s)
					if err == nil && (c.MaxMessages == 0 || len(msgs) <= c.MaxMessages) {
						res.Metrics = window.Metrics{} // the early return
					}
					return res, err
				})
			}},
		},
		variant("negative-accepted", "clamps negative counts to 0 instead of refusing them", configMutant(clampNegatives), "CFG-3"),
		variant("no-trim-warning", "never warns preserve_exceeds_max on a trim (only at creation)", resultMutant(withoutWarnings), "WIN-3"),
		variant("rewrites-messages", "rebuilds kept messages from role and content, dropping every other member", resultMutant(rewritingTrim), "MSG-2"),
		variant("tail-zero-keeps-all", "takes the tail with slice(-t), which for t = 0 is the whole conversation", trimMutant(sliceMinusZeroTrim), "WIN-2"),
		variant("trims-at-cap", "trims when n == max (`n < max` for the no-op test), warning about a conversation that needs no trim", planMutant(trimAtCapPlan), "WIN-1", "WIN-8"),
		variant("unknown-config-ignored", "ignores unknown config members, so a typo silently falls back to a default", configMutant(ignoreUnknown), "CFG-4"),
		variant("window-resumes-at-last-cut", "remembers how many messages its trims evicted and skips that many after the head on the next trim, as if every call passed the full, growing history", engine{window: func(c window.Config) server.Window { return newResumingWindow(c) }}, "WIN-7"),
		variant("window-splits-head-unit", "ends the preserved head after preserve_first_n messages even inside a tool-call unit", planMutant(splitPlan("head")), "WIN-9", "UNIT-3"),
		variant("window-splits-middle-unit", "keeps exactly max − h − t middle messages even when that cuts a tool-call unit", planMutant(splitPlan("middle")), "WIN-9", "UNIT-3"),
		variant("window-splits-tail-unit", "starts the preserved tail preserve_last_n messages from the end even inside a tool-call unit, orphaning tool results", planMutant(splitPlan("tail")), "WIN-9", "UNIT-3"),
		variant("zero-max-trims", "treats max_messages 0 as a cap of zero instead of disabling trimming", trimMutant(zeroMaxTrim), "CFG-5"),
	}
}
