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
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
)

// summarizeProperties are the properties of capability window.summarize, in report order.
func summarizeProperties() []prop.Property {
	return []prop.Property{
		{ID: "prop/summarize-state-machine", Level: protocol.LevelCore /* its exact-prompt and warning checks are diagnostics */, Clauses: []string{"SUM-1", "SUM-2", "SUM-3", "SUM-4", "SUM-5", "SUM-6", "SUM-7", "SUM-8"}, Capability: protocol.CapSummarize,
			Doc:   "over random appends and trims with a summarizer that replies, fails, answers blank or is absent, every trim calls it exactly when the rate limit says, with the exact prompt, and returns the array the clauses give",
			Check: checkSummarizeMachine, Examples: summarizeMachineEdges(), Cost: 5},
		{ID: "prop/summarize-prompt", Clauses: []string{"SUM-1", "SUM-9"}, Capability: protocol.CapSummarize,
			Doc:   "window.summarize makes one call with max_tokens 1024 and SUM-1's exact prompt, and returns the reply trimmed, or summarizer_failed for an error or a blank reply",
			Check: checkSummarizePrompt, Examples: summarizePromptEdges()},
	}
}

// White space is Unicode's White_Space property (spec section 6a, D-31):
// not U+FEFF, not U+001C–U+001F, which some languages' trims remove.

// Scripts

// window.summarize (SUM-9)

func checkSummarizePrompt(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "SUM-9")
	h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(1, 14).Draw(t, "n"), Marked: true, Tools: -1}).Draw(t, "messages")
	summarizePrompt(s, h, gen.DrawSummarizer(t, false))
}

// summarizePrompt asks window.summarize for a summary of h with sc.
func summarizePrompt(s *session, h gen.History, sc gen.SummarizerScript) {
	msgs := gen.Raws(h.Msgs)
	params := protocol.WindowSummarizeParams{Messages: msgs, Summarizer: sc.Wire}
	s.record(protocol.MethodWindowSummarize, params)
	raw, err := s.tg.Call(s.ctx, protocol.MethodWindowSummarize, params)
	var res protocol.WindowSummarizeResult
	if err == nil {
		if derr := target.DecodeResult(protocol.MethodWindowSummarize, raw, &res); derr != nil {
			s.fail("SUM-9", "window.summarize answered with a result that is not protocol v1: %v", derr)
		}
	}
	var es []model.Entry
	for i, m := range h.Msgs {
		es = append(es, model.EntryOf(m, i))
	}
	prompt := model.PromptOf(es)
	var pe *protocol.Error
	if err != nil && !errors.As(err, &pe) {
		s.fail("SUM-9", "window.summarize failed: %v", err)
	}
	if sc.Core == "" {
		switch {
		case err == nil:
			s.fail("SUM-9", "with %s, window.summarize must fail with %s, but returned the summary %q", sc.What, protocol.KindSummarizer, res.Summary)
		case pe.Kind() != protocol.KindSummarizer:
			s.fail("SUM-9", "with %s, window.summarize must fail with %s, but failed with %v", sc.What, protocol.KindSummarizer, err)
		}
		return
	}
	if err != nil {
		s.fail("SUM-9", "with %s, window.summarize must return %q, but failed: %v", sc.What, sc.Core, err)
	}
	switch calls := res.SummarizerCalls; {
	case len(calls) != 1:
		s.fail("SUM-9", "window.summarize makes one call; it made %d", len(calls))
	case calls[0].MaxTokens != model.SumMaxTokens:
		s.fail("SUM-1", "the call passes max_tokens %d, wanted %d", calls[0].MaxTokens, model.SumMaxTokens)
	case calls[0].Prompt != prompt:
		got := calls[0].Prompt
		at := 0
		for at < len(got) && at < len(prompt) && got[at] == prompt[at] {
			at++
		}
		msg := "the instruction"
		if at >= len(model.SumInstruction)+2 {
			// Which rendered message the difference falls in.
			off := len(model.SumInstruction) + 2
			for i, e := range es {
				if at < off+len(e.Rendered)+2 {
					msg = fmt.Sprintf("messages[%d] (%s), rendered %q", i, describe(h.Msgs, i), abbreviate([]byte(e.Rendered), 200))
					break
				}
				off += len(e.Rendered) + 2
			}
		}
		s.fail("SUM-1", "the prompt differs from SUM-1's at byte %d, in %s: wanted …%q…, got …%q…",
			at, msg, window8(prompt, at), window8(got, at))
	case res.Summary != sc.Core:
		s.fail("SUM-9", "with %s, the summary is %q; wanted the reply without surrounding white space, %q", sc.What, res.Summary, sc.Core)
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
