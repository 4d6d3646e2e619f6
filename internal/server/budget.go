package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/exactnum"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// TokensEngine serves capability tokens: the cl100k ids of a text.
type TokensEngine interface {
	EncodeTokens(text string) []int
}

// BudgetEngine serves capability budget: counts, limits, thresholds,
// pruning, compression and preparation of a request.
type BudgetEngine interface {
	MessageTokens(m message.Message) int
	Limits(extra map[string]int) (budget.Limits, error)
	Approaching(count, limit int) bool
	AtLimit(count, limit int) bool
	PruneBudget(msgs []message.Message, limit, targetPercent int) ([]message.Message, []int, error)
	Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error)
	Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error)
}

// EncodeTokens implements TokensEngine.
func (Reference) EncodeTokens(text string) []int { return tokens.Encode(text) }

// MessageTokens implements BudgetEngine.
func (Reference) MessageTokens(m message.Message) int { return budget.MessageTokens(m) }

// Limits implements BudgetEngine.
func (Reference) Limits(extra map[string]int) (budget.Limits, error) { return budget.NewLimits(extra) }

// Approaching implements BudgetEngine.
func (Reference) Approaching(count, limit int) bool { return budget.Approaching(count, limit) }

// AtLimit implements BudgetEngine.
func (Reference) AtLimit(count, limit int) bool { return budget.AtLimit(count, limit) }

// PruneBudget implements BudgetEngine.
func (Reference) PruneBudget(msgs []message.Message, limit, targetPercent int) ([]message.Message, []int, error) {
	return budget.Prune(msgs, limit, targetPercent)
}

// Compress implements BudgetEngine.
func (r Reference) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	return budget.Compress(r.with(ctx), msgs, s)
}

// Prepare implements BudgetEngine.
func (r Reference) Prepare(ctx context.Context, msgs []message.Message, model string, limits budget.Limits, s budget.Summarizer) ([]message.Message, []budget.Event, error) {
	return budget.Prepare(r.with(ctx), msgs, model, limits, s)
}

func (h *Handler) tokensEncode(b TokensEngine, params json.RawMessage) (any, error) {
	var p protocol.TokensEncodeParams
	if err := decodeParams(params, &p, "text"); err != nil {
		return nil, err
	}
	if err := requireUTF8String(params, "text"); err != nil {
		return nil, err
	}
	ids := b.EncodeTokens(p.Text)
	if ids == nil {
		ids = []int{}
	}
	return protocol.TokensEncodeResult{Tokens: ids, Count: len(ids)}, nil
}

func (h *Handler) budgetCount(b BudgetEngine, params json.RawMessage) (any, error) {
	var p protocol.BudgetCountParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages")
	if err != nil {
		return nil, err
	}
	return countTokens(b, msgs), nil
}

// countTokens counts each message with the engine, once, and adds them up
// (TOK-2, TOK-3): budget.count and budget.check count alike.
func countTokens(b BudgetEngine, msgs []message.Message) protocol.BudgetCountResult {
	res := protocol.BudgetCountResult{PerMessage: make([]int, len(msgs))}
	for i, m := range msgs {
		res.PerMessage[i] = b.MessageTokens(m)
		res.Tokens += res.PerMessage[i]
	}
	return res
}

// limitOf resolves the model's limit with the request's extra limits.
func limitOf(b BudgetEngine, model string, counts map[string]protocol.Count) (budget.Limits, int, error) {
	if model == "" {
		return nil, 0, protocol.NewError(protocol.KindInvalidParams, "params.model is missing")
	}
	var extra map[string]int
	if counts != nil {
		extra = make(map[string]int, len(counts))
		for name, n := range counts {
			extra[name] = int(n)
		}
	}
	limits, err := b.Limits(extra)
	if err != nil {
		return nil, 0, protocol.NewError(protocol.KindInvalidParams, "params.%v", err)
	}
	n, err := limits.Of(model)
	if err != nil {
		return nil, 0, asProtocolError(err)
	}
	return limits, n, nil
}

