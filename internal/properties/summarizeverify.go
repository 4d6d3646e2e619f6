package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
)

// Comparing a trim with the model of summarizemodel.go, and naming the
// clause of the first difference.

// verify compares a trim's result with the model's outcome and names the
// clause of the first difference.
func (m *machine) verify(in []model.Entry, sc gen.SummarizerScript, want model.Outcome, res protocol.WindowTrimResult, plain, roomy model.Plan) {
	m.s.t.Helper()
	ctx := want.Why

	// The calls (SUM-1, SUM-4, SUM-5, SUM-6, SUM-8).
	calls := res.SummarizerCalls
	switch {
	case len(calls) > 1:
		m.fail("SUM-1", "the summarizer was called %d times; a trim makes at most one call\n%s", len(calls), ctx)
	case !want.Call && len(calls) == 1:
		clause := want.Clause
		if want.Path == "below" && m.Carried {
			clause = "SUM-5"
		}
		m.fail(clause, "the summarizer was called, but %s\nits prompt: %s", ctx, abbreviate([]byte(calls[0].Prompt), 600))
	case want.Call && len(calls) == 0:
		clause, extra := "SUM-5", ""
		thisTrim := model.Pick(in, roomy.Evicted())
		alone := len(thisTrim) < model.SumEvery || model.Meaning(thisTrim) == model.BlankText
		switch {
		case len(m.Pending)+len(plain.Evicted()) < model.SumEvery:
			clause, extra = "SUM-3", fmt.Sprintf("; planned with max_messages %d the trim would evict only %d, but c counts the evictions planned for a summary, with one place fewer", m.w.max, len(plain.Evicted()))
		case m.Carried && alone:
			clause, extra = "SUM-7", fmt.Sprintf("; the pending list %s holds what an earlier failed call covered, which a failure must not reset", model.Labels(m.Pending))
		case len(m.Pending) > 0 && alone:
			clause, extra = "SUM-4", fmt.Sprintf("; this trim's evictions %s alone would not call, but the pending list %s counts and is covered too", model.Labels(thisTrim), model.Labels(m.Pending))
		case countCode(res.Warnings, model.CodeSummarySkipped) > 0:
			clause, extra = "SUM-6", fmt.Sprintf("; it warned %s, but covered message %s has text", model.CodeSummarySkipped, firstText(want.Covered))
		}
		m.fail(clause, "the summarizer was not called, but %s%s", ctx, extra)
	case want.Call:
		if calls[0].MaxTokens != model.SumMaxTokens {
			m.fail("SUM-1", "the summarizer was called with max_tokens %d; every call passes %d", calls[0].MaxTokens, model.SumMaxTokens)
		}
		switch {
		case !prop.Diagnostics(m.s.tg):
			m.covers(calls[0].Prompt, want, in, roomy, ctx)
		case calls[0].Prompt != want.Prompt:
			m.blamePrompt(calls[0].Prompt, want, in, roomy, plain, ctx)
		}
	}

	// The summary (SUM-2, SUM-7).
	gotSummary := len(res.Summary) > 0 && string(res.Summary) != "null"
	switch {
	case want.Summary == nil && gotSummary:
		clause := want.Clause
		if sc.Wire != nil && want.Call {
			clause = "SUM-7"
		}
		m.fail(clause, "the trim returned the summary %s, but %s", abbreviate(res.Summary, 300), ctx)
	case want.Summary != nil && !gotSummary:
		m.fail("SUM-2", "the trim returned no summary, but %s; trimmed %s", ctx, m.traceEntries(res.Trimmed, in, want.Summary))
	case want.Summary != nil && !jsoncmp.Equal(res.Summary, want.Summary.Raw):
		m.fail("SUM-2", "the summary is %s, wanted %s: a new message with role assistant, content \"[Conversation Summary]\\n\" + the reply without surrounding white space, and no other member",
			abbreviate(res.Summary, 300), want.Summary.Raw)
	}

	// SUM-7: error text never becomes a message.
	if sc.Err != "" {
		for i, raw := range res.Trimmed {
			if containsText(raw, sc.Err) {
				m.fail("SUM-7", "trimmed[%d] holds the summarizer's error text %q: %s; error text never becomes a summary", i, sc.Err, abbreviate(raw, 300))
			}
		}
	}

	// The arrays (SUM-2, SUM-3, and plain windowing on the other paths).
	if i := diffEntries(res.Trimmed, want.Trimmed); i >= 0 {
		clause, extra := want.Clause, ""
		got := m.traceEntries(res.Trimmed, in, want.Summary)
		switch {
		case want.Summary != nil && len(res.Trimmed) == len(want.Trimmed)+1:
			clause, extra = "SUM-3", fmt.Sprintf("; the summary takes a place of the cap: planned with max_messages − 1 = %d, the kept middle is %s", m.w.max-1, model.Labels(model.Pick(in, gen.IndexRange(roomy.N-roomy.Tail-roomy.Keep, roomy.N-roomy.Tail))))
		case want.Summary != nil && summaryAt(res.Trimmed, *want.Summary) >= 0 && summaryAt(res.Trimmed, *want.Summary) != roomy.Head:
			extra = fmt.Sprintf("; the summary sits right after the preserved head %s, at trimmed[%d], not at trimmed[%d]",
				model.Labels(model.Pick(in, gen.Indices(roomy.Head))), roomy.Head, summaryAt(res.Trimmed, *want.Summary))
		}
		m.fail(clause, "trimmed[%d] is wrong: wanted trimmed %s, got %s%s\n%s", i, model.Labels(want.Trimmed), got, extra, ctx)
	}
	if i := diffEntries(res.Evicted, want.Evicted); i >= 0 {
		clause := want.Clause
		if want.Summary != nil {
			clause = "SUM-3"
		}
		m.fail(clause, "evicted[%d] is wrong: wanted evicted %s, got %s\n%s", i, model.Labels(want.Evicted), m.traceEntries(res.Evicted, in, nil), ctx)
	}

	// The warnings (SUM-6, SUM-7): diagnostics (D-42).
	if !prop.Diagnostics(m.s.tg) {
		m.verifyMetrics(in, want, res)
		return
	}
	var accept []string
	switch want.Path {
	case "no-text":
		accept = []string{model.CodeSummarySkipped}
	case "failed":
		accept = []string{model.CodeSummaryFailed}
	case "empty":
		accept = []string{model.CodeSummaryEmpty}
	}
	found := false
	for _, code := range model.SummaryCodes {
		if countCode(res.Warnings, code) == 0 {
			continue
		}
		if !slices.Contains(accept, code) {
			m.fail(want.Clause, "the trim warned %q, but %s; got %s", code, ctx, warningCodes(res.Warnings))
		}
		found = true
	}
	if len(accept) > 0 && !found {
		clause := want.Clause
		if want.Path == "no-text" && len(m.Pending)+len(plain.Evicted()) < model.SumEvery {
			clause = "SUM-3" // c counted with max_messages, not max_messages − 1
		}
		m.fail(clause, "the trim must warn %q: %s; got %s", accept[0], ctx, warningCodes(res.Warnings))
	}

	m.verifyMetrics(in, want, res)
}

