// Package budget keeps a conversation inside a model's context window by
// exact token counts (spec TOK-*, LIM-*, THR-*, PRN-*, CMP-*, PREP-*): it
// counts cl100k_base tokens per message, knows each model's limit, prunes
// the oldest units when the count approaches the limit, and compresses the
// conversation into a summary when it reaches it.
package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// Thresholds (THR-1, THR-2), as percentages so that comparisons are exact
// integer arithmetic.
const (
	WarnPercent = 80 // WARN_THRESHOLD_RATIO = 0.80
	HardPercent = 95 // HARD_LIMIT_RATIO = 0.95
)

// DefaultLimits is MODEL_CONTEXT_LIMITS (LIM-1): the single source of the
// context limits. Use Limits to extend it rather than copying it.
func DefaultLimits() map[string]int {
	return map[string]int{
		"gemini-3-pro":      1_000_000,
		"claude-3.5-sonnet": 200_000,
		"gpt-4o":            128_000,
	}
}

// ErrUnknownModel is wrapped when a model has no known limit (LIM-2).
var ErrUnknownModel = errors.New("unknown model")

// Limits is a registry of context limits.
type Limits map[string]int

// NewLimits is DefaultLimits with extra entries added or overriding.
func NewLimits(extra map[string]int) (Limits, error) {
	l := Limits(DefaultLimits())
	for model, n := range extra {
		if model == "" || n <= 0 || n > 1<<53-1 {
			return nil, fmt.Errorf("limits: model %q needs a positive limit of at most 2^53-1, got %d", model, n)
		}
		l[model] = n
	}
	return l, nil
}

// Of is the limit of a model, or an error wrapping ErrUnknownModel — never
// a silent default.
func (l Limits) Of(model string) (int, error) {
	n, ok := l[model]
	if !ok {
		known := slices.Sorted(maps.Keys(l))
		return 0, fmt.Errorf("%w %q (known: %v)", ErrUnknownModel, model, known)
	}
	return n, nil
}

// MessageTokens counts one message (TOK-2): the tokens of its role, of its
// text content, and ceil(length/4) of the compact form of anything else.
func MessageTokens(m message.Message) int {
	// A parsed message is valid JSON in valid UTF-8: its members, blocks
	// and strings are read as slices of it (jsonscan), as encoding/json
	// would decode them (FuzzMessageTokensAsUnmarshal), not decoded again.
	n := tokens.Count(m.Role()) + contentTokens(m.Content())
	if members, ok := jsonscan.SplitObject(m.Raw()); ok {
		if calls, ok := members.Get("tool_calls"); ok && string(calls) != "null" {
			n += fallback(calls)
		}
	}
	return n
}

func contentTokens(content []byte) int {
	if len(content) == 0 || string(content) == "null" {
		return 0
	}
	switch content[0] {
	case '"':
		s, _ := jsonscan.String(content)
		return tokens.Count(s)
	case '[':
		blocks, _ := jsonscan.SplitArray(content)
		n := 0
		for _, b := range blocks {
			n += blockTokens(b)
		}
		return n
	default:
		return fallback(content)
	}
}

// blockTokens counts a content block. Its members are matched as
// encoding/json matches them to the fields of
//
//	struct {
//		Type    string          `json:"type"`
//		Text    *string         `json:"text"`
//		Content json.RawMessage `json:"content"`
//	}
//
// by name folding case, the last of a name written twice winning, null
// leaving the type as it was; a block that does not decode so (not an
// object, a type or text that is not a string) is counted by fallback.
func blockTokens(b []byte) int {
	members, ok := jsonscan.SplitObject(b)
	if !ok {
		return fallback(b)
	}
	var (
		typ     string
		text    []byte // the token of the text, nil when absent or null
		content []byte
	)
	for _, m := range members {
		if len(m.Value) == 0 {
			return fallback(b) // not JSON: a message FromValid was wrongly given
		}
		switch {
		case foldsTo(m.Name, "type"):
			switch m.Value[0] {
			case 'n':
			case '"':
				typ, _ = jsonscan.String(m.Value)
			default:
				return fallback(b)
			}
		case foldsTo(m.Name, "text"):
			switch m.Value[0] {
			case 'n':
				text = nil
			case '"':
				text = m.Value
			default:
				return fallback(b)
			}
		case foldsTo(m.Name, "content"):
			content = m.Value
		}
	}
	switch {
	case typ == "text" && text != nil:
		s, _ := jsonscan.String(text)
		return tokens.Count(s)
	case typ == "tool_result":
		return contentTokens(content)
	default:
		return fallback(b)
	}
}

