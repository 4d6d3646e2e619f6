package protocol

import (
	"encoding/json"
)

// The shapes of the methods of the capabilities tokens.cl100k and budget.

// TokensEncodeParams encodes text with cl100k_base.
type TokensEncodeParams struct {
	Text string `json:"text"`
}

// TokensEncodeResult is the token ids and their number.
type TokensEncodeResult struct {
	Tokens []int `json:"tokens"`
	Count  int   `json:"count"`
}

// BudgetCountParams counts the tokens of messages.
type BudgetCountParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// BudgetCountResult is the total and each message's count.
type BudgetCountResult struct {
	Tokens     int   `json:"tokens"`
	PerMessage []int `json:"per_message"`
}

// BudgetCheckParams checks messages against a model's limit. Limits adds
// or overrides models in the registry for this request.
type BudgetCheckParams struct {
	Messages []json.RawMessage `json:"messages"`
	Model    string            `json:"model"`
	Limits   map[string]Count  `json:"limits,omitempty"`
}

// BudgetCheckResult is isApproachingLimit and isAtLimit with their inputs.
type BudgetCheckResult struct {
	Tokens      int  `json:"tokens"`
	Limit       int  `json:"limit"`
	Approaching bool `json:"approaching"`
	AtLimit     bool `json:"at_limit"`
}

// BudgetPruneParams is pruneMessages; TargetRatio defaults to 0.80.
type BudgetPruneParams struct {
	Messages    []json.RawMessage `json:"messages"`
	Model       string            `json:"model"`
	Limits      map[string]Count  `json:"limits,omitempty"`
	TargetRatio json.RawMessage   `json:"target_ratio,omitempty"`
}

// BudgetPruneResult is the pruned messages and the input positions removed.
type BudgetPruneResult struct {
	Messages []json.RawMessage `json:"messages"`
	Removed  []int             `json:"removed"`
}

// BudgetSummarizerCall is one call to summaryFn: the messages it was given.
type BudgetSummarizerCall struct {
	Messages []json.RawMessage `json:"messages"`
}

// BudgetCompressParams is summarizeAndCompress.
type BudgetCompressParams struct {
	Messages   []json.RawMessage `json:"messages"`
	Summarizer *SummarizerScript `json:"summarizer"`
}

// BudgetCompressResult is the compressed messages and the calls made.
type BudgetCompressResult struct {
	Messages        []json.RawMessage      `json:"messages"`
	SummarizerCalls []BudgetSummarizerCall `json:"summarizer_calls"`
}

// BudgetPrepareParams is the check before a provider call.
type BudgetPrepareParams struct {
	Messages   []json.RawMessage `json:"messages"`
	Model      string            `json:"model"`
	Limits     map[string]Count  `json:"limits,omitempty"`
	Summarizer *SummarizerScript `json:"summarizer"`
}

// Event is an event of the request preparation.
type Event struct {
	Event                string `json:"event"`
	TokenCount           *int   `json:"tokenCount,omitempty"`
	Limit                *int   `json:"limit,omitempty"`
	OriginalTokenCount   *int   `json:"originalTokenCount,omitempty"`
	CompressedTokenCount *int   `json:"compressedTokenCount,omitempty"`
	Error                string `json:"error,omitempty"`
}

// BudgetPrepareResult is what would be sent, the events, and the calls.
type BudgetPrepareResult struct {
	Messages        []json.RawMessage      `json:"messages"`
	Events          []Event                `json:"events"`
	SummarizerCalls []BudgetSummarizerCall `json:"summarizer_calls"`
}
