package properties

// Summarization (SUM-1 – SUM-9) as a state machine: a window that
// summarizes is the one stateful object of the spec, so its property is a
// random sequence of appends and trims, each trim with a scripted
// summarizer that replies, fails, answers nothing or is not there, checked
// step by step against a model of the window's pending list.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoneq"
)

// SUM-1's instruction, SUM-2's prefix, SUM-1's max_tokens and SUM-5's
// rate, written here from the spec, not taken from the reference.
const (
	sumInstruction = "Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief."
	sumPrefix      = "[Conversation Summary]\n"
	sumMaxTokens   = 1024
	sumEvery       = 10
)

// Warning codes of SUM-6 and SUM-7.
const (
	codeSummaryFailed  = "summary_failed"
	codeSummaryEmpty   = "summary_empty"
	codeSummarySkipped = "summary_skipped_no_text"
)

var summaryCodes = []string{codeSummaryFailed, codeSummaryEmpty, codeSummarySkipped}

func summarizeProperties() []Property {
	return []Property{
		{
			ID:         "prop/summarize-state-machine",
			Clauses:    []string{"SUM-1", "SUM-2", "SUM-3", "SUM-4", "SUM-5", "SUM-6", "SUM-7", "SUM-8"},
			Capability: protocol.CapSummarize,
			Doc:        "over random appends and trims with a summarizer that replies, fails, answers blank or is absent, every trim calls it exactly when the rate limit says, with the exact prompt, and returns the array the clauses give",
			Check:      checkSummarizeMachine,
		},
		{
			ID:         "prop/summarize-prompt",
			Clauses:    []string{"SUM-1", "SUM-9"},
			Capability: protocol.CapSummarize,
			Doc:        "window.summarize makes one call with max_tokens 1024 and SUM-1's exact prompt, and returns the reply trimmed, or summarizer_failed for an error or a blank reply",
			Check:      checkSummarizePrompt,
		},
	}
}

// ---------------------------------------------------------------------------
// White space is Unicode's White_Space property (spec section 6a, D-31):
// not U+FEFF, not U+001C–U+001F, which some languages' trims remove.

