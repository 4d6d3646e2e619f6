package mutants

// Outsider variants of the capability window.summarize (SUM-*): the
// summarizing trim, its rate limit and its prompt, each the reference
// with one fault point on (D-68).

import "github.com/convspec/convspec/internal/fault"

func outsiderSummarizeMutants() []Mutant {
	return []Mutant{
		// summarize_on_trim, max 12: a trim evicting 11 messages with
		// the summarizer failing (rate limit), then a trim evicting 2
		// more with it answering: the second prompt covers all 13
		// messages; the variant's covers the 2 new ones only.
		pointVariant("outsider-sum-failure-forgets-pending", "clears the messages waiting for a summary when the summarizer fails, instead of keeping them for the next attempt", fault.SummaryFailureForgetsPending, "SUM-7"),

		// summarize_on_trim: a trim covering exactly 10 messages
		// summarizes them; the variant waits for 11.
		pointVariant("outsider-sum-every-exclusive", "summarizes only when more than SUMMARY_EVERY messages wait, not at exactly 10", fault.SummaryEveryExclusive, "SUM-5"),

		// summarize_on_trim, 10+ evicted messages whose only text is
		// "\u3000" (ideographic space) or "\u2028": no meaningful text,
		// skipped with summary_skipped_no_text; the variant calls the
		// summarizer.
		pointVariant("outsider-sum-ascii-blank-is-text", "decides whether evicted messages hold text by trimming ASCII white space only, so U+2028 or U+3000 alone counts as text", fault.SummaryMeaningfulASCII, "SUM-6"),

		// window.summarize with the summarizer answering "\u00a0" (a
		// no-break space): an empty summary, an error; the variant
		// trims ASCII white space only and returns "\u00a0".
		pointVariant("outsider-sum-ascii-trim-reply", "trims only ASCII white space from the summarizer's reply, so a reply of U+00A0 or U+2028 is a summary", fault.SummaryReplyASCIITrim, "SUM-1", "SUM-7"),

		// window.summarize of [{"role":"assistant","content":[{"type":
		// "tool_use","id":"t","name":"ls"}]}, ...]: the prompt renders
		// the missing input as {}; the variant as null.
		pointVariant("outsider-sum-tool-use-input-null", "renders a tool_use block without input as tool_use NAME null in the prompt", fault.PromptToolUseInputNull, "SUM-1"),

		// window.summarize of a user message [{"type":"tool_result",
		// "tool_use_id":"t","content":[{"type":"text","text":"ok"}]}]: the
		// prompt line is "tool_result t: ok"; the variant writes the
		// content array's JSON.
		pointVariant("outsider-sum-tool-result-blocks-as-json", "renders a tool_result block whose content is an array of blocks as the array's JSON", fault.PromptToolResultBlocksJSON, "SUM-1"),

		// summarize_on_trim with a system message first: the summary
		// goes right after the preserved head, [system, summary, ...];
		// the variant puts it first.
		pointVariant("outsider-sum-summary-before-head", "inserts the summary message at the front of the trimmed conversation, before the preserved first messages", fault.SummaryBeforeHead, "SUM-2"),
	}
}
