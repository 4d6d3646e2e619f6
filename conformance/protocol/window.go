package protocol

import (
	"encoding/json"
)

// The shapes of the methods of the capabilities window and
// window.summarize.

// WindowConfig is an effective ConversationHistoryConfig.
type WindowConfig struct {
	MaxMessages     int  `json:"max_messages"`
	SummarizeOnTrim bool `json:"summarize_on_trim"`
	PreserveFirstN  int  `json:"preserve_first_n"`
	PreserveLastN   int  `json:"preserve_last_n"`
}

// Warning is a non-fatal condition with a stable code.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Metrics are ConversationMetrics.
type Metrics struct {
	TotalMessages     int `json:"totalMessages"`
	PreservedMessages int `json:"preservedMessages"`
	EvictedMessages   int `json:"evictedMessages"`
	EstimatedTokens   int `json:"estimatedTokens"`
}

// WindowCreateParams creates a window; Config may be absent (all defaults).
type WindowCreateParams struct {
	Config json.RawMessage `json:"config,omitempty"`
}

// WindowCreateResult returns the window's handle and effective config.
type WindowCreateResult struct {
	Window   string       `json:"window"`
	Config   WindowConfig `json:"config"`
	Warnings []Warning    `json:"warnings"`
}

// WindowTrimParams trims messages with a window. Summarizer, when present,
// scripts the summarizer callback for this trim (capability
// window.summarize); absent means no summarizer is provided.
type WindowTrimParams struct {
	Window     string            `json:"window"`
	Messages   []json.RawMessage `json:"messages"`
	Summarizer *SummarizerScript `json:"summarizer,omitempty"`
}

// SummarizerScript says how the summarizer callback behaves when called:
// after DelayMS it returns Reply, or fails with Error. The implementation
// gives up on the call after TimeoutMS (default 30000) and treats that as a
// failure.
type SummarizerScript struct {
	Reply     *string `json:"reply,omitempty"`
	Error     *string `json:"error,omitempty"`
	DelayMS   Count   `json:"delay_ms,omitempty"`
	TimeoutMS Count   `json:"timeout_ms,omitempty"`
}

// SummarizerCall is one call the implementation made to the summarizer.
type SummarizerCall struct {
	Prompt    string `json:"prompt"`
	MaxTokens int    `json:"max_tokens"`
}

// WindowTrimResult is the outcome of a trim. Summary is the summary message
// inserted into Trimmed (null when none); SummarizerCalls lists the calls
// made. Both are required of implementations declaring window.summarize.
type WindowTrimResult struct {
	Trimmed         []json.RawMessage `json:"trimmed"`
	Evicted         []json.RawMessage `json:"evicted"`
	Metrics         Metrics           `json:"metrics"`
	Warnings        []Warning         `json:"warnings"`
	Summary         json.RawMessage   `json:"summary,omitempty"`
	SummarizerCalls []SummarizerCall  `json:"summarizer_calls,omitempty"`
}

// WindowSummarizeParams asks for a summary of messages.
type WindowSummarizeParams struct {
	Messages   []json.RawMessage `json:"messages"`
	Summarizer *SummarizerScript `json:"summarizer"`
}

// WindowSummarizeResult is the summary text and the calls made.
type WindowSummarizeResult struct {
	Summary         string           `json:"summary"`
	SummarizerCalls []SummarizerCall `json:"summarizer_calls"`
}

// WindowEstimateParams estimates the tokens of messages.
type WindowEstimateParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// WindowEstimateResult is the estimate.
type WindowEstimateResult struct {
	Tokens int `json:"tokens"`
}