func whiteSpace(r rune) bool {
	switch {
	case r == ' ', r >= '\t' && r <= '\r', r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// textKind says whether a text has a character other than white space.
type textKind int

const (
	blankText textKind = iota
	meaningfulText
)

func classifyText(s string) textKind {
	for _, r := range s {
		if !whiteSpace(r) {
			return meaningfulText
		}
	}
	return blankText
}

// ---------------------------------------------------------------------------
// Scripts

// summaryTexts are replies whose first and last characters are not white
// space under any definition, so that trimming them changes nothing.
var summaryTexts = []string{
	"Read a.go, fixed the nil check.",
	"x",
	"User wants the weather in Paris; get_weather returned 18°C.",
	"Ran the tests: 3 failed.\nFixed two; one left (flaky).",
	"日本語のまとめ 😀",
	`Wrote "b.txt" \ path C:\tmp`,
	"[Conversation Summary]",
	"<b>done</b> & more",
}

// padding is white space around a reply.
var padding = []string{"", "", " ", "\n", "  \t", "\r\n", "\u00a0", "\u3000 ", "\n\n", "\u0085"}

// script is a scripted summarizer and what the spec makes of its answer.
type script struct {
	wire *protocol.SummarizerScript // nil: no summarizer at all
	// core is the reply without surrounding white space ("" when blank).
	core string
	err  string
	what string
}

func drawScript(t *rapid.T, absent bool) script {
	kinds := []string{"reply", "reply", "reply", "error", "empty", "blank"}
	if absent {
		kinds = append(kinds, "none")
	}
	switch kind := rapid.SampledFrom(kinds).Draw(t, "summarizer"); kind {
	case "none":
		return script{what: "no summarizer"}
	case "error":
		e := fmt.Sprintf("summarizer unavailable: 503 #%d", rapid.IntRange(0, 999).Draw(t, "error number"))
		return script{wire: &protocol.SummarizerScript{Error: &e}, err: e, what: fmt.Sprintf("a summarizer that fails with %q", e)}
	default:
		core := ""
		if kind == "reply" {
			core = rapid.SampledFrom(summaryTexts).Draw(t, "reply")
		}
		reply := rapid.SampledFrom(padding).Draw(t, "padding before") + core + rapid.SampledFrom(padding).Draw(t, "padding after")
		if kind == "empty" {
			reply = ""
		}
		return script{wire: &protocol.SummarizerScript{Reply: &reply}, core: core, what: fmt.Sprintf("a summarizer that replies %q", reply)}
	}
}

// ---------------------------------------------------------------------------
// The model

// convEntry is a message of the conversation the machine holds.
type convEntry struct {
	raw      json.RawMessage
	label    string // m7 for a generated message, s2 for the second summary
	class    string
	rendered string
	texts    []string
	chars    int
	unit     int // entries of one unit share it
}

func entryOf(m msg, unit int) convEntry {
	return convEntry{raw: m.Raw, label: "m" + strconv.Itoa(m.Seq), class: m.Class, rendered: m.Rendered, texts: m.Texts, chars: m.Chars, unit: unit}
}

func summaryEntry(content string, k, unit int) convEntry {
	raw := mustJSON(map[string]string{"role": "assistant", "content": content})
	return convEntry{raw: raw, label: "s" + strconv.Itoa(k), class: clsAssistantText, rendered: "[assistant] " + content,
		texts: []string{content}, chars: utf16Len(content), unit: unit}
}

func entryUnits(es []convEntry) [][2]int {
	var out [][2]int
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].unit == es[i].unit {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func labels(es []convEntry) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(es); {
		j := i
		for j+1 < len(es) && sameSeries(es[j].label, es[j+1].label) {
			j++
		}
		if i == j {
			parts = append(parts, es[i].label)
		} else {
			parts = append(parts, es[i].label+"-"+es[j].label)
		}
		i = j + 1
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// sameSeries reports whether label b directly follows a (m3, m4).
func sameSeries(a, b string) bool {
	if a == "" || b == "" || a[0] != 'm' || b[0] != 'm' {
		return false
	}
	x, e1 := strconv.Atoi(a[1:])
	y, e2 := strconv.Atoi(b[1:])
	return e1 == nil && e2 == nil && y == x+1
}

func pickEntries(es []convEntry, idx []int) []convEntry {
	out := make([]convEntry, 0, len(idx))
	for _, i := range idx {
		out = append(out, es[i])
	}
	return out
}

// meaning is SUM-6 over the covered entries: is there a message that is
// not a tool result with content text that is not white space?
func meaning(es []convEntry) textKind {
	k := blankText
	for _, e := range es {
		if e.class == clsToolResult {
			continue
		}
		for _, s := range e.texts {
			k = max(k, classifyText(s))
		}
	}
	return k
}

func promptOf(es []convEntry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.rendered
	}
	return sumInstruction + "\n\n" + strings.Join(parts, "\n\n")
}

type machine struct {
	s  *session
	w  window
	on bool // summarize_on_trim
	// conv is the conversation as the agent holds it: what the last trim
	// returned, then what was appended since.
	conv []convEntry
	// pending is the window's list of SUM-4; carried says it holds messages
	// of a failed call (SUM-7).
	pending []convEntry
	carried bool
	// summarized are the messages earlier summaries covered.
	summarized []convEntry

	seq, ids, units, summaries int
	steps                      []string
	last                       string // the last request, as sent
}

func (m *machine) fail(clause, format string, args ...any) {
	m.s.t.Helper()
	steps := m.steps
	if len(steps) > 40 {
		steps = append([]string{fmt.Sprintf("(%d earlier steps)", len(steps)-40)}, steps[len(steps)-40:]...)
	}
	m.s.t.Fatalf("%s", m.s.stable(fmt.Sprintf("%s: %s\nwindow: max_messages %d, preserve_first_n %d, preserve_last_n %d, summarize_on_trim %v\nsteps:\n  %s\nlast request:\n  %s",
		clause, fmt.Sprintf(format, args...), m.w.max, m.w.h, m.w.t, m.on, strings.Join(steps, "\n  "), abbreviate([]byte(m.last), 4000))))
}

func checkSummarizeMachine(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "SUM-8")
	maxN := rapid.SampledFrom([]int{4, 5, 6, 3, 8, 2, 10, 1, 12, 0}).Draw(t, "max_messages")
	h := rapid.IntRange(0, 3).Draw(t, "preserve_first_n")
	tl := rapid.IntRange(0, 4).Draw(t, "preserve_last_n")
	on := rapid.SampledFrom([]bool{true, true, true, true, true, true, false}).Draw(t, "summarize_on_trim")
	raw := fmt.Sprintf(`{"max_messages":%d,"preserve_first_n":%d,"preserve_last_n":%d,"summarize_on_trim":%v}`, maxN, h, tl, on)
	cfg := cfgCase{Raw: json.RawMessage(raw), Max: &maxN, First: &h, Last: &tl, Summarize: &on,
		Sent: map[string]string{"max_messages": strconv.Itoa(maxN), "preserve_first_n": strconv.Itoa(h), "preserve_last_n": strconv.Itoa(tl), "summarize_on_trim": strconv.FormatBool(on)}}
	m := &machine{s: s, w: s.create(cfg), on: on}
	m.last = protocol.MethodWindowCreate + " " + raw
	t.Repeat(map[string]func(*rapid.T){
		"append a message": func(t *rapid.T) { m.appendUnit(t, genOpts{tools: 0}) },
		"append a tool call": func(t *rapid.T) {
			m.appendUnit(t, genOpts{tools: 1, force: "tool"})
		},
		// Tool calls without text: what SUM-6 skips.
		"append a tool call without text": func(t *rapid.T) {
			m.appendUnit(t, genOpts{tools: 1, force: "tool", silent: true})
		},
		"trim": m.trim,
	})
}

// appendUnit continues the conversation with one generated unit: a
// message, or a tool call with its results in either format, parallel
// calls included. One unit a step lets rapid shrink a failure to the
// steps that matter.
func (m *machine) appendUnit(t *rapid.T, o genOpts) {
	o.n, o.marked, o.base, o.idBase = 1, true, m.seq, m.ids
	h := historyGen(o).Draw(t, "appended")
	first := len(m.conv)
	m.units++
	for _, x := range h.msgs {
		m.conv = append(m.conv, entryOf(x, m.units))
	}
	m.seq += len(h.msgs)
	m.ids += 100
	shape := h.msgs[0].Class
	if len(h.msgs) > 1 {
		shape += fmt.Sprintf(" with %s", plural(len(h.msgs)-1, "result message"))
	}
	if o.silent {
		shape += ", no text"
	}
	m.steps = append(m.steps, fmt.Sprintf("append %s: %s", labels(m.conv[first:]), shape))
}

// outcome is what a trim did, as the model predicts it.
type outcome struct {
	path    string // off, nothing, below, no-text, failed, empty, summary
	clause  string // the clause that decides the path
	why     string
	call    bool
	prompt  string
	covered []convEntry
	trimmed []convEntry // the summary convEntry included
	evicted []convEntry
	summary *convEntry
	code    string // the summary warning wanted, "" for none
}

func (m *machine) trim(t *rapid.T) {
	sc := drawScript(t, true)
	in := m.conv
	n := len(in)
	units := entryUnits(in)
	plain := planUnits(m.w, units, n)
	plainOut := outcome{trimmed: pickEntries(in, plain.trimmed()), evicted: pickEntries(in, plain.evicted())}

	msgs := make([]json.RawMessage, n)
	for i, e := range in {
		msgs[i] = e.raw
	}
	params := protocol.WindowTrimParams{Window: m.w.handle, Messages: msgs, Summarizer: sc.wire}
	m.last = protocol.MethodWindowTrim + " " + string(mustJSON(params))
	res, err := target.TrimWith(m.s.ctx, m.s.tg, m.w.handle, msgs, sc.wire)
	step := fmt.Sprintf("trim %s with %s", labels(in), sc.what)
	m.steps = append(m.steps, step)
	if err != nil {
		m.fail("SUM-7", "window.trim failed: %v; a trim succeeds whatever its summarizer does", err)
	}

	// The path the clauses give.
	var want outcome
	roomy := planCap(m.w, units, n, m.w.max-1)
	var covered []convEntry
	switch {
	case !m.on || sc.wire == nil:
		want = plainOut
		want.path, want.clause = "off", "SUM-8"
		want.why = "summarize_on_trim is false, so the trim is plain windowing"
		if m.on {
			want.why = "no summarizer was provided, so the trim is plain windowing and the pending list is left alone"
		}
	case len(plainOut.evicted) == 0:
		want = plainOut
		want.path, want.clause, want.why = "nothing", "SUM-5", "the trim evicts nothing, so it makes no call"
	default:
		covered = slices.Concat(m.pending, pickEntries(in, roomy.evicted()))
		want.covered = covered
		c := fmt.Sprintf("c = %d pending %s + %d evicted when planned for a summary with max_messages − 1 = %d %s",
			len(m.pending), labels(m.pending), len(roomy.evicted()), m.w.max-1, labels(pickEntries(in, roomy.evicted())))
		switch k := meaning(covered); {
		case len(covered) < sumEvery:
			want = plainOut
			want.path, want.clause, want.why = "below", "SUM-5", c+" < 10, so no call: plain windowing, its evicted messages join the pending list"
		case k == blankText:
			want = plainOut
			want.path, want.clause, want.why = "no-text", "SUM-6", c+" >= 10, but no covered message other than a tool result has content text that is not white space, so no call"
			want.code = codeSummarySkipped
		default:
			want.call, want.prompt = true, promptOf(covered)
			why := c + " >= 10, so the trim calls the summarizer once with the prompt of the covered messages"
			switch {
			case sc.err != "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "failed", "SUM-7", why+"; the call fails, so the trim is plain windowing, warns summary_failed and keeps the pending list"
				want.code = codeSummaryFailed
			case sc.core == "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "empty", "SUM-7", why+"; the reply is blank, so the trim is plain windowing, warns summary_empty and keeps the pending list"
				want.code = codeSummaryEmpty
			default:
				m.units++
				se := summaryEntry(sumPrefix+sc.core, m.summaries+1, m.units)
				want.path, want.clause = "summary", "SUM-2"
				want.why = why + fmt.Sprintf("; it replies, so the summary goes right after the head %s and the middle keeps one place fewer (SUM-3)", labels(pickEntries(in, seqIdx(roomy.head))))
				want.summary = &se
				want.trimmed = slices.Concat(pickEntries(in, seqIdx(roomy.head)), []convEntry{se}, pickEntries(in, rangeIdx(roomy.n-roomy.tail-roomy.keep, roomy.n)))
				want.evicted = pickEntries(in, roomy.evicted())
			}
		}
	}
	m.verify(in, sc, want, res, plain, roomy)

	// The model moves on.
	switch want.path {
	case "below":
		m.pending = append(m.pending, want.evicted...)
	case "no-text":
		m.pending, m.carried = nil, false
	case "failed", "empty":
		m.pending = append(m.pending, want.evicted...)
		m.carried = true
	case "summary":
		m.summaries++
		m.summarized = append(m.summarized, want.covered...)
		m.pending, m.carried = nil, false
	}
	m.conv = want.trimmed
	m.steps[len(m.steps)-1] = fmt.Sprintf("%s: %s, trimmed %s, evicted %s, pending now %s", step, want.path, labels(want.trimmed), labels(want.evicted), labels(m.pending))
}

func withCall(plain, call outcome) outcome {
	plain.call, plain.prompt, plain.covered = true, call.prompt, call.covered
	return plain
}

// verify compares a trim's result with the model's outcome and names the
// clause of the first difference.
func (m *machine) verify(in []convEntry, sc script, want outcome, res protocol.WindowTrimResult, plain, roomy plan) {
	m.s.t.Helper()
	ctx := want.why

	// The calls (SUM-1, SUM-4, SUM-5, SUM-6, SUM-8).
	calls := res.SummarizerCalls
	switch {
	case len(calls) > 1:
		m.fail("SUM-1", "the summarizer was called %d times; a trim makes at most one call\n%s", len(calls), ctx)
	case !want.call && len(calls) == 1:
		clause := want.clause
		if want.path == "below" && m.carried {
			clause = "SUM-5"
		}
		m.fail(clause, "the summarizer was called, but %s\nits prompt: %s", ctx, abbreviate([]byte(calls[0].Prompt), 600))
	case want.call && len(calls) == 0:
		clause, extra := "SUM-5", ""
		thisTrim := pickEntries(in, roomy.evicted())
		alone := len(thisTrim) < sumEvery || meaning(thisTrim) == blankText
		switch {
		case len(m.pending)+len(plain.evicted()) < sumEvery:
			clause, extra = "SUM-3", fmt.Sprintf("; planned with max_messages %d the trim would evict only %d, but c counts the evictions planned for a summary, with one place fewer", m.w.max, len(plain.evicted()))
		case m.carried && alone:
			clause, extra = "SUM-7", fmt.Sprintf("; the pending list %s holds what an earlier failed call covered, which a failure must not reset", labels(m.pending))
		case len(m.pending) > 0 && alone:
			clause, extra = "SUM-4", fmt.Sprintf("; this trim's evictions %s alone would not call, but the pending list %s counts and is covered too", labels(thisTrim), labels(m.pending))
		case countCode(res.Warnings, codeSummarySkipped) > 0:
			clause, extra = "SUM-6", fmt.Sprintf("; it warned %s, but covered message %s has text", codeSummarySkipped, firstText(want.covered))
		}
		m.fail(clause, "the summarizer was not called, but %s%s", ctx, extra)
	case want.call:
		if calls[0].MaxTokens != sumMaxTokens {
			m.fail("SUM-1", "the summarizer was called with max_tokens %d; every call passes %d", calls[0].MaxTokens, sumMaxTokens)
		}
		if calls[0].Prompt != want.prompt {
			m.blamePrompt(calls[0].Prompt, want, in, roomy, plain, ctx)
		}
	}

	// The summary (SUM-2, SUM-7).
	gotSummary := len(res.Summary) > 0 && string(res.Summary) != "null"
	switch {
	case want.summary == nil && gotSummary:
		clause := want.clause
		if sc.wire != nil && want.call {
			clause = "SUM-7"
		}
		m.fail(clause, "the trim returned the summary %s, but %s", abbreviate(res.Summary, 300), ctx)
	case want.summary != nil && !gotSummary:
		m.fail("SUM-2", "the trim returned no summary, but %s; trimmed %s", ctx, m.traceEntries(res.Trimmed, in, want.summary))
	case want.summary != nil && !jsoneq.Equal(res.Summary, want.summary.raw):
		m.fail("SUM-2", "the summary is %s, wanted %s: a new message with role assistant, content \"[Conversation Summary]\\n\" + the reply without surrounding white space, and no other member",
			abbreviate(res.Summary, 300), want.summary.raw)
	}

	// SUM-7: error text never becomes a message.
	if sc.err != "" {
		for i, raw := range res.Trimmed {
			if containsText(raw, sc.err) {
				m.fail("SUM-7", "trimmed[%d] holds the summarizer's error text %q: %s; error text never becomes a summary", i, sc.err, abbreviate(raw, 300))
			}
		}
	}

	// The arrays (SUM-2, SUM-3, and plain windowing on the other paths).
	if i := diffEntries(res.Trimmed, want.trimmed); i >= 0 {
		clause, extra := want.clause, ""
		got := m.traceEntries(res.Trimmed, in, want.summary)
		switch {
		case want.summary != nil && len(res.Trimmed) == len(want.trimmed)+1:
			clause, extra = "SUM-3", fmt.Sprintf("; the summary takes a place of the cap: planned with max_messages − 1 = %d, the kept middle is %s", m.w.max-1, labels(pickEntries(in, rangeIdx(roomy.n-roomy.tail-roomy.keep, roomy.n-roomy.tail))))
		case want.summary != nil && summaryAt(res.Trimmed, *want.summary) >= 0 && summaryAt(res.Trimmed, *want.summary) != roomy.head:
			extra = fmt.Sprintf("; the summary sits right after the preserved head %s, at trimmed[%d], not at trimmed[%d]",
				labels(pickEntries(in, seqIdx(roomy.head))), roomy.head, summaryAt(res.Trimmed, *want.summary))
		}
		m.fail(clause, "trimmed[%d] is wrong: wanted trimmed %s, got %s%s\n%s", i, labels(want.trimmed), got, extra, ctx)
	}
	if i := diffEntries(res.Evicted, want.evicted); i >= 0 {
		clause := want.clause
		if want.summary != nil {
			clause = "SUM-3"
		}
		m.fail(clause, "evicted[%d] is wrong: wanted evicted %s, got %s\n%s", i, labels(want.evicted), m.traceEntries(res.Evicted, in, nil), ctx)
	}

	// The warnings (SUM-6, SUM-7).
	var accept []string
	switch want.path {
	case "no-text":
		accept = []string{codeSummarySkipped}
	case "failed":
		accept = []string{codeSummaryFailed}
	case "empty":
		accept = []string{codeSummaryEmpty}
	}
	found := false
	for _, code := range summaryCodes {
		if countCode(res.Warnings, code) == 0 {
			continue
		}
		if !slices.Contains(accept, code) {
			m.fail(want.clause, "the trim warned %q, but %s; got %s", code, ctx, warningCodes(res.Warnings))
		}
		found = true
	}
	if len(accept) > 0 && !found {
		clause := want.clause
		if want.path == "no-text" && len(m.pending)+len(plain.evicted()) < sumEvery {
			clause = "SUM-3" // c counted with max_messages, not max_messages − 1
		}
		m.fail(clause, "the trim must warn %q: %s; got %s", accept[0], ctx, warningCodes(res.Warnings))
	}

	// The metrics count input messages only (SUM-2).
	mt := res.Metrics
	summaries := 0
	if want.summary != nil {
		summaries = 1
	}
	if mt.TotalMessages != len(in) || mt.PreservedMessages != len(want.trimmed)-summaries || mt.EvictedMessages != len(want.evicted) {
		m.fail("SUM-2", "metrics are totalMessages %d, preservedMessages %d, evictedMessages %d; wanted %d, %d, %d: they count input messages only, the summary is not one",
			mt.TotalMessages, mt.PreservedMessages, mt.EvictedMessages, len(in), len(want.trimmed)-summaries, len(want.evicted))
	}
}

// blamePrompt explains a wrong prompt: which messages it covers, or where
// its text first differs from SUM-1's.
func (m *machine) blamePrompt(got string, want outcome, in []convEntry, roomy, plain plan, ctx string) {
	m.s.t.Helper()
	head := sumInstruction + "\n\n"
	if !strings.HasPrefix(got, head) {
		m.fail("SUM-1", "the prompt does not start with the instruction and a blank line: %s", abbreviate([]byte(got), 300))
	}
	body, wantBody := strings.TrimPrefix(got, head), strings.TrimPrefix(want.prompt, head)
	thisTrim := pickEntries(in, roomy.evicted())
	switch {
	case len(m.pending) > 0 && got == promptOf(thisTrim) && m.carried:
		m.fail("SUM-7", "the prompt covers only this trim's evicted messages %s, but the pending list %s holds what a failed call covered: a failure keeps every covered message for the next summary (SUM-4)\n%s",
			labels(thisTrim), labels(m.pending), ctx)
	case len(m.pending) > 0 && got == promptOf(thisTrim):
		m.fail("SUM-4", "the prompt covers only this trim's evicted messages %s, but a summary covers everything evicted since the last one: pending %s first\n%s",
			labels(thisTrim), labels(m.pending), ctx)
	case len(plain.evicted()) != len(roomy.evicted()) && got == promptOf(slices.Concat(m.pending, pickEntries(in, plain.evicted()))):
		m.fail("SUM-3", "the prompt covers %s, what plain windowing evicts; a summarizing trim plans with max_messages − 1 = %d and so covers %s\n%s",
			labels(slices.Concat(m.pending, pickEntries(in, plain.evicted()))), m.w.max-1, labels(want.covered), ctx)
	case strings.HasSuffix(body, "\n\n"+wantBody):
		extra := strings.TrimSuffix(body, "\n\n"+wantBody)
		why := ""
		for _, e := range m.summarized {
			if strings.Contains(extra, e.rendered) {
				why = fmt.Sprintf(": %s was covered by an earlier summary, after which the pending list is empty and the count starts again (SUM-5)", e.label)
				break
			}
		}
		m.fail("SUM-4", "the prompt covers %s, but before them it holds %q%s\n%s", labels(want.covered), abbreviate([]byte(extra), 300), why, ctx)
	case strings.HasSuffix(wantBody, "\n\n"+body) || body == "" && wantBody != "":
		m.fail("SUM-4", "the prompt covers only the last messages of %s; it leaves out %q\n%s",
			labels(want.covered), abbreviate([]byte(strings.TrimSuffix(wantBody, body)), 300), ctx)
	}
	rest := body
	for i, e := range want.covered {
		last := i == len(want.covered)-1
		if last && rest == e.rendered || !last && strings.HasPrefix(rest, e.rendered+"\n\n") {
			rest = rest[min(len(rest), len(e.rendered)+2):]
			continue
		}
		goesOn := fmt.Sprintf("goes on with %q", abbreviate([]byte(rest), 300))
		if rest == "" {
			goesOn = "ends there"
		}
		m.fail("SUM-1", "the prompt covers %s; its message %d should be %s rendered as %q (then a blank line, unless it is the last), but the prompt %s\n%s",
			labels(want.covered), i+1, e.label, abbreviate([]byte(e.rendered), 300), goesOn, ctx)
	}
	m.fail("SUM-1", "the prompt goes on after the covered messages %s: %q", labels(want.covered), abbreviate([]byte(rest), 300))
}

func firstText(es []convEntry) string {
	for _, e := range es {
		if e.class != clsToolResult && meaning([]convEntry{e}) == meaningfulText {
			return e.label
		}
	}
	return "?"
}

// summaryAt is where a summary sits in a returned list, -1 if nowhere.
func summaryAt(list []json.RawMessage, s convEntry) int {
	return slices.IndexFunc(list, func(r json.RawMessage) bool { return jsoneq.Equal(r, s.raw) })
}

func diffEntries(got []json.RawMessage, want []convEntry) int {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || !jsoneq.Equal(got[i], want[i].raw) {
			return i
		}
	}
	return -1
}

// traceEntries names each returned message by the convEntry it equals.
func (m *machine) traceEntries(list []json.RawMessage, in []convEntry, summary *convEntry) string {
	var es []convEntry
	for _, r := range list {
		e := convEntry{label: "?"}
		for _, x := range in {
			if jsoneq.Equal(r, x.raw) {
				e = x
				break
			}
		}
		if e.label == "?" && summary != nil && jsoneq.Equal(r, summary.raw) {
			e = *summary
		}
		if e.label == "?" {
			var c struct {
				Content string `json:"content"`
			}
			if json.Unmarshal(r, &c) == nil && strings.Contains(c.Content, "Conversation Summary") {
				e.label = "summary?"
			}
		}
		es = append(es, e)
	}
	return labels(es)
}

// containsText reports whether a JSON value holds text in one of its
// strings.
func containsText(raw json.RawMessage, text string) bool {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return strings.Contains(string(raw), text)
	}
	var walk func(any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case string:
			return strings.Contains(x, text)
		case []any:
			return slices.ContainsFunc(x, walk)
		case map[string]any:
			for k, y := range x {
				if strings.Contains(k, text) || walk(y) {
					return true
				}
			}
		}
		return false
	}
	return walk(v)
}

