package adapter

import (
	"context"
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
)

// Summarizer is the summarization callback a library calls. The kit builds
// it from the request's script (spec/protocol.md, "The scripted
// summarizer"): it records each call, waits the scripted delay, and answers
// the scripted reply or error, or a timeout error.
type Summarizer func(ctx context.Context, prompt string, maxTokens int) (string, error)

// Windows is capability `window`: windows created from a config document
// and the token estimate (SPEC §3–6).
type Windows interface {
	// NewWindow creates a window from a ConversationHistoryConfig document
	// (nil when the request has none) and returns its effective
	// configuration and creation warnings (CFG-1..6).
	NewWindow(config json.RawMessage) (Window, protocol.WindowConfig, []protocol.Warning, error)
	// Estimate is the window's token estimate of messages (EST-1..5).
	Estimate(messages []json.RawMessage) (int, error)
}

// Window is one window; the kit gives it a handle.
type Window interface {
	// Trim trims messages. summarize is nil when the request scripts no
	// summarizer (SUM-8); the kit reports the calls made through it.
	Trim(ctx context.Context, messages []json.RawMessage, summarize Summarizer) (TrimResult, error)
}

// TrimResult is a trim's outcome. Summary is the inserted summary message,
// nil when none.
type TrimResult struct {
	Trimmed  []json.RawMessage
	Evicted  []json.RawMessage
	Metrics  protocol.Metrics
	Warnings []protocol.Warning
	Summary  json.RawMessage
}

// Summarizing is capability `window.summarize` (declared only with
// Windows): summaries in trims and summarize(messages) (SUM-1..9).
type Summarizing interface {
	Summarize(ctx context.Context, messages []json.RawMessage, summarize Summarizer) (string, error)
}

// History is capability `history` (CLS, UNIT, PRUNE, BUILD).
type History interface {
	// Classify gives each message's class (protocol.md's names) and the
	// units as half-open [start, end) ranges.
	Classify(messages []json.RawMessage) (classes []string, units [][2]int, err error)
	// Prune removes orphaned user prompts and says which input positions
	// it removed, ascending.
	Prune(messages []json.RawMessage) (kept []json.RawMessage, removed []int, err error)
	// Build prepares messages for a model call under maxMessages.
	Build(messages []json.RawMessage, maxMessages int) (built []json.RawMessage, repairs []protocol.Repair, err error)
}

// Tokenizer is capability `tokens.cl100k`: exact cl100k_base ids (TOK-1).
type Tokenizer interface {
	Encode(text string) ([]int, error)
}

// ConfigResolver is capability `config`: an execution config file,
// "yaml" or "json", resolved to the window's configuration (CONF-1..7).
type ConfigResolver interface {
	Resolve(format, text string) (protocol.ConfigResolveResult, error)
}
