package mutants

// Faulty variants for the clauses no other variant breaks, so that every
// clause of the spec has at least one realistic bug the suite must reject
// (issue 8, item 3). Each is a bug someone writing that part would make.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
	"github.com/convspec/convspec/reference/window"
)

func clauseMutants() []Mutant {
	return []Mutant{
		{
			Name:    "message-role-enum",
			Bug:     "validates role against system/user/assistant/tool, refusing developer and every other role",
			Clauses: []string{"MSG-1"},
			Engine:  strictMessages{check: knownRolesOnly},
		},
		{
			Name:    "tool-call-schema",
			Bug:     "validates tool members against the providers' full schemas, refusing a call without function or name, or a result without content",
			Clauses: []string{"CLS-2"},
			Engine:  strictMessages{check: fullToolSchema},
		},
		{
			Name:    "config-null-is-zero",
			Bug:     "reads a member that is present but null as 0 (JavaScript's Number(null)), so null max_messages disables trimming",
			Clauses: []string{"CFG-2"},
			Engine:  parsedWith{parse: nullAsZero},
		},
		{
			Name:    "create-warning-strict",
			Bug:     "warns preserve_exceeds_max at creation only when head and tail exceed the cap (>), not when they fill it",
			Clauses: []string{"CFG-6"},
			Engine: createMutant{warnings: func(c window.Config, ws []window.Warning) []window.Warning {
				if c.PreserveFirstN+c.PreserveLastN == c.MaxMessages {
					return nil
				}
				return ws
			}},
		},
		{
			Name:    "create-no-warning",
			Bug:     "warns preserve_exceeds_max only when a trim takes the head-and-tail path, never at creation",
			Clauses: []string{"CFG-6"},
			Engine:  createMutant{warnings: func(window.Config, []window.Warning) []window.Warning { return nil }},
		},
		{
			Name:    "window-resumes-at-last-cut",
			Bug:     "remembers how many messages its trims evicted and skips that many after the head on the next trim, as if every call passed the full, growing history",
			Clauses: []string{"WIN-7"},
			Engine:  engine{window: func(c window.Config) server.Window { return newResumingWindow(c) }},
		},
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
		{
			Name:    "summary-ignores-flag",
			Bug:     "summarizes whenever the trim is given a summarizer, ignoring summarize_on_trim: false",
			Clauses: []string{"SUM-8"},
			Engine:  engine{window: func(c window.Config) server.Window { return newFlagBlindWindow(c) }},
		},
		{
			Name:    "summary-pending-without-summarizer",
			Bug:     "adds a trim's evicted messages to the pending list even when no summarizer was given, so a later trim summarizes them",
			Clauses: []string{"SUM-8"},
			Engine: engine{window: func(c window.Config) server.Window {
				return pendingAlways{&faultySummarizer{cfg: c}}
			}},
		},
		{
			Name:    "build-counts-units",
			Bug:     "measures max_messages in units, a tool call and its results counting as one, so the output holds more messages than the bound",
			Clauses: []string{"BUILD-4"},
			Engine: engine{build: func(msgs []message.Message, max int) (history.Result, error) {
				return buildWith(msgs, max, unitCountStart)
			}},
		},
		{
			Name:    "build-drops-oversized-unit",
			Bug:     "keeps only what fits, so when the last unit alone is longer than max_messages only the system prompt is sent",
			Clauses: []string{"BUILD-4"},
			Engine: engine{build: func(msgs []message.Message, max int) (history.Result, error) {
				return buildWith(msgs, max, fitOnlyStart)
			}},
		},
		{
			Name:    "build-prunes-before-repair",
			Bug:     "prunes before repairing, so dropping a broken tool call leaves two user prompts adjacent",
			Clauses: []string{"BUILD-5", "BUILD-1"},
			Engine: engine{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				sane, warnings := history.Sanitize(pruned)
				return history.Result{Messages: history.Window(sane, max), Warnings: warnings}, nil
			}},
		},
		{
			Name:    "tokens-special-text",
			Bug:     "encodes with tiktoken's encode(allowed_special=\"all\"), so the text <|endoftext|> becomes the special token 100257",
			Clauses: []string{"TOK-1"},
			Engine:  tokenMutant{encode: encodeWithSpecials},
		},
		{
			Name:    "budget-claude-100k",
			Bug:     "gives claude-3.5-sonnet Claude 2's limit of 100,000 tokens instead of 200,000",
			Clauses: []string{"LIM-1"},
			Engine: budgetMutant{limits: func(extra map[string]int) (budget.Limits, error) {
				l, err := budget.NewLimits(extra)
				if err != nil {
					return nil, err
				}
				if _, set := extra["claude-3.5-sonnet"]; !set {
					l["claude-3.5-sonnet"] = 100_000
				}
				return l, nil
			}},
		},
		{
			Name:    "budget-prune-do-while",
			Bug:     "removes a unit before testing the count (a do-while loop), so a conversation already below the target loses one",
			Clauses: []string{"PRN-3"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				kept, removed, err := budget.Prune(msgs, limit, percent)
				if err != nil || len(removed) > 0 {
					return kept, removed, err
				}
				units, err := message.Units(msgs)
				if err != nil || len(units) < 3 {
					return kept, removed, err
				}
				var gone []int
				for i := units[1].Start; i < units[1].End; i++ {
					gone = append(gone, i)
				}
				return dropIndexes(msgs, gone), gone, nil
			}},
		},
		{
			Name:    "budget-prune-empty-ok",
			Bug:     "has no guard for an empty conversation and returns an empty list",
			Clauses: []string{"PRN-4"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				if len(msgs) == 0 {
					return []message.Message{}, nil, nil
				}
				return budget.Prune(msgs, limit, percent)
			}},
		},
		{
			Name:    "compress-keeps-last-message",
			Bug:     "keeps the last message instead of the last user prompt, so a conversation ending in a tool result keeps the result",
			Clauses: []string{"CMP-1"},
			Engine:  compressMutant{compress: lastMessageCompress},
		},
		{
			Name:    "compress-invents-summary",
			Bug:     "catches a failing summaryFn and compresses with a placeholder summary instead of failing",
			Clauses: []string{"CMP-2"},
			Engine: compressMutant{compress: func(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
				return budget.Compress(ctx, msgs, placeholderOnFailure{s})
			}},
		},
		{
			Name:    "budget-prepares-at-80",
			Bug:     "prepares with >= 80%: a conversation at exactly 80% is pruned and warned about",
			Clauses: []string{"PREP-1"},
			Engine: budgetMutant{prepare: func(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
				limit, err := limits.Of(model)
				if err != nil {
					return nil, nil, err
				}
				if count := budget.Count(msgs); 100*count == budget.WarnPercent*limit {
					kept, _, err := budget.Prune(msgs, limit, budget.WarnPercent)
					if err != nil {
						return nil, nil, err
					}
					return kept, []budget.Event{{Name: budget.EventApproaching, TokenCount: count, Limit: limit}}, nil
				}
				return budget.Prepare(ctx, msgs, model, limits, s)
			}},
		},
		{
			Name:    "budget-prune-gives-up",
			Bug:     "stops pruning after 100 units (a guard against an endless loop), so a long conversation stays above the target",
			Clauses: []string{"PREP-5"},
			Engine: budgetMutant{prune: func(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
				return cappedPrune(msgs, limit, percent, 100)
			}},
		},
		{
			Name:    "config-requires-execution",
			Bug:     "reads execution.max_conversation_messages without checking that execution exists, failing on a file without it",
			Clauses: []string{"CONF-2"},
			Engine: loopMutant{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil {
					return res, err
				}
				if doc := parseDoc(text); doc == nil || doc["execution"] == nil {
					return config.Resolved{}, errors.New("TypeError: cannot read properties of undefined (reading 'max_conversation_messages')")
				}
				return res, nil
			}},
		},
		{
			Name:    "config-strict-host-keys",
			Bug:     "decodes the whole file with unknown fields refused, so the host's own keys fail",
			Clauses: []string{"CONF-5"},
			Engine: loopMutant{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil {
					return res, err
				}
				if path := hostKey(parseDoc(text)); path != "" {
					return config.Resolved{}, &config.Error{Path: path, Reason: "field not found in type Config"}
				}
				return res, nil
			}},
		},
		{
			Name:    "config-json-duplicates-last",
			Bug:     "reads JSON config files with a plain JSON parser, which silently keeps the last of a key given twice",
			Clauses: []string{"CONF-6"},
			Engine: loopMutant{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				var ce *config.Error
				if f != config.JSON || !errors.As(err, &ce) || ce.Reason != "is given twice" {
					return res, err
				}
				dec := json.NewDecoder(bytes.NewReader(text))
				dec.UseNumber()
				var v any
				if dec.Decode(&v) != nil {
					return res, err
				}
				last, _ := json.Marshal(v) // encoding/json kept the last value of each name
				return config.Resolve(last, f)
			}},
		},
		{
			Name:    "handshake-without-name",
			Bug:     "takes its name from build metadata that is not set, so the handshake names no implementation",
			Clauses: []string{"PROTO-1"},
			Engine:  namelessEngine{},
		},
		{
			Name:    "config-type-panics",
			Bug:     "reads counts with an unchecked type assertion, so a string where a count belongs panics and is answered internal_error",
			Clauses: []string{"PROTO-2", "CFG-3"},
			Engine:  parsedWith{parse: assertingParse},
		},
	}
}