// ---------------------------------------------------------------------------
// window.summarize (SUM-9)

func checkSummarizePrompt(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "SUM-9")
	h := historyGen(genOpts{n: rapid.IntRange(1, 14).Draw(t, "n"), marked: true, tools: -1}).Draw(t, "messages")
	sc := drawScript(t, false)
	msgs := raws(h.msgs)
	params := protocol.WindowSummarizeParams{Messages: msgs, Summarizer: sc.wire}
	s.record(protocol.MethodWindowSummarize, params)
	raw, err := tg.Call(s.ctx, protocol.MethodWindowSummarize, params)
	var res protocol.WindowSummarizeResult
	if err == nil {
		if derr := protocol.DecodeResult(raw, &res); derr != nil {
			s.fail("SUM-9", "window.summarize answered with a result that is not protocol v1: %v", derr)
		}
	}
	var es []convEntry
	for i, m := range h.msgs {
		es = append(es, entryOf(m, i))
	}
	prompt := promptOf(es)
	var pe *protocol.Error
	if err != nil && !errors.As(err, &pe) {
		s.fail("SUM-9", "window.summarize failed: %v", err)
	}
	if sc.core == "" {
		switch {
		case err == nil:
			s.fail("SUM-9", "with %s, window.summarize must fail with %s, but returned the summary %q", sc.what, protocol.KindSummarizer, res.Summary)
		case pe.Kind() != protocol.KindSummarizer:
			s.fail("SUM-9", "with %s, window.summarize must fail with %s, but failed with %v", sc.what, protocol.KindSummarizer, err)
		}
		return
	}
	if err != nil {
		s.fail("SUM-9", "with %s, window.summarize must return %q, but failed: %v", sc.what, sc.core, err)
	}
	switch calls := res.SummarizerCalls; {
	case len(calls) != 1:
		s.fail("SUM-9", "window.summarize makes one call; it made %d", len(calls))
	case calls[0].MaxTokens != sumMaxTokens:
		s.fail("SUM-1", "the call passes max_tokens %d, wanted %d", calls[0].MaxTokens, sumMaxTokens)
	case calls[0].Prompt != prompt:
		got := calls[0].Prompt
		at := 0
		for at < len(got) && at < len(prompt) && got[at] == prompt[at] {
			at++
		}
		msg := "the instruction"
		if at >= len(sumInstruction)+2 {
			// Which rendered message the difference falls in.
			off := len(sumInstruction) + 2
			for i, e := range es {
				if at < off+len(e.rendered)+2 {
					msg = fmt.Sprintf("messages[%d] (%s), rendered %q", i, describe(h.msgs, i), abbreviate([]byte(e.rendered), 200))
					break
				}
				off += len(e.rendered) + 2
			}
		}
		s.fail("SUM-1", "the prompt differs from SUM-1's at byte %d, in %s: wanted …%q…, got …%q…",
			at, msg, window8(prompt, at), window8(got, at))
	case res.Summary != sc.core:
		s.fail("SUM-9", "with %s, the summary is %q; wanted the reply without surrounding white space, %q", sc.what, res.Summary, sc.core)
	}
}

// window8 is the text around byte at.
func window8(s string, at int) string {
	lo, hi := max(0, at-30), min(len(s), at+50)
	for lo > 0 && !utf8Start(s[lo]) {
		lo--
	}
	for hi < len(s) && !utf8Start(s[hi]) {
		hi++
	}
	return s[lo:hi]
}

func utf8Start(b byte) bool { return b&0xc0 != 0x80 }