// foldsTo reports whether a member name selects the field of that tag, as
// encoding/json matches names: exactly, or else folding case.
func foldsTo(name []byte, tag string) bool {
	return string(name) == tag || bytes.EqualFold(name, []byte(tag))
}

// fallback is ceil(length(compact JSON) / 4), lengths as in EST-2 (TOK-2).
func fallback(raw json.RawMessage) int {
	s, err := message.Compact(raw)
	if err != nil {
		return 0
	}
	return (message.Length(s) + 3) / 4
}

// Count is estimateTokenCount: the sum of MessageTokens (TOK-3).
func Count(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		n += MessageTokens(m)
	}
	return n
}

// Approaching reports whether count exceeds 80% of limit (THR-1).
func Approaching(count, limit int) bool { return 100*count > WarnPercent*limit }

// AtLimit reports whether count exceeds 95% of limit (THR-2).
func AtLimit(count, limit int) bool { return 100*count > HardPercent*limit }

// ErrInvariant is wrapped when an operation would return a conversation
// without its first message (PRN-4).
var ErrInvariant = errors.New("invariant violation")

// Prune is pruneMessages (PRN-1–PRN-5): it removes whole units, oldest
// first, after the first message's unit and before the final message's
// unit, until the count is below targetPercent of limit. removed lists the
// input positions removed.
func Prune(msgs []message.Message, limit, targetPercent int) (kept []message.Message, removed []int, err error) {
	if len(msgs) == 0 {
		return nil, nil, fmt.Errorf("%w: pruneMessages got no messages, and must never return an empty array", ErrInvariant)
	}
	if targetPercent <= 0 || targetPercent > 100 {
		return nil, nil, fmt.Errorf("target ratio must be above 0 and at most 1, got %d%%", targetPercent)
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	per := make([]int, len(msgs)) // each message counted once (PRN-5)
	total := 0
	for i, m := range msgs {
		per[i] = MessageTokens(m)
		total += per[i]
	}
	below := func() bool { return 100*total < targetPercent*limit }
	drop := make([]bool, len(msgs))
	for _, u := range units[min(1, len(units)):max(1, len(units)-1)] {
		if below() {
			break
		}
		for i := u.Start; i < u.End; i++ {
			drop[i] = true
			total -= per[i]
			removed = append(removed, i)
		}
	}
	for i, m := range msgs {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	if len(kept) == 0 { // the code-review guard; unreachable once msgs is non-empty
		return nil, nil, fmt.Errorf("%w: pruning would return no messages", ErrInvariant)
	}
	return kept, removed, nil
}

// Summarizer is summaryFn: it condenses messages into a summary text.
type Summarizer interface {
	Summarize(ctx context.Context, msgs []message.Message) (string, error)
}

// Compress is summarizeAndCompress (CMP-1, CMP-2): [first message if it is
// a system message, summary (assistant), last user prompt], with one call to
// s for the messages in between.
func Compress(ctx context.Context, msgs []message.Message, s Summarizer) ([]message.Message, error) {
	fs := fault.From(ctx)
	var sys *message.Message
	rest := msgs
	if len(msgs) > 0 && msgs[0].Class() == message.System {
		sys, rest = &msgs[0], msgs[1:]
	}
	last := -1
	for i := len(rest) - 1; i >= 0; i-- {
		if rest[i].Class() == message.UserPrompt || rest[i].Role() == "user" && fs.On(fault.CompressPromptByRole) {
			last = i
			break
		}
	}
	if len(rest) > 0 && last != len(rest)-1 && fs.On(fault.CompressKeepsLastMessage) {
		last = len(rest) - 1
	}
	compressed := slices.Clone(rest)
	if last >= 0 {
		compressed = slices.Delete(compressed, last, last+1)
	}
	text, err := s.Summarize(ctx, compressed)
	if err != nil {
		return nil, err
	}
	summary, err := message.New("assistant", text)
	if err != nil {
		return nil, err
	}
	var out []message.Message
	if sys != nil {
		out = append(out, *sys)
	}
	out = append(out, summary)
	if last >= 0 {
		out = append(out, rest[last])
	}
	return out, nil
}

// Event is something the request preparation tells the caller (PREP-2,
// PREP-3): context_window_approaching {tokenCount, limit},
// context_compressed {originalTokenCount, compressedTokenCount} or
// context_compression_failed {error}.
type Event struct {
	Name                 string `json:"event"`
	TokenCount           int    `json:"tokenCount,omitempty"`
	Limit                int    `json:"limit,omitempty"`
	OriginalTokenCount   int    `json:"originalTokenCount,omitempty"`
	CompressedTokenCount int    `json:"compressedTokenCount,omitempty"`
	Error                string `json:"error,omitempty"`
}

// Event names.
const (
	EventApproaching       = "context_window_approaching"
	EventCompressed        = "context_compressed"
	EventCompressionFailed = "context_compression_failed"
)

// ExhaustedError is ContextWindowExhaustedError (PREP-4).
type ExhaustedError struct {
	TokenCount, Limit int
	Model             string
}

func (e *ExhaustedError) Error() string {
	return fmt.Sprintf("context window exhausted: %d tokens still exceed %d%% of %s's limit of %d after compression", e.TokenCount, HardPercent, e.Model, e.Limit)
}

// Prepare is the LLMClient's check before each provider call (PREP-1–PREP-5).
func Prepare(ctx context.Context, msgs []message.Message, model string, limits Limits, s Summarizer) ([]message.Message, []Event, error) {
	fs := fault.From(ctx)
	limit, err := limits.Of(model)
	if err != nil {
		return nil, nil, err
	}
	count := Count(msgs)
	// UNIT-2: a malformed tool structure is refused whatever the count, not
	// only on the path that prunes — never passed on unchanged (PREP-1) or
	// handed to the summarizer (PREP-3).
	if _, err := message.Units(msgs); err != nil {
		if Approaching(count, limit) || !fs.On(fault.PrepareUnitsCheckedOnlyWhenPruning) {
			return nil, nil, err
		}
	}
	atWarn := 100*count == WarnPercent*limit
	switch {
	case !Approaching(count, limit) && !(atWarn && fs.On(fault.PrepareAt80Inclusive)): // PREP-1
		return slices.Clone(msgs), nil, nil
	case !AtLimit(count, limit): // PREP-2
		kept, _, err := Prune(msgs, limit, WarnPercent)
		if err != nil {
			return nil, nil, err
		}
		reported := count
		if fs.On(fault.PrepareEventCountAfterPrune) {
			reported = Count(kept)
		}
		return kept, []Event{{Name: EventApproaching, TokenCount: reported, Limit: limit}}, nil
	}
	// PREP-3: one compression; the summarizer's own call is never checked.
	compressed, err := Compress(ctx, msgs, s)
	if err != nil {
		events := []Event{{Name: EventCompressionFailed, Error: err.Error()}}
		kept, _, perr := Prune(msgs, limit, WarnPercent)
		if perr != nil {
			return nil, events, perr
		}
		if n := Count(kept); AtLimit(n, limit) && !fs.On(fault.PrepareNoRecheckAfterFailure) {
			return nil, events, &ExhaustedError{TokenCount: n, Limit: limit, Model: model}
		}
		return kept, events, nil
	}
	after := Count(compressed)
	events := []Event{{Name: EventCompressed, OriginalTokenCount: count, CompressedTokenCount: after}}
	if AtLimit(after, limit) { // PREP-4
		return nil, events, &ExhaustedError{TokenCount: after, Limit: limit, Model: model}
	}
	return compressed, events, nil
}
