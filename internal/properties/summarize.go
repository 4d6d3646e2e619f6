package properties

// Summarization (SUM-1 – SUM-9) as a state machine: a window that
// summarizes is the one stateful object of the spec, so its property is a
// random sequence of appends and trims, each trim with a scripted
// summarizer that replies, fails, answers nothing or is not there, checked
// step by step against a model of the window's pending list.

import (
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// summarizeProperties are the properties of capability window.summarize, in report order.
func summarizeProperties() []prop.Property {
	return []prop.Property{
		{ID: "prop/summarize-state-machine", Level: protocol.LevelCore /* its exact-prompt and warning checks are diagnostics */, Clauses: []string{"SUM-1", "SUM-2", "SUM-3", "SUM-4", "SUM-5", "SUM-6", "SUM-7", "SUM-8"}, Capability: protocol.CapSummarize,
			Doc:   "over random appends and trims with a summarizer that replies, fails, answers blank or is absent, every trim calls it exactly when the rate limit says, with the exact prompt, and returns the array the clauses give",
			Check: checkSummarizeMachine, Examples: summarizeMachineEdges()},
		{ID: "prop/summarize-prompt", Clauses: []string{"SUM-1", "SUM-9"}, Capability: protocol.CapSummarize,
			Doc:   "window.summarize makes one call with max_tokens 1024 and SUM-1's exact prompt, and returns the reply trimmed, or summarizer_failed for an error or a blank reply",
			Check: checkSummarizePrompt, Examples: summarizePromptEdges()},
	}
}

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

// window.summarize (SUM-9)

func checkSummarizePrompt(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "SUM-9")
	h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(1, 14).Draw(t, "n"), Marked: true, Tools: -1}).Draw(t, "messages")
	summarizePrompt(s, h, drawScript(t, false))
}

// summarizePrompt asks window.summarize for a summary of h with sc.
func summarizePrompt(s *session, h gen.History, sc script) {
	msgs := gen.Raws(h.Msgs)
	params := protocol.WindowSummarizeParams{Messages: msgs, Summarizer: sc.wire}
	s.record(protocol.MethodWindowSummarize, params)
	raw, err := s.tg.Call(s.ctx, protocol.MethodWindowSummarize, params)
	var res protocol.WindowSummarizeResult
	if err == nil {
		if derr := target.DecodeResult(protocol.MethodWindowSummarize, raw, &res); derr != nil {
			s.fail("SUM-9", "window.summarize answered with a result that is not protocol v1: %v", derr)
		}
	}
	var es []convEntry
	for i, m := range h.Msgs {
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
					msg = fmt.Sprintf("messages[%d] (%s), rendered %q", i, describe(h.Msgs, i), abbreviate([]byte(e.rendered), 200))
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
