package mutants

// Outsider variants of the capability window.summarize (SUM-*): the
// summarizing trim, its rate limit and its prompt.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// sumQuirks are the summarizing variants' deviations from the reference.
type sumQuirks struct {
	dropPendingOnFailure bool // a failed summary forgets what waited
	everyInclusive       bool // summarizes only when more than SummaryEvery wait
	asciiMeaningful      bool // meaningful text: trimmed of ASCII space only
	asciiReply           bool // the reply: trimmed of ASCII space only
	toolUseNullInput     bool // renders a tool_use without input as null
	toolResultJSON       bool // renders a tool_result's block array as JSON
	summaryFirst         bool // inserts the summary before the preserved head
}

func outsiderSummarizeMutants() []Mutant {
	return []Mutant{
		{
			// summarize_on_trim, max 12: a trim evicting 11 messages with
			// the summarizer failing (rate limit), then a trim evicting 2
			// more with it answering: the second prompt covers all 13
			// messages; the variant's covers the 2 new ones only.
			Name: "outsider-sum-failure-forgets-pending", Bug: "clears the messages waiting for a summary when the summarizer fails, instead of keeping them for the next attempt",
			Clauses: []string{"SUM-7"},
			Engine:  outsiderSumEngine(sumQuirks{dropPendingOnFailure: true}),
		},
		{
			// summarize_on_trim: a trim covering exactly 10 messages
			// summarizes them; the variant waits for 11.
			Name: "outsider-sum-every-exclusive", Bug: "summarizes only when more than SUMMARY_EVERY messages wait, not at exactly 10",
			Clauses: []string{"SUM-5"},
			Engine:  outsiderSumEngine(sumQuirks{everyInclusive: true}),
		},
		{
			// summarize_on_trim, 10+ evicted messages whose only text is
			// "\u3000" (ideographic space) or "\u2028": no meaningful text,
			// skipped with summary_skipped_no_text; the variant calls the
			// summarizer.
			Name: "outsider-sum-ascii-blank-is-text", Bug: "decides whether evicted messages hold text by trimming ASCII white space only, so U+2028 or U+3000 alone counts as text",
			Clauses: []string{"SUM-6"},
			Engine:  outsiderSumEngine(sumQuirks{asciiMeaningful: true}),
		},
		{
			// window.summarize with the summarizer answering "\u00a0" (a
			// no-break space): an empty summary, an error; the variant
			// trims ASCII white space only and returns "\u00a0".
			Name: "outsider-sum-ascii-trim-reply", Bug: "trims only ASCII white space from the summarizer's reply, so a reply of U+00A0 or U+2028 is a summary",
			Clauses: []string{"SUM-1", "SUM-7"},
			Engine:  outsiderSumEngine(sumQuirks{asciiReply: true}),
		},
		{
			// window.summarize of [{"role":"assistant","content":[{"type":
			// "tool_use","id":"t","name":"ls"}]}, ...]: the prompt renders
			// the missing input as {}; the variant as null.
			Name: "outsider-sum-tool-use-input-null", Bug: "renders a tool_use block without input as tool_use NAME null in the prompt",
			Clauses: []string{"SUM-1"},
			Engine:  outsiderSumEngine(sumQuirks{toolUseNullInput: true}),
		},
		{
			// window.summarize of a user message [{"type":"tool_result",
			// "tool_use_id":"t","content":[{"type":"text","text":"ok"}]}]: the
			// prompt line is "tool_result t: ok"; the variant writes the
			// content array's JSON.
			Name: "outsider-sum-tool-result-blocks-as-json", Bug: "renders a tool_result block whose content is an array of blocks as the array's JSON",
			Clauses: []string{"SUM-1"},
			Engine:  outsiderSumEngine(sumQuirks{toolResultJSON: true}),
		},
		{
			// summarize_on_trim with a system message first: the summary
			// goes right after the preserved head, [system, summary, ...];
			// the variant puts it first.
			Name: "outsider-sum-summary-before-head", Bug: "inserts the summary message at the front of the trimmed conversation, before the preserved first messages",
			Clauses: []string{"SUM-2"},
			Engine:  outsiderSumEngine(sumQuirks{summaryFirst: true}),
		},
	}
}

func outsiderSumEngine(q sumQuirks) server.Engine {
	return replaced{
		newWindow: outsiderWindowOf(func(cfg window.Config, w *window.Window) server.Window {
			return &outsiderSumWindow{q: q, cfg: cfg, w: w}
		}),
		summarize: func(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
			return q.summarize(ctx, msgs, s)
		},
	}
}

// outsiderSumWindow is window.Window's summarizing trim, with quirks.
type outsiderSumWindow struct {
	q       sumQuirks
	cfg     window.Config
	w       *window.Window
	mu      sync.Mutex
	pending []message.Message
}

var errOutsiderEmpty = errors.New("the summarizer returned an empty summary")

func (q sumQuirks) summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	reply, err := s.Call(ctx, q.prompt(msgs), window.SummaryMaxTokens)
	if err != nil {
		return "", err
	}
	if q.asciiReply {
		reply = strings.Trim(reply, " \t\r\n")
	} else {
		reply = strings.TrimSpace(reply)
	}
	if reply == "" {
		return "", errOutsiderEmpty
	}
	return reply, nil
}

