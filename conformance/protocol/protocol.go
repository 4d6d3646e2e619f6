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
	MethodHistoryClassify = "history.classify"
	MethodHistoryPrune    = "history.prune"
	MethodHistoryBuild    = "history.build"
)

// Capabilities an implementation may declare in its handshake.
const (
	CapWindow    = "window"
	CapSummarize = "window.summarize"
	CapHistory   = "history"
)

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

// ErrorData carries the stable kind of an error.
type ErrorData struct {
	Kind string `json:"kind"`
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
	DelayMS   int     `json:"delay_ms,omitempty"`
	TimeoutMS int     `json:"timeout_ms,omitempty"`
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

// required lists, per result type, the members an implementation must send;
// a missing one is a protocol error, not a zero value.
var required = map[string][]string{
	"InitializeResult":      {"protocol", "implementation", "capabilities"},
	"WindowCreateResult":    {"window", "config", "warnings"},
	"WindowTrimResult":      {"trimmed", "evicted", "metrics", "warnings"},
	"WindowEstimateResult":  {"tokens"},
	"HistoryClassifyResult": {"classes", "units"},
	"HistoryPruneResult":    {"messages", "removed"},
	"HistoryBuildResult":    {"messages", "warnings"},
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
