package steps

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// instruction is SUM-1's opening sentence, written here independently of
// the reference so that a drift in either is caught.
const instruction = "Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief."

const quoted = `"((?:[^"\\]|\\.)*)"`

// summarizeTable is the steps of the capability window.summarize.
var summarizeTable = newTable([]def[summarizeSteps]{
	{when, `^the conversation is trimmed with a summarizer that replies ` + quoted + `$`, (*summarizeSteps).trimReplying},
	{when, `^the conversation is trimmed with a summarizer that fails with ` + quoted + `$`, (*summarizeSteps).trimFailing},
	{when, `^the conversation is trimmed with a summarizer that answers after (\d+) ms but times out after (\d+) ms$`, (*summarizeSteps).trimSlow},
	{when, `^(\d+) messages are appended to the trimmed conversation$`, (*summarizeSteps).appendMessages},
	{when, `^a summary is requested with a summarizer that (replies|fails with) ` + quoted + `$`, (*summarizeSteps).summarizeDirect},
	{then, `^the summarizer was not called$`, (*summarizeSteps).notCalled},
	{then, `^the summarizer was called once with max_tokens (\d+)$`, (*summarizeSteps).calledOnce},
	{then, `^the summarizer prompt covers (.+)$`, (*summarizeSteps).promptCovers},
	{diagnostic, `^the summarizer prompt is:$`, (*summarizeSteps).promptIs},
	{then, `^the trimmed conversation reads (.+)$`, (*summarizeSteps).trimmedReads},
	{then, `^the summary message is:$`, (*summarizeSteps).summaryIs},
	{then, `^there is no summary$`, (*summarizeSteps).noSummary},
	{then, `^no returned message contains ` + quoted + `$`, (*summarizeSteps).noMessageContains},
	{then, `^the summary is ` + quoted + `$`, (*summarizeSteps).directSummaryIs},
})

// summarizeSteps are the steps of the capability window.summarize, with
// the state they keep in a scenario.
type summarizeSteps struct {
	*world

	summaries    int
	summarizeRes *protocol.WindowSummarizeResult
}

func unquote(s string) string {
	u, err := strconv.Unquote(`"` + s + `"`)
	if err != nil {
		return s
	}
	return u
}

func (w *summarizeSteps) trimScript(s protocol.SummarizerScript) error {
	if err := w.trimScripted(w.input, &s); err != nil {
		return err
	}
	if w.trimRes != nil && len(w.trimRes.Summary) > 0 && string(w.trimRes.Summary) != "null" {
		// "summary" names the latest summary, "summaryK" the K-th.
		w.summaries++
		w.label("summary", w.trimRes.Summary)
		w.label(fmt.Sprintf("summary%d", w.summaries), w.trimRes.Summary)
	}
	return nil
}

func (w *summarizeSteps) trimReplying(reply string) error {
	r := unquote(reply)
	return w.trimScript(protocol.SummarizerScript{Reply: &r})
}

func (w *summarizeSteps) trimFailing(msg string) error {
	e := unquote(msg)
	return w.trimScript(protocol.SummarizerScript{Error: &e})
}

func (w *summarizeSteps) trimSlow(delay, timeout int) error {
	r := "too late"
	return w.trimScript(protocol.SummarizerScript{Reply: &r, DelayMS: protocol.Count(delay), TimeoutMS: protocol.Count(timeout)})
}

// appendMessages continues the conversation after a trim with new
// labelled messages.
func (w *summarizeSteps) appendMessages(n int) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	next := append([]json.RawMessage(nil), w.trimRes.Trimmed...)
	for i := 0; i < n; i++ {
		next = append(next, w.labelled(w.nextLabel))
		w.nextLabel++
	}
	w.input = next
	return nil
}

func (w *summarizeSteps) summarizeDirect(how, text string) error {
	t := unquote(text)
	script := protocol.SummarizerScript{Reply: &t}
	if how != "replies" {
		script = protocol.SummarizerScript{Error: &t}
	}
	return callInto(w.world, protocol.MethodWindowSummarize, protocol.WindowSummarizeParams{Messages: w.nonNilInput(), Summarizer: &script}, &w.summarizeRes)
}

func (w *summarizeSteps) calls() ([]protocol.SummarizerCall, error) {
	switch {
	case w.summarizeRes != nil:
		return w.summarizeRes.SummarizerCalls, nil
	case w.trimRes != nil:
		return w.trimRes.SummarizerCalls, nil
	}
	return nil, w.needTrim()
}

func (w *summarizeSteps) notCalled() error {
	calls, err := w.calls()
	if err != nil {
		return err
	}
	if len(calls) > 0 {
		return w.failf("the summarizer should not have been called, but it was called %d times (first prompt: %.200q)", len(calls), calls[0].Prompt)
	}
	return nil
}