func (t *outsiderSumWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return window.Result{}, err
	}
	plain := t.cfg.Plan(units)
	if !t.cfg.SummarizeOnTrim || s == nil || plain.Evicted() == 0 {
		return t.w.Apply(plain, msgs), nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	roomy := t.cfg.PlanCap(units, t.cfg.MaxMessages-1)
	covered := slices.Concat(t.pending, msgs[roomy.HeadEnd:roomy.KeepFrom])
	if len(covered) < window.SummaryEvery || t.q.everyInclusive && len(covered) == window.SummaryEvery {
		res := t.w.Apply(plain, msgs)
		t.pending = append(t.pending, res.Evicted...)
		return res, nil
	}
	if !t.q.meaningful(covered) {
		res := t.w.Apply(plain, msgs)
		t.pending = nil
		res.Warnings = append(res.Warnings, window.Warning{Code: window.CodeSummarySkippedNoText,
			Message: fmt.Sprintf("the %d messages to summarize hold only tool results or no text: evicted without a summary", len(covered))})
		return res, nil
	}
	summary, err := t.q.summarize(ctx, covered, s)
	call := window.SummarizerCall{Prompt: t.q.prompt(covered), MaxTokens: window.SummaryMaxTokens}
	if err != nil {
		res := t.w.Apply(plain, msgs)
		res.SummarizerCalls = []window.SummarizerCall{call}
		if t.q.dropPendingOnFailure {
			t.pending = nil
		} else {
			t.pending = append(t.pending, res.Evicted...)
		}
		code := window.CodeSummaryFailed
		if errors.Is(err, errOutsiderEmpty) {
			code = window.CodeSummaryEmpty
		}
		res.Warnings = append(res.Warnings, window.Warning{Code: code,
			Message: fmt.Sprintf("summarization failed, evicted without a summary (%d messages wait for the next attempt): %v", len(t.pending), err)})
		return res, nil
	}
	res := t.w.Apply(roomy, msgs)
	res.SummarizerCalls = []window.SummarizerCall{call}
	sm := window.SummaryMessage(summary)
	res.Summary = &sm
	at := roomy.HeadEnd
	if t.q.summaryFirst {
		at = 0
	}
	res.Trimmed = slices.Insert(res.Trimmed, at, sm)
	res.Metrics.EstimatedTokens = window.EstimateTokens(res.Trimmed)
	t.pending = nil
	return res, nil
}

func (q sumQuirks) meaningful(msgs []message.Message) bool {
	if !q.asciiMeaningful {
		return window.HasMeaningfulText(msgs)
	}
	for _, m := range msgs {
		if m.Class() == message.ToolResult {
			continue
		}
		c := m.Content()
		var s string
		if json.Unmarshal(c, &s) == nil && strings.Trim(s, " \t\r\n") != "" {
			return true
		}
		var blocks []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if json.Unmarshal(c, &blocks) == nil {
			for _, b := range blocks {
				if b.Type == "text" && b.Text != nil && strings.Trim(*b.Text, " \t\r\n") != "" {
					return true
				}
			}
		}
	}
	return false
}

// prompt is window.Prompt, rendering the block shapes of the quirks.
func (q sumQuirks) prompt(msgs []message.Message) string {
	if !q.toolUseNullInput && !q.toolResultJSON {
		return window.Prompt(msgs)
	}
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = window.Render(q.rewrite(m))
	}
	return window.Instruction + "\n\n" + strings.Join(parts, "\n\n")
}

// rewrite gives the message the reference renders as the quirk would
// render m: a null input, or a tool_result's array replaced by its JSON
// text.
func (q sumQuirks) rewrite(m message.Message) message.Message {
	var members map[string]json.RawMessage
	if json.Unmarshal(m.Raw(), &members) != nil {
		return m
	}
	var blocks []map[string]json.RawMessage
	if json.Unmarshal(members["content"], &blocks) != nil {
		return m
	}
	changed := false
	for _, b := range blocks {
		var typ string
		_ = json.Unmarshal(b["type"], &typ)
		if q.toolUseNullInput && typ == "tool_use" {
			if _, ok := b["input"]; !ok {
				// rendered as "tool_use NAME null": a text block says so
				var name string
				_ = json.Unmarshal(b["name"], &name)
				for k := range b {
					delete(b, k)
				}
				b["type"] = json.RawMessage(`"text"`)
				text, _ := json.Marshal("tool_use " + name + " null")
				b["text"] = text
				changed = true
			}
		}
		if q.toolResultJSON && typ == "tool_result" && len(b["content"]) > 0 && b["content"][0] == '[' {
			s, _ := message.Compact(b["content"])
			text, _ := json.Marshal(s)
			b["content"] = text
			changed = true
		}
	}
	if !changed {
		return m
	}
	members["content"], _ = json.Marshal(blocks)
	raw, _ := json.Marshal(members)
	out, err := message.Parse(raw)
	if err != nil {
		return m
	}
	return out
}
