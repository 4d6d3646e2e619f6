package protocol

import (
	"encoding/json"
)

// The shapes of the methods of the capabilities config and loop.

// ConfigSource is a config file: its syntax ("yaml" or "json") and text.
type ConfigSource struct {
	Format string `json:"format"`
	Text   string `json:"text"`
}

// ConfigResolveParams resolves a config file.
type ConfigResolveParams struct {
	Config *ConfigSource `json:"config"`
}

// ConfigResolveResult is the effective ConversationHistoryConfig, which form
// set max_messages ("default", "shorthand" or "conversation"), and warnings.
type ConfigResolveResult struct {
	Config          WindowConfig `json:"config"`
	MaxMessagesFrom string       `json:"max_messages_from"`
	Warnings        []Warning    `json:"warnings"`
}

// LoopTurn is one model call: the model's response and the tool results
// appended after it.
type LoopTurn struct {
	Response json.RawMessage   `json:"response"`
	Results  []json.RawMessage `json:"results"`
}

// LoopIteration is one executor iteration.
type LoopIteration struct {
	Prompt json.RawMessage `json:"prompt"`
	Turns  []LoopTurn      `json:"turns"`
}

// LoopRunParams simulates a provider run. Summarizers script the
// summarizer's successive calls (the last one repeats); absent or empty
// means no summarizer is provided.
type LoopRunParams struct {
	Config      *ConfigSource      `json:"config"`
	Initial     []json.RawMessage  `json:"initial"`
	Iterations  []LoopIteration    `json:"iterations"`
	Summarizers []SummarizerScript `json:"summarizers,omitempty"`
}

// LoopRequest is what one model call was sent.
type LoopRequest struct {
	Iteration int               `json:"iteration"`
	Messages  []json.RawMessage `json:"messages"`
}

// ConversationMetrics are a provider's conversationMetrics.
type ConversationMetrics struct {
	MessageCount    int `json:"messageCount"`
	EstimatedTokens int `json:"estimatedTokens"`
}

// LoopIterationResult is what an iteration hands on.
type LoopIterationResult struct {
	State   []json.RawMessage   `json:"state"`
	Metrics ConversationMetrics `json:"metrics"`
	Events  []Warning           `json:"events"`
}

// LoopRunResult is the outcome of a run.
type LoopRunResult struct {
	Config          WindowConfig          `json:"config"`
	Requests        []LoopRequest         `json:"requests"`
	Iterations      []LoopIterationResult `json:"iterations"`
	SummarizerCalls []SummarizerCall      `json:"summarizer_calls"`
}