func (w *summarizeSteps) calledOnce(maxTokens int) error {
	calls, err := w.calls()
	if err != nil {
		return err
	}
	if len(calls) != 1 {
		return w.failf("the summarizer should have been called once, but it was called %d times", len(calls))
	}
	if calls[0].MaxTokens != maxTokens {
		return w.failf("the summarizer was called with max_tokens %d, want %d", calls[0].MaxTokens, maxTokens)
	}
	return nil
}

var (
	labelRange   = regexp.MustCompile(`^m(\d+)(?:-m(\d+))?$`)
	summaryLabel = regexp.MustCompile(`^summary\d*$`)
)

// expandLabels reads "m2-m5, summary, m9" into labels; "summary" is the
// latest summary, "summary1" the first.
func expandLabels(list string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if summaryLabel.MatchString(part) {
			out = append(out, part)
			continue
		}
		m := labelRange.FindStringSubmatch(part)
		if m == nil {
			return nil, fmt.Errorf("scenario error: %q is not mK, mK-mL or summary", part)
		}
		lo, hi := bounds(m)
		for k := lo; k <= hi; k++ {
			out = append(out, fmt.Sprintf("m%d", k))
		}
	}
	return out, nil
}

// onlyCall is the one call made to the summarizer, whose prompt the
// prompt steps read.
func (w *summarizeSteps) onlyCall() (protocol.SummarizerCall, error) {
	calls, err := w.calls()
	if err != nil {
		return protocol.SummarizerCall{}, err
	}
	if len(calls) != 1 {
		return protocol.SummarizerCall{}, w.failf("wanted one summarizer call, got %d", len(calls))
	}
	return calls[0], nil
}

// promptCovers checks what the one summarizer call covers (SUM-4, core):
// every labelled message's text, in order. The prompt's exact bytes — the
// prompt SUM-1 prescribes for those messages, string content rendering as
// "[role] content" — are diagnostics (D-42), compared only for an
// implementation that declares that level.
func (w *summarizeSteps) promptCovers(list string) error {
	call, err := w.onlyCall()
	if err != nil {
		return err
	}
	labels, err := expandLabels(list)
	if err != nil {
		return err
	}
	parts := make([]string, len(labels))
	texts := make([]string, len(labels))
	for i, l := range labels {
		raw, ok := w.labels[l]
		if !ok {
			return fmt.Errorf("scenario error: no message %s", l)
		}
		var m struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return fmt.Errorf("scenario error: %s has no string content", l)
		}
		parts[i], texts[i] = "["+m.Role+"] "+m.Content, m.Content
	}
	if err := w.covers(call.Prompt, labels, texts); err != nil {
		return err
	}
	if !w.tg.Info().HasLevel(protocol.LevelDiagnostics) {
		return nil
	}
	want := instruction + "\n\n" + strings.Join(parts, "\n\n")
	if err := w.comparePrompt(call.Prompt, want); err != nil {
		return fmt.Errorf("SUM-1 (level diagnostics): %w", err)
	}
	return nil
}

// covers checks that prompt holds the text of every labelled message, as a
// whole word and in order (SUM-4). A message left out that an earlier trim
// evicted is named as such: it was held back for a later summary (SUM-5)
// and, left out of this one, is never summarized.
func (w *summarizeSteps) covers(prompt string, labels, texts []string) error {
	var missing, heldBack []string
	for i, l := range labels {
		switch {
		case wholeIndex(prompt, texts[i], 0) >= 0:
		case w.evictedNow(w.labels[l]):
			missing = append(missing, l)
		default:
			heldBack = append(heldBack, l)
		}
	}
	also := ""
	if len(missing) > 0 {
		also = "; it also leaves out " + strings.Join(missing, ", ") + ", which this trim evicted"
	}
	if len(heldBack) > 0 {
		return w.failf("the summary leaves out %s, which an earlier trim evicted and held back for the next summary (SUM-5): they are never summarized (SUM-4)%s\n  prompt: %q",
			strings.Join(heldBack, ", "), also, prompt)
	}
	if len(missing) > 0 {
		return w.failf("the summary leaves out %s, which this trim evicted (SUM-4)\n  prompt: %q", strings.Join(missing, ", "), prompt)
	}
	at := 0
	for i, l := range labels {
		k := wholeIndex(prompt, texts[i], at)
		if k < 0 {
			return w.failf("the summary covers %s out of order: the pending messages come first, then this trim's, each in conversation order (SUM-4)\n  prompt: %q", l, prompt)
		}
		at = k + len(texts[i])
	}
	return nil
}