// strictMessages validates messages beyond MSG-1 and CLS-2 before the
// window, history.classify and history.build see them.
type strictMessages struct {
	server.Reference
	check func([]message.Message) error
}

func (strictMessages) Name() string { return "convspec-mutant" }

func (s strictMessages) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	w, cfg, warnings, err := s.Reference.NewWindow(config)
	if err != nil {
		return nil, cfg, nil, err
	}
	return trimmerFunc(func(ctx context.Context, msgs []message.Message, sm window.Summarizer) (window.Result, error) {
		if err := s.check(msgs); err != nil {
			return window.Result{}, err
		}
		return w.TrimWith(ctx, msgs, sm)
	}), cfg, warnings, nil
}

func (s strictMessages) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	if err := s.check(msgs); err != nil {
		return nil, nil, err
	}
	return s.Reference.Classify(msgs)
}

func (s strictMessages) Build(msgs []message.Message, max int) (history.Result, error) {
	if err := s.check(msgs); err != nil {
		return history.Result{}, err
	}
	return s.Reference.Build(msgs, max)
}

func knownRolesOnly(msgs []message.Message) error {
	for i, m := range msgs {
		switch m.Role() {
		case "system", "user", "assistant", "tool":
		default:
			return &message.Error{Index: i, Reason: fmt.Sprintf(`"role" must be one of system, user, assistant, tool, got %q`, m.Role())}
		}
	}
	return nil
}

