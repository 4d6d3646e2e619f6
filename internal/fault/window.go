package fault

// Points of reference/window's summarizing trim and summarization prompt
// (SUM-*).
const (
	// SummaryIgnoresFlag summarizes whenever a summarizer is given, as
	// if summarize_on_trim were true (SUM-8).
	SummaryIgnoresFlag Point = "window.summary-ignores-flag"
	// SummaryPendingWithoutSummarizer adds a plain trim's evictions to
	// the messages waiting for a summary when no summarizer was given
	// (SUM-8).
	SummaryPendingWithoutSummarizer Point = "window.summary-pending-without-summarizer"
	// SummaryNotCounted plans the summarizing trim with the whole cap,
	// so the summary is one over it (SUM-3).
	SummaryNotCounted Point = "window.summary-not-counted"
	// SummaryCoversOnlyThisTrim summarizes only this trim's evictions,
	// dropping the ones that waited (SUM-4).
	SummaryCoversOnlyThisTrim Point = "window.summary-covers-only-this-trim"
	// SummaryEveryTrim ignores the rate limit (SUM-5).
	SummaryEveryTrim Point = "window.summary-every-trim"
	// SummaryEveryExclusive waits for more than SummaryEvery messages,
	// not SummaryEvery (SUM-5).
	SummaryEveryExclusive Point = "window.summary-every-exclusive"
	// SummaryCountNeverResets keeps counting the summarized messages
	// after a summary, so every later trim summarizes again (SUM-5).
	SummaryCountNeverResets Point = "window.summary-count-never-resets"
	// SummaryFailureForgetsPending forgets the waiting messages when the
	// summarizer fails (SUM-7, SUM-4).
	SummaryFailureForgetsPending Point = "window.summary-failure-forgets-pending"
	// SummaryErrorAsText inserts the summarizer's error as the summary
	// (SUM-7).
	SummaryErrorAsText Point = "window.summary-error-as-text"
	// SummaryOfToolResults summarizes evictions without meaningful text
	// (SUM-6).
	SummaryOfToolResults Point = "window.summary-of-tool-results"
	// SummaryMeaningfulASCII decides whether text is meaningful by
	// trimming ASCII white space only (SUM-6).
	SummaryMeaningfulASCII Point = "window.summary-meaningful-ascii"
	// SummaryReplyASCIITrim trims only ASCII white space from the
	// summarizer's reply (SUM-1, SUM-7).
	SummaryReplyASCIITrim Point = "window.summary-reply-ascii-trim"
	// SummaryMaxTokens4096 calls the summarizer with max_tokens 4096
	// (SUM-1).
	SummaryMaxTokens4096 Point = "window.summary-max-tokens-4096"
	// SummaryPrefixMissing leaves out the summary message's prefix
	// (SUM-2).
	SummaryPrefixMissing Point = "window.summary-prefix-missing"
	// SummaryAfterTail inserts the summary after the tail (SUM-2).
	SummaryAfterTail Point = "window.summary-after-tail"
	// SummaryBeforeHead inserts the summary before the preserved head
	// (SUM-2).
	SummaryBeforeHead Point = "window.summary-before-head"
	// PromptSingleNewline separates the prompt's messages with one
	// newline, not a blank line (SUM-1).
	PromptSingleNewline Point = "window.prompt-single-newline"
	// PromptToolUseInputNull renders a tool_use block without input as
	// null, not {} (SUM-1).
	PromptToolUseInputNull Point = "window.prompt-tool-use-input-null"
	// PromptToolResultBlocksJSON renders a tool_result block whose
	// content is an array as the array's JSON (SUM-1).
	PromptToolResultBlocksJSON Point = "window.prompt-tool-result-blocks-json"
)

func windowPoints() []Point {
	return []Point{
		SummaryIgnoresFlag, SummaryPendingWithoutSummarizer, SummaryNotCounted,
		SummaryCoversOnlyThisTrim, SummaryEveryTrim, SummaryEveryExclusive,
		SummaryCountNeverResets, SummaryFailureForgetsPending, SummaryErrorAsText,
		SummaryOfToolResults, SummaryMeaningfulASCII, SummaryReplyASCIITrim,
		SummaryMaxTokens4096, SummaryPrefixMissing, SummaryAfterTail,
		SummaryBeforeHead, PromptSingleNewline, PromptToolUseInputNull,
		PromptToolResultBlocksJSON,
	}
}
