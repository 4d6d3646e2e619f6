package mutants

// The catalogue's variants of capability window.summarize (their engines
// are in summarize.go).

import (
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/window"
)

func summarizeCatalogue() []Mutant {
	return []Mutant{
		{Name: "summarize-single-newline", Clauses: []string{"SUM-1", "SUM-9"},
			Bug:    "separates the rendered messages of the summarization prompt with one newline instead of a blank line",
			Engine: summarizeMutant{summarize: singleNewlineSummarize}}, {Name: "summary-after-tail", Clauses: []string{"SUM-2"},
			Bug:    "appends the summary after the tail instead of after the head",
			Engine: summarizingMutant(summaryAfterTail)}, {Name: "summary-counter-never-resets", Clauses: []string{"SUM-5"},
			Bug:    "keeps counting after a summary, so every later trim summarizes again",
			Engine: summarizingMutant(neverResets)}, {Name: "summary-counter-resets-on-failure", Clauses: []string{"SUM-7", "SUM-4"},
			Bug:    "forgets the pending messages when the summarizer fails, so they are never summarized",
			Engine: summarizingMutant(resetsOnFailure)}, {Name: "summary-covers-only-this-trim", Clauses: []string{"SUM-4"},
			Bug:    "summarizes only this trim's evicted messages, silently dropping the ones evicted before",
			Engine: summarizingMutant(coversOnlyThisTrim)}, {Name: "summary-error-as-text", Clauses: []string{"SUM-7"},
			Bug:    "inserts the summarizer's error text as the summary",
			Engine: summarizingMutant(errorAsSummary)}, {Name: "summary-every-trim", Clauses: []string{"SUM-5"},
			Bug:    "summarizes on every trim that evicts, ignoring the rate limit",
			Engine: summarizingMutant(summarizesEveryTrim)}, {Name: "summary-ignores-flag", Clauses: []string{"SUM-8"},
			Bug:    "summarizes whenever the trim is given a summarizer, ignoring summarize_on_trim: false",
			Engine: engine{window: func(c window.Config) server.Window { return newFlagBlindWindow(c) }}}, {Name: "summary-max-tokens-4096", Clauses: []string{"SUM-1"},
			Bug:    "calls the summarizer with max_tokens 4096 instead of 1024",
			Engine: summarizingMutant(wrongMaxTokens)}, {Name: "summary-not-counted", Clauses: []string{"SUM-3"},
			Bug:    "inserts the summary without giving up a middle place, one over the cap",
			Engine: summarizingMutant(summaryNotCounted)}, {Name: "summary-of-tool-results", Clauses: []string{"SUM-6"},
			Bug:    "calls the summarizer for evictions that hold only tool results",
			Engine: summarizingMutant(summarizesToolResults)}, {Name: "summary-pending-without-summarizer", Clauses: []string{"SUM-8"},
			Bug: "adds a trim's evicted messages to the pending list even when no summarizer was given, so a later trim summarizes them",
			Engine: engine{window: func(c window.Config) server.Window {
				return pendingAlways{&faultySummarizer{cfg: c}}
			}}}, {Name: "summary-prefix-missing", Clauses: []string{"SUM-2"},
			Bug:    "leaves out the [Conversation Summary] prefix",
			Engine: summarizingMutant(prefixMissing)}}
}