// fullToolSchema asks of every tool member what the providers' SDK types
// declare: an OpenAI call has type "function" and a function with name
// and arguments; a tool_use block a name and an input; a tool_result
// block and a tool message content.
func fullToolSchema(msgs []message.Message) error {
	for i, m := range msgs {
		var v struct {
			ToolCalls []struct {
				Type     string `json:"type"`
				Function *struct {
					Name      *string `json:"name"`
					Arguments *string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
			Content json.RawMessage `json:"content"`
		}
		_ = json.Unmarshal(m.Raw(), &v)
		fail := func(what string) error { return &message.Error{Index: i, Reason: what + " is required"} }
		for j, c := range v.ToolCalls {
			if c.Type != "function" || c.Function == nil || c.Function.Name == nil || c.Function.Arguments == nil {
				return fail(fmt.Sprintf("tool_calls[%d].function.name/arguments", j))
			}
		}
		if m.Role() == "tool" && len(v.Content) == 0 {
			return fail("content")
		}
		var blocks []map[string]json.RawMessage
		if json.Unmarshal(v.Content, &blocks) != nil {
			continue
		}
		for j, b := range blocks {
			switch string(b["type"]) {
			case `"tool_use"`:
				if b["name"] == nil || b["input"] == nil {
					return fail(fmt.Sprintf("content[%d].name/input", j))
				}
			case `"tool_result"`:
				if b["content"] == nil {
					return fail(fmt.Sprintf("content[%d].content", j))
				}
			}
		}
	}
	return nil
}

// parsedWith creates reference windows from a faulty reading of the
// config.
type parsedWith struct {
	server.Reference
	parse func(json.RawMessage) (window.Config, error)
}

func (parsedWith) Name() string { return "convspec-mutant" }

func (p parsedWith) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	cfg, err := p.parse(config)
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	w, err := window.New(cfg)
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	return w, cfg, cfg.Warnings(), nil
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

// assertingParse reads every count with an unchecked type assertion
// before validating, as `int(m["max_messages"].(float64))` would.
func assertingParse(raw json.RawMessage) (window.Config, error) {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"max_messages", "preserve_first_n", "preserve_last_n"} {
			if v, ok := m[k]; ok && v != nil {
				_ = int(v.(float64)) // panics on a string, a boolean, an array
			}
		}
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

// flagBlindWindow summarizes whenever it is given a summarizer.
type flagBlindWindow struct{ plain, summarizing *window.Window }

func newFlagBlindWindow(c window.Config) flagBlindWindow {
	plain, _ := window.New(c)
	c.SummarizeOnTrim = true
	summarizing, _ := window.New(c)
	return flagBlindWindow{plain, summarizing}
}

func (f flagBlindWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	if s != nil {
		return f.summarizing.TrimWith(ctx, msgs, s)
	}
	return f.plain.TrimWith(ctx, msgs, nil)
}

// pendingAlways records a plain trim's evictions as pending too.
type pendingAlways struct{ *faultySummarizer }

func (p pendingAlways) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	res, err := p.faultySummarizer.TrimWith(ctx, msgs, s)
	if err == nil && s == nil && p.cfg.SummarizeOnTrim {
		p.mu.Lock()
		p.pending = append(p.pending, res.Evicted...)
		p.mu.Unlock()
	}
	return res, err
}

// buildWith is the reference's build with another choice of where the
// kept conversation starts.
func buildWith(msgs []message.Message, max int, start func(rest []message.Message, max int) int) (history.Result, error) {
	if max < 0 {
		return history.Build(msgs, max)
	}
	sane, warnings := history.Sanitize(msgs)
	pruned, _ := history.Prune(sane)
	sys := 0
	for sys < len(pruned) && pruned[sys].Class() == message.System {
		sys++
	}
	rest := pruned[sys:]
	out := append(slices.Clone(pruned[:sys]), rest[start(rest, max):]...)
	return history.Result{Messages: out, Warnings: warnings}, nil
}

// unitCountStart applies BUILD-3 counting units instead of messages.
func unitCountStart(rest []message.Message, max int) int {
	units, _ := message.Structure(rest)
	if max == 0 || len(units) <= max {
		return 0
	}
	for j, u := range units {
		if len(units)-j <= max && rest[u.Start].Class() == message.UserPrompt {
			return u.Start
		}
	}
	return units[len(units)-max].Start
}

// fitOnlyStart applies BUILD-3's first two rules and, when nothing fits,
// keeps nothing.
func fitOnlyStart(rest []message.Message, max int) int {
	n := len(rest)
	if max == 0 || n <= max {
		return 0
	}
	units, _ := message.Structure(rest)
	for _, u := range units {
		if n-u.Start <= max && rest[u.Start].Class() == message.UserPrompt {
			return u.Start
		}
	}
	for _, u := range units {
		if n-u.Start <= max {
			return u.Start
		}
	}
	return n
}

// tokenMutant is the reference with tokens.encode replaced.
type tokenMutant struct {
	server.Reference
	encode func(string) []int
}

func (tokenMutant) Name() string { return "convspec-mutant" }

func (t tokenMutant) EncodeTokens(text string) []int { return t.encode(text) }

// cl100kSpecials are cl100k_base's special tokens.
var cl100kSpecials = map[string]int{
	"<|endoftext|>":   100257,
	"<|fim_prefix|>":  100258,
	"<|fim_middle|>":  100259,
	"<|fim_suffix|>":  100260,
	"<|endofprompt|>": 100276,
}

// encodeWithSpecials encodes the text between special-token texts as
// ordinary text and each special-token text as its special token.
func encodeWithSpecials(text string) []int {
	ids := []int{}
	for len(text) > 0 {
		at, which := len(text), ""
		for s := range cl100kSpecials {
			if i := strings.Index(text, s); i >= 0 && (i < at || i == at && s < which) {
				at, which = i, s
			}
		}
		ids = append(ids, tokens.Encode(text[:at])...)
		if which == "" {
			break
		}
		ids = append(ids, cl100kSpecials[which])
		text = text[at+len(which):]
	}
	return ids
}

// compressMutant is the reference with budget.compress replaced.
type compressMutant struct {
	server.Reference
	compress func(context.Context, []message.Message, budget.Summarizer) ([]message.Message, error)
}

func (compressMutant) Name() string { return "convspec-mutant" }

func (c compressMutant) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	return c.compress(ctx, msgs, s)
}