// verifyMetrics checks that the metrics count input messages only (SUM-2).
func (m *machine) verifyMetrics(in []model.Entry, want model.Outcome, res protocol.WindowTrimResult) {
	m.s.t.Helper()
	mt := res.Metrics
	summaries := 0
	if want.Summary != nil {
		summaries = 1
	}
	if mt.TotalMessages != len(in) || mt.PreservedMessages != len(want.Trimmed)-summaries || mt.EvictedMessages != len(want.Evicted) {
		m.fail("SUM-2", "metrics are totalMessages %d, preservedMessages %d, evictedMessages %d; wanted %d, %d, %d: they count input messages only, the summary is not one",
			mt.TotalMessages, mt.PreservedMessages, mt.EvictedMessages, len(in), len(want.Trimmed)-summaries, len(want.Evicted))
	}
}

// covers checks what a prompt covers whatever its exact text (SUM-1 is
// diagnostics, SUM-4 core): every text of every message evicted since the
// last summary, held back by the rate limit or by a failed call included,
// is in it.
func (m *machine) covers(prompt string, want model.Outcome, in []model.Entry, roomy model.Plan, ctx string) {
	m.s.t.Helper()
	thisTrim := model.Pick(in, roomy.Evicted())
	for _, e := range want.Covered {
		for _, text := range e.Texts {
			if model.ClassifyText(text) == model.BlankText || strings.Contains(prompt, text) {
				continue
			}
			clause, held := "SUM-4", ""
			if !slices.ContainsFunc(thisTrim, func(x model.Entry) bool { return x.Label == e.Label }) {
				held = fmt.Sprintf(" (evicted by an earlier trim and held back, pending %s)", model.Labels(m.Pending))
				if m.Carried {
					clause = "SUM-7"
				}
			}
			m.fail(clause, "the prompt leaves out %s%s: its text %q is not in it; a summary covers everything evicted since the last one, %s\n%s",
				e.Label, held, abbreviate([]byte(text), 200), model.Labels(want.Covered), ctx)
		}
	}
}

