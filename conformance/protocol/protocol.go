// Package protocol is convspec's wire protocol v1 (spec/protocol.md):
// newline-delimited JSON-RPC 2.0 between the harness and an implementation.
// It owns the method and capability names, the request and result shapes,
// and the error kinds; both the harness and the reference server use it.
// The shapes are those of spec/schema/protocol.schema.json, the one
// description of the wire: a test walks every type here against it, both
// ways (D-63). What checks a shape rather than being one lives in
// internal packages (membercheck, trimdecl).
package protocol

import (
	"encoding/json"
	"fmt"
	"sort"
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

// Methods lists every method of protocol v1.
func Methods() []string {
	return []string{
		MethodInitialize, MethodShutdown,
		MethodWindowCreate, MethodWindowTrim, MethodWindowEstimate, MethodWindowSummarize,
		MethodTokensEncode,
		MethodBudgetCount, MethodBudgetCheck, MethodBudgetPrune, MethodBudgetCompress, MethodBudgetPrepare,
		MethodHistoryClassify, MethodHistoryPrune, MethodHistoryBuild,
		MethodConfigResolve, MethodLoopRun,
		MethodTrimmerTrim, MethodTrimmerCount,
	}
}

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
	return []string{CapWindow, CapSummarize, CapHistory, CapBudget, CapTokens, CapConfig, CapLoop, CapTrimmer}
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

// IsValidationKind reports whether an error of kind k refuses malformed
// input — a request, params, a configuration, a message or a model the
// registry does not know (PROTO-2, CFG-3, CFG-4, MSG-1, UNIT-2, LIM-2) —
// which is level validation (D-42): what an implementation that declares
// only core is never asked to refuse.
func IsValidationKind(k string) bool {
	switch k {
	case KindParseError, KindInvalidRequest, KindInvalidParams, KindInvalidConfig, KindInvalidMessage, KindUnknownModel:
		return true
	}
	return false
}

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
	// Traceback is where an internal_error arose, as the implementation
	// tells it (the kits send their stack or traceback, D-54); a failure
	// shows it after the error.
	Traceback string `json:"traceback,omitempty"`
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

// KnownKind reports whether the error has a kind of protocol.md's table:
// its data.kind is one, or its code is. An error with neither is not an
// answer but a protocol error (protocol.md, "Errors"; D-51).
func (e *Error) KnownKind() bool {
	if _, ok := codes[e.Kind()]; ok {
		return true
	}
	for _, c := range codes {
		if c == e.Code {
			return true
		}
	}
	return false
}

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
	// Trimmers declares the trimmers of capability trimmer (ANY-10).
	Trimmers []TrimmerDecl `json:"trimmers,omitempty"`
	// Levels are the levels the implementation implements (D-42); nil
	// (absent) means every level.
	Levels []string `json:"levels,omitempty"`
	// Formats are the provider formats it reads (D-42); nil (absent)
	// means both.
	Formats []string `json:"formats,omitempty"`
}