// evictedNow says whether the last trim evicted m.
func (w *summarizeSteps) evictedNow(m json.RawMessage) bool {
	if w.trimRes == nil {
		return false
	}
	for _, e := range w.trimRes.Evicted {
		if jsoncmp.Equal(e, m) {
			return true
		}
	}
	return false
}

// wholeIndex is the first index at or after from where text stands in s
// as a whole word — "m1" is not in "m12" — or -1.
func wholeIndex(s, text string, from int) int {
	if text == "" {
		return from
	}
	word := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	for from <= len(s) {
		k := strings.Index(s[from:], text)
		if k < 0 {
			return -1
		}
		k += from
		before, _ := utf8.DecodeLastRuneInString(s[:k])
		after, _ := utf8.DecodeRuneInString(s[k+len(text):])
		first, _ := utf8.DecodeRuneInString(text)
		last, _ := utf8.DecodeLastRuneInString(text)
		if (k == 0 || !word(first) || !word(before)) && (k+len(text) == len(s) || !word(last) || !word(after)) {
			return k
		}
		from = k + 1
	}
	return -1
}

func (w *summarizeSteps) promptIs(doc *godog.DocString) error {
	call, err := w.onlyCall()
	if err != nil {
		return err
	}
	return w.comparePrompt(call.Prompt, doc.Content)
}

// comparePrompt points at the first differing line.
func (w *summarizeSteps) comparePrompt(got, want string) error {
	if got == want {
		return nil
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, x string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			x = wl[i]
		}
		if g != x || i >= len(gl) || i >= len(wl) {
			return w.differs(deviation.Parts{Want: want, Got: got}, "the summarizer prompt differs at line %d:\n  wanted %q\n  got    %q\n  whole prompt wanted:\n%s\n  whole prompt got:\n%s", i+1, x, g, indentText(want), indentText(got))
		}
	}
	return nil
}

func indentText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "    | " + l
	}
	return strings.Join(lines, "\n")
}

func (w *summarizeSteps) trimmedReads(list string) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	labels, err := expandLabels(list)
	if err != nil {
		return err
	}
	got := w.trimRes.Trimmed
	name := func(m json.RawMessage) string {
		if jsoncmp.Equal(m, w.labels["summary"]) {
			return "summary"
		}
		for l, raw := range w.labels {
			if jsoncmp.Equal(m, raw) && !summaryLabel.MatchString(l) {
				return l
			}
		}
		return "?(" + describe(m) + ")"
	}
	gotNames := make([]string, len(got))
	for i, m := range got {
		gotNames[i] = name(m)
	}
	if strings.Join(gotNames, " ") != strings.Join(labels, " ") {
		return w.differs(deviation.Parts{Want: strings.Join(labels, " "), Got: strings.Join(gotNames, " ")}, "the trimmed conversation differs:\n  wanted %s\n  got    %s", strings.Join(labels, " "), strings.Join(gotNames, " "))
	}
	return nil
}

func (w *summarizeSteps) summaryIs(doc *godog.DocString) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	if len(w.trimRes.Summary) == 0 || string(w.trimRes.Summary) == "null" {
		return w.failf("wanted a summary message, got none")
	}
	if err := w.jsonIs("the summary message differs", w.trimRes.Summary, doc); err != nil {
		return err
	}
	for _, m := range w.trimRes.Trimmed {
		if jsoncmp.Equal(m, w.trimRes.Summary) {
			return nil
		}
	}
	return w.failf("the summary message is not in the trimmed conversation")
}

func (w *summarizeSteps) noSummary() error {
	if err := w.needTrim(); err != nil {
		return err
	}
	if len(w.trimRes.Summary) > 0 && string(w.trimRes.Summary) != "null" {
		return w.failf("wanted no summary, got %s", w.trimRes.Summary)
	}
	return nil
}

func (w *summarizeSteps) noMessageContains(text string) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	t := unquote(text)
	for i, m := range w.trimRes.Trimmed {
		if strings.Contains(string(m), t) {
			return w.failf("trimmed[%d] contains %q — error text must never become conversation content: %s", i, t, m)
		}
	}
	if strings.Contains(string(w.trimRes.Summary), t) {
		return w.failf("the summary contains %q", t)
	}
	return nil
}

func (w *summarizeSteps) directSummaryIs(text string) error {
	if err := w.needResult(w.summarizeRes != nil, "summarized"); err != nil {
		return err
	}
	if want := unquote(text); w.summarizeRes.Summary != want {
		return w.failf("the summary is %q, want %q", w.summarizeRes.Summary, want)
	}
	return nil
}