// blamePrompt explains a wrong prompt: which messages it covers, or where
// its text first differs from SUM-1's.
func (m *machine) blamePrompt(got string, want model.Outcome, in []model.Entry, roomy, plain model.Plan, ctx string) {
	m.s.t.Helper()
	head := model.SumInstruction + "\n\n"
	if !strings.HasPrefix(got, head) {
		m.fail("SUM-1", "the prompt does not start with the instruction and a blank line: %s", abbreviate([]byte(got), 300))
	}
	body, wantBody := strings.TrimPrefix(got, head), strings.TrimPrefix(want.Prompt, head)
	thisTrim := model.Pick(in, roomy.Evicted())
	switch {
	case len(m.Pending) > 0 && got == model.PromptOf(thisTrim) && m.Carried:
		m.fail("SUM-7", "the prompt covers only this trim's evicted messages %s, but the pending list %s holds what a failed call covered: a failure keeps every covered message for the next summary (SUM-4)\n%s",
			model.Labels(thisTrim), model.Labels(m.Pending), ctx)
	case len(m.Pending) > 0 && got == model.PromptOf(thisTrim):
		m.fail("SUM-4", "the prompt covers only this trim's evicted messages %s, but a summary covers everything evicted since the last one: pending %s first\n%s",
			model.Labels(thisTrim), model.Labels(m.Pending), ctx)
	case len(plain.Evicted()) != len(roomy.Evicted()) && got == model.PromptOf(slices.Concat(m.Pending, model.Pick(in, plain.Evicted()))):
		m.fail("SUM-3", "the prompt covers %s, what plain windowing evicts; a summarizing trim plans with max_messages − 1 = %d and so covers %s\n%s",
			model.Labels(slices.Concat(m.Pending, model.Pick(in, plain.Evicted()))), m.w.max-1, model.Labels(want.Covered), ctx)
	case strings.HasSuffix(body, "\n\n"+wantBody):
		extra := strings.TrimSuffix(body, "\n\n"+wantBody)
		why := ""
		for _, e := range m.Summarized {
			if strings.Contains(extra, e.Rendered) {
				why = fmt.Sprintf(": %s was covered by an earlier summary, after which the pending list is empty and the count starts again (SUM-5)", e.Label)
				break
			}
		}
		m.fail("SUM-4", "the prompt covers %s, but before them it holds %q%s\n%s", model.Labels(want.Covered), abbreviate([]byte(extra), 300), why, ctx)
	case strings.HasSuffix(wantBody, "\n\n"+body) || body == "" && wantBody != "":
		m.fail("SUM-4", "the prompt covers only the last messages of %s; it leaves out %q\n%s",
			model.Labels(want.Covered), abbreviate([]byte(strings.TrimSuffix(wantBody, body)), 300), ctx)
	}
	rest := body
	for i, e := range want.Covered {
		last := i == len(want.Covered)-1
		if last && rest == e.Rendered || !last && strings.HasPrefix(rest, e.Rendered+"\n\n") {
			rest = rest[min(len(rest), len(e.Rendered)+2):]
			continue
		}
		goesOn := fmt.Sprintf("goes on with %q", abbreviate([]byte(rest), 300))
		if rest == "" {
			goesOn = "ends there"
		}
		m.fail("SUM-1", "the prompt covers %s; its message %d should be %s rendered as %q (then a blank line, unless it is the last), but the prompt %s\n%s",
			model.Labels(want.Covered), i+1, e.Label, abbreviate([]byte(e.Rendered), 300), goesOn, ctx)
	}
	m.fail("SUM-1", "the prompt goes on after the covered messages %s: %q", model.Labels(want.Covered), abbreviate([]byte(rest), 300))
}

