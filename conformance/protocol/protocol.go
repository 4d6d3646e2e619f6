// Package protocol is convspec's wire protocol v1 (spec/protocol.md):
// newline-delimited JSON-RPC 2.0 between the harness and an implementation.
// It owns the method and capability names, the request and result shapes,
// and the error kinds; both the harness and the reference server use it.
package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Version is the protocol version exchanged in the handshake.
const Version = 1

// Methods.
const (
	MethodInitialize      = "initialize"
	MethodShutdown        = "shutdown"
	MethodWindowCreate    = "window.create"
	MethodWindowTrim      = "window.trim"
	MethodWindowEstimate  = "window.estimate"
	MethodWindowSummarize = "window.summarize"
	MethodTokensEncode    = "tokens.encode"
	MethodBudgetCount     = "budget.count"
	MethodBudgetCheck     = "budget.check"
	MethodBudgetPrune     = "budget.prune"
	MethodBudgetCompress  = "budget.compress"
	MethodBudgetPrepare   = "budget.prepare"
	MethodHistoryClassify = "history.classify"
	MethodHistoryPrune    = "history.prune"
	MethodHistoryBuild    = "history.build"
	MethodConfigResolve   = "config.resolve"
	MethodLoopRun         = "loop.run"
)

// Capabilities an implementation may declare in its handshake.
const (
	CapWindow    = "window"
	CapSummarize = "window.summarize"
	CapHistory   = "history"
	CapBudget    = "budget"
	CapTokens    = "tokens.cl100k"
	CapConfig    = "config"
	CapLoop      = "loop"
)

// Capabilities lists every capability of protocol v1, in the order of
// spec/protocol.md.
func Capabilities() []string {
	return []string{CapWindow, CapSummarize, CapHistory, CapBudget, CapTokens, CapConfig, CapLoop}
}

// Error kinds (spec/protocol.md, "Errors"). Kind is the stable identity of an
// error; Code is its JSON-RPC code.
const (
	KindParseError      = "parse_error"
	KindInvalidRequest  = "invalid_request"
	KindMethodNotFound  = "method_not_found"
	KindInvalidParams   = "invalid_params"
	KindInternalError   = "internal_error"
	KindInvalidConfig   = "invalid_config"
	KindInvalidMessage  = "invalid_message"
	KindUnknownModel    = "unknown_model"
	KindWindowExhausted = "context_window_exhausted"
	KindInvariant       = "invariant_violation"
	KindUnsupported     = "unsupported"
	KindSummarizer      = "summarizer_failed"
)

var codes = map[string]int{
	KindParseError:      -32700,
	KindInvalidRequest:  -32600,
	KindMethodNotFound:  -32601,
	KindInvalidParams:   -32602,
	KindInternalError:   -32603,
	KindInvalidConfig:   -32001,
	KindInvalidMessage:  -32002,
	KindUnknownModel:    -32003,
	KindWindowExhausted: -32004,
	KindInvariant:       -32005,
	KindUnsupported:     -32006,
	KindSummarizer:      -32007,
}

