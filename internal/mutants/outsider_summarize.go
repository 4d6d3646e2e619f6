package mutants

// Outsider variants of the capability window.summarize (SUM-*): the
// summarizing trim, its rate limit and its prompt, each the reference
// with one fault point on (D-68).

import "github.com/convspec/convspec/internal/fault"

func outsiderSummarizeMutants() []Mutant {
	return []Mutant{
		{
			// summarize_on_trim, max 12: a trim evicting 11 messages with
			// the summarizer failing (rate limit), then a trim evicting 2
			// more with it answering: the second prompt covers all 13
			// messages; the variant's covers the 2 new ones only.
			Name: "outsider-sum-failure-forgets-pending", Bug: "clears the messages waiting for a summary when the summarizer fails, instead of keeping them for the next attempt",
			Clauses: []string{"SUM-7"},
			Faults:  fault.Of(fault.SummaryFailureForgetsPending),
		},
		{
			// summarize_on_trim: a trim covering exactly 10 messages
			// summarizes them; the variant waits for 11.
			Name: "outsider-sum-every-exclusive", Bug: "summarizes only when more than SUMMARY_EVERY messages wait, not at exactly 10",
			Clauses: []string{"SUM-5"},
			Faults:  fault.Of(fault.SummaryEveryExclusive),
		},
		{
			// summarize_on_trim, 10+ evicted messages whose only text is
			// "\u3000" (ideographic space) or "\u2028": no meaningful text,
			// skipped with summary_skipped_no_text; the variant calls the
			// summarizer.
			Name: "outsider-sum-ascii-blank-is-text", Bug: "decides whether evicted messages hold text by trimming ASCII white space only, so U+2028 or U+3000 alone counts as text",
			Clauses: []string{"SUM-6"},
			Faults:  fault.Of(fault.SummaryMeaningfulASCII),
		},
		{
			// window.summarize with the summarizer answering "\u00a0" (a
			// no-break space): an empty summary, an error; the variant
			// trims ASCII white space only and returns "\u00a0".
			Name: "outsider-sum-ascii-trim-reply", Bug: "trims only ASCII white space from the summarizer's reply, so a reply of U+00A0 or U+2028 is a summary",
			Clauses: []string{"SUM-1", "SUM-7"},
			Faults:  fault.Of(fault.SummaryReplyASCIITrim),
		},
		{
			// window.summarize of [{"role":"assistant","content":[{"type":
			// "tool_use","id":"t","name":"ls"}]}, ...]: the prompt renders
			// the missing input as {}; the variant as null.
			Name: "outsider-sum-tool-use-input-null", Bug: "renders a tool_use block without input as tool_use NAME null in the prompt",
			Clauses: []string{"SUM-1"},
			Faults:  fault.Of(fault.PromptToolUseInputNull),
		},
		{
			// window.summarize of a user message [{"type":"tool_result",
			// "tool_use_id":"t","content":[{"type":"text","text":"ok"}]}]: the
			// prompt line is "tool_result t: ok"; the variant writes the
			// content array's JSON.
			Name: "outsider-sum-tool-result-blocks-as-json", Bug: "renders a tool_result block whose content is an array of blocks as the array's JSON",
			Clauses: []string{"SUM-1"},
			Faults:  fault.Of(fault.PromptToolResultBlocksJSON),
		},
		{
			// summarize_on_trim with a system message first: the summary
			// goes right after the preserved head, [system, summary, ...];
			// the variant puts it first.
			Name: "outsider-sum-summary-before-head", Bug: "inserts the summary message at the front of the trimmed conversation, before the preserved first messages",
			Clauses: []string{"SUM-2"},
			Faults:  fault.Of(fault.SummaryBeforeHead),
		},
	}
}
