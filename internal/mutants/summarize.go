package mutants

// The catalogue's variants of capability window.summarize: each is the
// reference with one fault point of its summarizing trim or its prompt on
// (D-68).

import "github.com/convspec/convspec/internal/fault"

func summarizeCatalogue() []Mutant {
	return []Mutant{
		pointVariant("summarize-single-newline", "separates the rendered messages of the summarization prompt with one newline instead of a blank line", fault.PromptSingleNewline, "SUM-1", "SUM-9"),
		pointVariant("summary-after-tail", "appends the summary after the tail instead of after the head", fault.SummaryAfterTail, "SUM-2"),
		pointVariant("summary-counter-never-resets", "keeps counting after a summary, so every later trim summarizes again", fault.SummaryCountNeverResets, "SUM-5"),
		pointVariant("summary-counter-resets-on-failure", "forgets the pending messages when the summarizer fails, so they are never summarized", fault.SummaryFailureForgetsPending, "SUM-7", "SUM-4"),
		pointVariant("summary-covers-only-this-trim", "summarizes only this trim's evicted messages, silently dropping the ones evicted before", fault.SummaryCoversOnlyThisTrim, "SUM-4"),
		pointVariant("summary-error-as-text", "inserts the summarizer's error text as the summary", fault.SummaryErrorAsText, "SUM-7"),
		pointVariant("summary-every-trim", "summarizes on every trim that evicts, ignoring the rate limit", fault.SummaryEveryTrim, "SUM-5"),
		pointVariant("summary-ignores-flag", "summarizes whenever the trim is given a summarizer, ignoring summarize_on_trim: false", fault.SummaryIgnoresFlag, "SUM-8"),
		pointVariant("summary-max-tokens-4096", "calls the summarizer with max_tokens 4096 instead of 1024", fault.SummaryMaxTokens4096, "SUM-1"),
		pointVariant("summary-not-counted", "inserts the summary without giving up a middle place, one over the cap", fault.SummaryNotCounted, "SUM-3"),
		pointVariant("summary-of-tool-results", "calls the summarizer for evictions that hold only tool results", fault.SummaryOfToolResults, "SUM-6"),
		pointVariant("summary-pending-without-summarizer", "adds a trim's evicted messages to the pending list even when no summarizer was given, so a later trim summarizes them", fault.SummaryPendingWithoutSummarizer, "SUM-8"),
		pointVariant("summary-prefix-missing", "leaves out the [Conversation Summary] prefix", fault.SummaryPrefixMissing, "SUM-2"),
	}
}
