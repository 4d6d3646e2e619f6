package mutants

// The catalogue's variants of capability window.summarize: each is the
// reference with one fault point of its summarizing trim or its prompt on
// (D-68).

import "github.com/convspec/convspec/internal/fault"

func summarizeCatalogue() []Mutant {
	return []Mutant{
		{Name: "summarize-single-newline", Clauses: []string{"SUM-1", "SUM-9"},
			Bug:    "separates the rendered messages of the summarization prompt with one newline instead of a blank line",
			Faults: fault.Of(fault.PromptSingleNewline)},
		{Name: "summary-after-tail", Clauses: []string{"SUM-2"},
			Bug:    "appends the summary after the tail instead of after the head",
			Faults: fault.Of(fault.SummaryAfterTail)},
		{Name: "summary-counter-never-resets", Clauses: []string{"SUM-5"},
			Bug:    "keeps counting after a summary, so every later trim summarizes again",
			Faults: fault.Of(fault.SummaryCountNeverResets)},
		{Name: "summary-counter-resets-on-failure", Clauses: []string{"SUM-7", "SUM-4"},
			Bug:    "forgets the pending messages when the summarizer fails, so they are never summarized",
			Faults: fault.Of(fault.SummaryFailureForgetsPending)},
		{Name: "summary-covers-only-this-trim", Clauses: []string{"SUM-4"},
			Bug:    "summarizes only this trim's evicted messages, silently dropping the ones evicted before",
			Faults: fault.Of(fault.SummaryCoversOnlyThisTrim)},
		{Name: "summary-error-as-text", Clauses: []string{"SUM-7"},
			Bug:    "inserts the summarizer's error text as the summary",
			Faults: fault.Of(fault.SummaryErrorAsText)},
		{Name: "summary-every-trim", Clauses: []string{"SUM-5"},
			Bug:    "summarizes on every trim that evicts, ignoring the rate limit",
			Faults: fault.Of(fault.SummaryEveryTrim)},
		{Name: "summary-ignores-flag", Clauses: []string{"SUM-8"},
			Bug:    "summarizes whenever the trim is given a summarizer, ignoring summarize_on_trim: false",
			Faults: fault.Of(fault.SummaryIgnoresFlag)},
		{Name: "summary-max-tokens-4096", Clauses: []string{"SUM-1"},
			Bug:    "calls the summarizer with max_tokens 4096 instead of 1024",
			Faults: fault.Of(fault.SummaryMaxTokens4096)},
		{Name: "summary-not-counted", Clauses: []string{"SUM-3"},
			Bug:    "inserts the summary without giving up a middle place, one over the cap",
			Faults: fault.Of(fault.SummaryNotCounted)},
		{Name: "summary-of-tool-results", Clauses: []string{"SUM-6"},
			Bug:    "calls the summarizer for evictions that hold only tool results",
			Faults: fault.Of(fault.SummaryOfToolResults)},
		{Name: "summary-pending-without-summarizer", Clauses: []string{"SUM-8"},
			Bug:    "adds a trim's evicted messages to the pending list even when no summarizer was given, so a later trim summarizes them",
			Faults: fault.Of(fault.SummaryPendingWithoutSummarizer)},
		{Name: "summary-prefix-missing", Clauses: []string{"SUM-2"},
			Bug:    "leaves out the [Conversation Summary] prefix",
			Faults: fault.Of(fault.SummaryPrefixMissing)},
	}
}