// lastMessageCompress is [system, summary, last message].
func lastMessageCompress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	rest := msgs
	var out []message.Message
	if len(rest) > 0 && rest[0].Class() == message.System {
		out, rest = append(out, rest[0]), rest[1:]
	}
	var last []message.Message
	if len(rest) > 0 {
		rest, last = rest[:len(rest)-1], rest[len(rest)-1:]
	}
	text, err := s.Summarize(ctx, slices.Clone(rest))
	if err != nil {
		return nil, err
	}
	summary, err := message.New("assistant", text)
	if err != nil {
		return nil, err
	}
	return slices.Concat(out, []message.Message{summary}, last), nil
}

// placeholderOnFailure answers for a failing summaryFn.
type placeholderOnFailure struct{ budget.Summarizer }

func (p placeholderOnFailure) Summarize(ctx context.Context, msgs []message.Message) (string, error) {
	text, err := p.Summarizer.Summarize(ctx, msgs)
	if err != nil {
		return "[Earlier conversation omitted: summary unavailable]", nil
	}
	return text, nil
}

// cappedPrune is the reference's prune giving up after maxUnits units.
func cappedPrune(msgs []message.Message, limit, percent, maxUnits int) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, limit, percent)
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	total := budget.Count(msgs)
	var removed []int
	for n, u := range units[min(1, len(units)):max(1, len(units)-1)] {
		if 100*total < percent*limit || n == maxUnits {
			break
		}
		for i := u.Start; i < u.End; i++ {
			total -= budget.MessageTokens(msgs[i])
			removed = append(removed, i)
		}
	}
	return dropIndexes(msgs, removed), removed, nil
}

// parseDoc reads a config file that config.Resolve accepted (YAML 1.2 is
// a superset of the JSON it accepts); nil for an empty document.
func parseDoc(text []byte) map[string]any {
	var doc map[string]any
	_ = yaml.Unmarshal(text, &doc)
	return doc
}

// hostKey is the first member of a config file that is not one of the two
// conversation settings, as a strict decoder would name it; "" if none.
func hostKey(doc map[string]any) string {
	var keys []string
	for k := range doc {
		if k != "execution" {
			keys = append(keys, k)
		}
	}
	if execution, ok := doc["execution"].(map[string]any); ok {
		for k := range execution {
			if k != "max_conversation_messages" && k != "conversation" {
				keys = append(keys, "execution."+k)
			}
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return slices.Min(keys)
}

// namelessEngine is the reference with an empty implementation name.
type namelessEngine struct{ server.Reference }

func (namelessEngine) Name() string { return "" }