func firstText(es []model.Entry) string {
	for _, e := range es {
		if e.Class != gen.ClassToolResult && model.Meaning([]model.Entry{e}) == model.MeaningfulText {
			return e.Label
		}
	}
	return "?"
}

// summaryAt is where a summary sits in a returned list, -1 if nowhere.
func summaryAt(list []json.RawMessage, s model.Entry) int {
	return slices.IndexFunc(list, func(r json.RawMessage) bool { return jsoncmp.Equal(r, s.Raw) })
}

func diffEntries(got []json.RawMessage, want []model.Entry) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoncmp.Equal(got[i], want[i].Raw) {
			return i
		}
	}
	return -1
}

// traceEntries names each returned message by the convEntry it equals.
func (m *machine) traceEntries(list []json.RawMessage, in []model.Entry, summary *model.Entry) string {
	var es []model.Entry
	for _, r := range list {
		e := model.Entry{Label: "?"}
		for _, x := range in {
			if jsoncmp.Equal(r, x.Raw) {
				e = x
				break
			}
		}
		if e.Label == "?" && summary != nil && jsoncmp.Equal(r, summary.Raw) {
			e = *summary
		}
		if e.Label == "?" {
			var c struct {
				Content string `json:"content"`
			}
			if json.Unmarshal(r, &c) == nil && strings.Contains(c.Content, "Conversation Summary") {
				e.Label = "summary?"
			}
		}
		es = append(es, e)
	}
	return model.Labels(es)
}

// containsText reports whether a JSON value holds text in one of its
// strings or member names, as encoding/json decodes it into an any; text
// it does not decode (not JSON, or a number out of a double's range) is
// searched as written. The value is read in place (jsonscan.Value, the
// Decoder's reading, FuzzValueAsDecoder) and checked once
// (FuzzContainsTextAsDecoded holds it to the decoding).
func containsText(raw json.RawMessage, text string) bool {
	if !jsonscan.Valid(raw) {
		return strings.Contains(string(raw), text)
	}
	inRange := true
	var walk func(any) bool
	walk = func(v any) bool {
		found := false
		switch x := v.(type) {
		case string:
			found = strings.Contains(x, text)
		case json.Number:
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				inRange = false
			}
		case []any:
			for _, y := range x {
				found = walk(y) || found // every number is looked at
			}
		case map[string]any:
			for k, y := range x {
				found = walk(y) || strings.Contains(k, text) || found
			}
		}
		return found
	}
	found := walk(jsonscan.Value(raw))
	if !inRange {
		return strings.Contains(string(raw), text)
	}
	return found
}