func (h *Handler) budgetCheck(b BudgetEngine, params json.RawMessage) (any, error) {
	var p protocol.BudgetCheckParams
	if err := decodeParams(params, &p, "messages", "model"); err != nil {
		return nil, err
	}
	_, limit, err := limitOf(b, p.Model, p.Limits)
	if err != nil {
		return nil, err
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	n := countTokens(b, msgs).Tokens
	return protocol.BudgetCheckResult{Tokens: n, Limit: limit, Approaching: b.Approaching(n, limit), AtLimit: b.AtLimit(n, limit)}, nil
}

func (h *Handler) budgetPrune(b BudgetEngine, params json.RawMessage) (any, error) {
	var p protocol.BudgetPruneParams
	if err := decodeParams(params, &p, "messages", "model"); err != nil {
		return nil, err
	}
	_, limit, err := limitOf(b, p.Model, p.Limits)
	if err != nil {
		return nil, err
	}
	percent := budget.WarnPercent
	if len(p.TargetRatio) > 0 && string(p.TargetRatio) != "null" {
		// Read exactly from its decimal text, as counts are (exactnum):
		// 0.8000000000000001 has more than two decimals, whatever a
		// float64 makes of it.
		hundredths, err := exactnum.Scaled(string(bytes.TrimSpace(p.TargetRatio)), 2)
		if err != nil || hundredths < 1 || hundredths > 100 {
			return nil, protocol.NewError(protocol.KindInvalidParams, "params.target_ratio must be a number above 0 and at most 1 with at most two decimals, got %s", p.TargetRatio)
		}
		percent = int(hundredths)
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	kept, removed, err := b.PruneBudget(msgs, limit, percent)
	if err != nil {
		return nil, asProtocolError(err)
	}
	if removed == nil {
		removed = []int{}
	}
	return protocol.BudgetPruneResult{Messages: rawMessages(kept), Removed: removed}, nil
}

func (h *Handler) budgetCompress(ctx context.Context, b BudgetEngine, params json.RawMessage) (any, error) {
	var p protocol.BudgetCompressParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages", "summarizer")
	if err != nil {
		return nil, err
	}
	s, err := budgetScripted(p.Summarizer)
	if err != nil {
		return nil, err
	}
	out, err := b.Compress(ctx, msgs, s)
	if err != nil {
		return nil, protocol.NewError(protocol.KindSummarizer, "%v", err)
	}
	return protocol.BudgetCompressResult{Messages: rawMessages(out), SummarizerCalls: s.recorded()}, nil
}

func (h *Handler) budgetPrepare(ctx context.Context, b BudgetEngine, params json.RawMessage) (any, error) {
	var p protocol.BudgetPrepareParams
	if err := decodeParams(params, &p, "messages", "model", "summarizer"); err != nil {
		return nil, err
	}
	limits, _, err := limitOf(b, p.Model, p.Limits)
	if err != nil {
		return nil, err
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	s, err := budgetScripted(p.Summarizer)
	if err != nil {
		return nil, err
	}
	out, events, err := b.Prepare(ctx, msgs, p.Model, limits, s)
	if err != nil {
		var ex *budget.ExhaustedError
		if errors.As(err, &ex) {
			pe := protocol.NewError(protocol.KindWindowExhausted, "%v", err)
			calls := len(s.recorded())
			pe.Data.TokenCount, pe.Data.Limit, pe.Data.Model, pe.Data.SummarizerCalls = &ex.TokenCount, &ex.Limit, ex.Model, &calls
			return nil, pe
		}
		return nil, asProtocolError(err)
	}
	res := protocol.BudgetPrepareResult{Messages: rawMessages(out), Events: make([]protocol.Event, len(events)), SummarizerCalls: s.recorded()}
	for i, e := range events {
		res.Events[i] = wireEvent(e)
	}
	return res, nil
}

func wireEvent(e budget.Event) protocol.Event {
	ptr := func(n int) *int { return &n }
	out := protocol.Event{Event: e.Name, Error: e.Error}
	switch e.Name {
	case budget.EventApproaching:
		out.TokenCount, out.Limit = ptr(e.TokenCount), ptr(e.Limit)
	case budget.EventCompressed:
		out.OriginalTokenCount, out.CompressedTokenCount = ptr(e.OriginalTokenCount), ptr(e.CompressedTokenCount)
	}
	return out
}

// budgetSummarizer plays a script as summaryFn and records each call.
type budgetSummarizer struct {
	text  *scriptedSummarizer
	mu    sync.Mutex
	calls []protocol.BudgetSummarizerCall
}

func budgetScripted(s *protocol.SummarizerScript) (*budgetSummarizer, error) {
	text, err := scripted(s, true)
	if err != nil {
		return nil, err
	}
	return &budgetSummarizer{text: text}, nil
}

// Summarize implements budget.Summarizer.
func (b *budgetSummarizer) Summarize(ctx context.Context, msgs []message.Message) (string, error) {
	b.mu.Lock()
	b.calls = append(b.calls, protocol.BudgetSummarizerCall{Messages: rawMessages(msgs)})
	b.mu.Unlock()
	return b.text.Call(ctx, "", 0)
}

func (b *budgetSummarizer) recorded() []protocol.BudgetSummarizerCall {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]protocol.BudgetSummarizerCall{}, b.calls...)
}