// Kinds lists every error kind, sorted.
func Kinds() []string {
	ks := make([]string, 0, len(codes))
	for k := range codes {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Code is the JSON-RPC error code of a kind; 0 for an unknown kind.
func Code(kind string) int { return codes[kind] }

// Error is a JSON-RPC error object carrying a convspec kind.
type Error struct {
	Code    int        `json:"code"`
	Message string     `json:"message"`
	Data    *ErrorData `json:"data,omitempty"`
}

// ErrorData carries the stable kind of an error and, for some kinds, its
// facts (context_window_exhausted: tokenCount, limit, model, and the
// number of summarizer calls made before giving up).
type ErrorData struct {
	Kind            string `json:"kind"`
	TokenCount      *int   `json:"tokenCount,omitempty"`
	Limit           *int   `json:"limit,omitempty"`
	Model           string `json:"model,omitempty"`
	SummarizerCalls *int   `json:"summarizer_calls,omitempty"`
	// Path names the offending member of a config file (invalid_config from
	// config.resolve and loop.run), e.g. "execution.conversation.max_messages";
	// "" for the document as a whole.
	Path *string `json:"path,omitempty"`
}

// NewError builds the error object of a kind.
func NewError(kind, format string, args ...any) *Error {
	return &Error{Code: Code(kind), Message: fmt.Sprintf(format, args...), Data: &ErrorData{Kind: kind}}
}

// Kind is the error's stable kind, derived from the code when data is absent.
func (e *Error) Kind() string {
	if e.Data != nil && e.Data.Kind != "" {
		return e.Data.Kind
	}
	for k, c := range codes {
		if c == e.Code {
			return k
		}
	}
	return ""
}

func (e *Error) Error() string { return e.Kind() + ": " + e.Message }

// Request is a JSON-RPC request. ID is absent for a notification.
type Request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`
}

// Response is a JSON-RPC response: exactly one of Result and Error is set.
type Response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// InitializeParams opens a session.
type InitializeParams struct {
	Protocol int    `json:"protocol"`
	Suite    string `json:"suite"`
}

// Implementation names the implementation under test.
type Implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// InitializeResult is the implementation's handshake.
type InitializeResult struct {
	Protocol       int            `json:"protocol"`
	Implementation Implementation `json:"implementation"`
	Capabilities   []string       `json:"capabilities"`
}

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

// HistoryClassifyParams classifies messages.
type HistoryClassifyParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// HistoryClassifyResult gives each message's class and the units as
// [start, end) pairs.
type HistoryClassifyResult struct {
	Classes []string `json:"classes"`
	Units   [][2]int `json:"units"`
}

// HistoryPruneParams prunes orphaned user prompts.
type HistoryPruneParams struct {
	Messages []json.RawMessage `json:"messages"`
}

// HistoryPruneResult is the pruned history and the input positions removed.
type HistoryPruneResult struct {
	Messages []json.RawMessage `json:"messages"`
	Removed  []int             `json:"removed"`
}

// HistoryBuildParams builds the messages for a model call.
type HistoryBuildParams struct {
	Messages    []json.RawMessage `json:"messages"`
	MaxMessages json.RawMessage   `json:"max_messages"`
}

// Repair is a repair Build made to a malformed history.
type Repair struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Indexes []int  `json:"indexes"`
}

// HistoryBuildResult is what would be sent, and the repairs made.
type HistoryBuildResult struct {
	Messages []json.RawMessage `json:"messages"`
	Warnings []Repair          `json:"warnings"`
}

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

// required lists, per result type, the members an implementation must send;
// a missing one is a protocol error, not a zero value.
var required = map[string][]string{
	"InitializeResult":      {"protocol", "implementation", "capabilities"},
	"WindowCreateResult":    {"window", "config", "warnings"},
	"WindowTrimResult":      {"trimmed", "evicted", "metrics", "warnings"},
	"WindowEstimateResult":  {"tokens"},
	"HistoryClassifyResult": {"classes", "units"},
	"TokensEncodeResult":    {"tokens", "count"},
	"BudgetCountResult":     {"tokens", "per_message"},
	"BudgetCheckResult":     {"tokens", "limit", "approaching", "at_limit"},
	"BudgetPruneResult":     {"messages", "removed"},
	"BudgetCompressResult":  {"messages", "summarizer_calls"},
	"BudgetPrepareResult":   {"messages", "events", "summarizer_calls"},
	"HistoryPruneResult":    {"messages", "removed"},
	"HistoryBuildResult":    {"messages", "warnings"},
	"ConfigResolveResult":   {"config", "max_messages_from", "warnings"},
	"LoopRunResult":         {"config", "requests", "iterations", "summarizer_calls"},
	"LoopRequest":           {"iteration", "messages"},
	"LoopIterationResult":   {"state", "metrics", "events"},
	"ConversationMetrics":   {"messageCount", "estimatedTokens"},
	"WindowConfig":          {"max_messages", "summarize_on_trim", "preserve_first_n", "preserve_last_n"},
	"Metrics":               {"totalMessages", "preservedMessages", "evictedMessages", "estimatedTokens"},
}

// ErrSchema is wrapped by DecodeResult when a result breaks the protocol's
// shapes: the implementation answered, but not in protocol v1.
var ErrSchema = errors.New("result does not match protocol v1")

// DecodeResult decodes a result into v (a pointer to one of this package's
// result types), checking that every required member is present, nested
// objects included, and that types match.
func DecodeResult(raw json.RawMessage, v any) error {
	name := strings.TrimPrefix(fmt.Sprintf("%T", v), "*protocol.")
	if err := checkRequired(raw, name, "result"); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return nil
}

func checkRequired(raw json.RawMessage, typeName, path string) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		return fmt.Errorf("%w: %s must be an object, got %s", ErrSchema, path, abbreviate(raw))
	}
	for _, m := range required[typeName] {
		v, ok := members[m]
		if !ok || string(v) == "null" {
			return fmt.Errorf("%w: %s.%s is missing", ErrSchema, path, m)
		}
	}
	nested := map[string]string{"config": "WindowConfig", "metrics": "Metrics"}
	if typeName == "LoopIterationResult" {
		nested["metrics"] = "ConversationMetrics"
	}
	for member, t := range nested {
		if v, ok := members[member]; ok && contains(required[typeName], member) {
			if err := checkRequired(v, t, path+"."+member); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// abbreviate shortens raw JSON for an error message.
func abbreviate(raw []byte) string {
	const limit = 200
	s := string(raw)
	if len(s) > limit {
		return s[:limit] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	if s == "" {
		return "nothing"
	}
	return s
}
