// Package server puts an Engine — the reference implementation, or one of
// the faulty variants in package mutants — behind wire protocol v1. The same
// Handler answers in-process calls and the stdio loop of `conform serve`, so
// the in-process target and the wire exercise one code path.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// Engine is what a server serves: its name and the capabilities it
// declares. What it does for a capability is an interface of that
// capability's own — WindowEngine, SummarizeEngine, HistoryEngine,
// TokensEngine, BudgetEngine, ConfigEngine, LoopEngine, TrimmerEngine —
// so that a capability's methods are added in one place, and the Handler
// answers a method only for an engine that implements its capability's
// interface (method_not_found otherwise).
type Engine interface {
	// Name identifies the engine in the handshake.
	Name() string
	// Capabilities are declared in the handshake.
	Capabilities() []string
}

// WindowEngine serves capability window: windows and their estimate.
type WindowEngine interface {
	// NewWindow creates a window from a ConversationHistoryConfig document
	// (nil when absent) and returns its effective config and warnings.
	NewWindow(config json.RawMessage) (Window, window.Config, []window.Warning, error)
	// EstimateTokens is the window's token estimate.
	EstimateTokens(msgs []message.Message) int
}

// SummarizeEngine serves capability summarize.
type SummarizeEngine interface {
	// Summarize is the window's summarize method.
	Summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error)
}

// HistoryEngine serves capability history.
type HistoryEngine interface {
	// Classify gives each message's class and the conversation's units.
	Classify(msgs []message.Message) ([]message.Class, []message.Unit, error)
	// Prune removes orphaned user prompts.
	Prune(msgs []message.Message) (kept []message.Message, removed []int)
	// Build prepares history for a model call.
	Build(msgs []message.Message, maxMessages int) (history.Result, error)
}

// Window is a stateful window addressed by a handle. s is nil when the
// request provides no summarizer.
type Window interface {
	TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error)
}

// Reference is the reference implementation as an Engine. Faults turns on
// fault points of the reference (D-68) for the operations that take a
// context, the catalogue of faulty variants' way of being the reference
// with one line changed; the zero Reference is the reference.
type Reference struct {
	Faults fault.Set
}

// with is ctx carrying the Reference's fault points to the reference.
func (r Reference) with(ctx context.Context) context.Context {
	if r.Faults.Empty() {
		return ctx
	}
	return fault.With(ctx, r.Faults)
}

// Name implements Engine.
func (Reference) Name() string { return "convspec-reference" }

// Capabilities implements Engine.
func (Reference) Capabilities() []string {
	return protocol.Capabilities()
}

// Summarize implements SummarizeEngine.
func (r Reference) Summarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	return window.Summarize(r.with(ctx), msgs, s)
}

// NewWindow implements WindowEngine.
func (r Reference) NewWindow(config json.RawMessage) (Window, window.Config, []window.Warning, error) {
	w, cfg, warnings, err := NewWindowFrom(window.ParseConfig(config))
	if err != nil || r.Faults.Empty() {
		return w, cfg, warnings, err
	}
	return faultyWindow{w: w, r: r}, cfg, warnings, nil
}

// faultyWindow is a reference window whose trims see the Reference's
// fault points.
type faultyWindow struct {
	w Window
	r Reference
}

func (f faultyWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	return f.w.TrimWith(f.r.with(ctx), msgs, s)
}

// NewWindowFrom is the reference's window for a parsed configuration, or
// the error of parsing it: NewWindow, for an engine that parses the
// configuration its own way.
func NewWindowFrom(cfg window.Config, err error) (Window, window.Config, []window.Warning, error) {
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	w, err := window.New(cfg)
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	return w, cfg, cfg.Warnings(), nil
}

// EstimateTokens implements WindowEngine.
func (Reference) EstimateTokens(msgs []message.Message) int { return window.EstimateTokens(msgs) }

// Classify implements HistoryEngine.
func (Reference) Classify(msgs []message.Message) ([]message.Class, []message.Unit, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	classes := make([]message.Class, len(msgs))
	for i, m := range msgs {
		classes[i] = m.Class()
	}
	return classes, units, nil
}

// Prune implements HistoryEngine.
func (Reference) Prune(msgs []message.Message) ([]message.Message, []int) { return history.Prune(msgs) }

// Build implements HistoryEngine.
func (Reference) Build(msgs []message.Message, maxMessages int) (history.Result, error) {
	return history.Build(msgs, maxMessages)
}

// Version is reported in the handshake.
const Version = "0.1.0"

// Handler dispatches protocol requests to an Engine. It is safe for
// concurrent use; window handles live as long as the Handler.
type Handler struct {
	engine Engine

	methods map[string]method

	windows Handles[Window]

	// declaredTrimmers is readTrimmers, called once.
	declaredTrimmers func() []Trimmer
}

// method answers one method's params.
type method func(ctx context.Context, params json.RawMessage) (any, error)

// withoutContext is a method that does not call back into the caller,
// taking what precedes its params (nothing, or its capability's engine).
func withoutContext[A any](f func(A, json.RawMessage) (any, error)) func(context.Context, A, json.RawMessage) (any, error) {
	return func(_ context.Context, a A, params json.RawMessage) (any, error) { return f(a, params) }
}

// serving is a method of the capability whose engine interface is E: f
// answers it with the engine as an E, and an engine that is not one
// answers method_not_found, saying that it has no what, whatever the
// params.
func serving[E any](h *Handler, what string, f func(context.Context, E, json.RawMessage) (any, error)) method {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		e, ok := h.engine.(E)
		if !ok {
			return nil, protocol.NewError(protocol.KindMethodNotFound, "this implementation has no %s", what)
		}
		return f(ctx, e, params)
	}
}

// NewHandler serves engine.
func NewHandler(engine Engine) *Handler {
	h := &Handler{engine: engine}
	h.declaredTrimmers = sync.OnceValue(h.readTrimmers)
	h.methods = map[string]method{
		protocol.MethodInitialize:      func(_ context.Context, params json.RawMessage) (any, error) { return h.initialize(params) },
		protocol.MethodShutdown:        func(context.Context, json.RawMessage) (any, error) { return nil, nil },
		protocol.MethodWindowCreate:    serving(h, "windows", withoutContext(h.windowCreate)),
		protocol.MethodWindowTrim:      serving(h, "windows", h.windowTrim),
		protocol.MethodWindowEstimate:  serving(h, "windows", withoutContext(h.windowEstimate)),
		protocol.MethodWindowSummarize: serving(h, "summarizing", h.windowSummarize),
		protocol.MethodTokensEncode:    serving(h, "tokenizer", withoutContext(h.tokensEncode)),
		protocol.MethodBudgetCount:     serving(h, "token budget", withoutContext(h.budgetCount)),
		protocol.MethodBudgetCheck:     serving(h, "token budget", withoutContext(h.budgetCheck)),
		protocol.MethodBudgetPrune:     serving(h, "token budget", withoutContext(h.budgetPrune)),
		protocol.MethodBudgetCompress:  serving(h, "token budget", h.budgetCompress),
		protocol.MethodBudgetPrepare:   serving(h, "token budget", h.budgetPrepare),
		protocol.MethodHistoryClassify: serving(h, "history", withoutContext(h.historyClassify)),
		protocol.MethodHistoryPrune:    serving(h, "history", withoutContext(h.historyPrune)),
		protocol.MethodHistoryBuild:    serving(h, "history", withoutContext(h.historyBuild)),
		protocol.MethodConfigResolve:   serving(h, "configuration resolver", withoutContext(h.configResolve)),
		protocol.MethodLoopRun:         serving(h, "provider loop", h.loopRun),
		protocol.MethodTrimmerTrim:     serving(h, "trimmers", withoutContext(h.trimmerTrim)),
		protocol.MethodTrimmerCount:    serving(h, "trimmers", withoutContext(h.trimmerCount)),
	}
	return h
}

// Handle answers one request; the error, when not nil, is a *protocol.Error.
// A panic in the engine becomes an internal_error: a server never crashes
// on its input.
func (h *Handler) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	if len(params) > 0 && !jsonscan.Valid(params) {
		params = notJSON
	}
	return h.handle(ctx, method, params)
}

// notJSON stands for params that are not JSON, which Handle alone sees
// (a request line is checked whole before its params are read): every
// method that reads params refuses them as decodeParams refuses any that
// are not an object, and the methods read them as valid JSON.
var notJSON = json.RawMessage("[]")

// handle is Handle for params that are valid JSON.
func (h *Handler) handle(ctx context.Context, method string, params json.RawMessage) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			result, err = nil, protocol.NewError(protocol.KindInternalError, "panic in %s: %v\n%s", method, p, debug.Stack())
		}
	}()
	handle, ok := h.methods[method]
	if !ok {
		return nil, protocol.NewError(protocol.KindMethodNotFound, "unknown method %q", method)
	}
	return handle(ctx, params)
}

func (h *Handler) initialize(params json.RawMessage) (any, error) {
	// protocol is a number read exactly, as every count is: JSON does not
	// tell 1.0 from 1, so both are protocol 1 (D-3, D-48)
	var p struct {
		Protocol protocol.Count `json:"protocol"`
	}
	if err := decodeParams(params, &p, "protocol"); err != nil {
		return nil, err
	}
	if p.Protocol != protocol.Version {
		return nil, protocol.NewError(protocol.KindInvalidParams, "protocol %d is not supported; this implementation speaks protocol %d", p.Protocol, protocol.Version)
	}
	return protocol.InitializeResult{
		Protocol:       protocol.Version,
		Implementation: protocol.Implementation{Name: h.engine.Name(), Version: Version},
		Capabilities:   h.engine.Capabilities(),
		Trimmers:       h.trimmerDecls(),
	}, nil
}

func (h *Handler) windowCreate(we WindowEngine, params json.RawMessage) (any, error) {
	var p protocol.WindowCreateParams
	if err := decodeParams(params, &p); err != nil {
		return nil, err
	}
	w, cfg, warnings, err := we.NewWindow(p.Config)
	if err != nil {
		return nil, asProtocolError(err)
	}
	id := h.windows.Add(w)
	return protocol.WindowCreateResult{
		Window:   id,
		Config:   protocol.WindowConfig(cfg),
		Warnings: wireWarnings(warnings),
	}, nil
}

func (h *Handler) windowTrim(ctx context.Context, _ WindowEngine, params json.RawMessage) (any, error) {
	var p protocol.WindowTrimParams
	if err := decodeParams(params, &p, "window", "messages"); err != nil {
		return nil, err
	}
	w, err := h.windows.Get(p.Window)
	if err != nil {
		return nil, err
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	script, err := scripted(p.Summarizer, false)
	if err != nil {
		return nil, err
	}
	var summarizer window.Summarizer // stays nil, not a typed nil, without a script
	if script != nil {
		summarizer = script
	}
	res, err := w.TrimWith(ctx, msgs, summarizer)
	if err != nil {
		return nil, asProtocolError(err)
	}
	out := protocol.WindowTrimResult{
		Trimmed:         rawMessages(res.Trimmed),
		Evicted:         rawMessages(res.Evicted),
		Metrics:         protocol.Metrics(res.Metrics),
		Warnings:        wireWarnings(res.Warnings),
		Summary:         json.RawMessage("null"),
		SummarizerCalls: wireCalls(res.SummarizerCalls),
	}
	if res.Summary != nil {
		out.Summary = res.Summary.Raw()
	}
	return out, nil
}

func (h *Handler) windowSummarize(ctx context.Context, se SummarizeEngine, params json.RawMessage) (any, error) {
	var p protocol.WindowSummarizeParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages", "summarizer")
	if err != nil {
		return nil, err
	}
	s, err := scripted(p.Summarizer, true)
	if err != nil {
		return nil, err
	}
	summary, err := se.Summarize(ctx, msgs, s)
	if err != nil {
		return nil, protocol.NewError(protocol.KindSummarizer, "%v", err)
	}
	return protocol.WindowSummarizeResult{Summary: summary, SummarizerCalls: wireCalls(s.calls)}, nil
}

func (h *Handler) windowEstimate(we WindowEngine, params json.RawMessage) (any, error) {
	var p protocol.WindowEstimateParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages")
	if err != nil {
		return nil, err
	}
	return protocol.WindowEstimateResult{Tokens: we.EstimateTokens(msgs)}, nil
}

func (h *Handler) historyClassify(he HistoryEngine, params json.RawMessage) (any, error) {
	var p protocol.HistoryClassifyParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages")
	if err != nil {
		return nil, err
	}
	classes, units, err := he.Classify(msgs)
	if err != nil {
		return nil, asProtocolError(err)
	}
	res := protocol.HistoryClassifyResult{Classes: make([]string, len(classes)), Units: make([][2]int, len(units))}
	for i, c := range classes {
		res.Classes[i] = string(c)
	}
	for i, u := range units {
		res.Units[i] = [2]int{u.Start, u.End}
	}
	return res, nil
}

func (h *Handler) historyPrune(he HistoryEngine, params json.RawMessage) (any, error) {
	var p protocol.HistoryPruneParams
	msgs, err := decodeWithMessages(params, &p, &p.Messages, "messages")
	if err != nil {
		return nil, err
	}
	kept, removed := he.Prune(msgs)
	if removed == nil {
		removed = []int{}
	}
	return protocol.HistoryPruneResult{Messages: rawMessages(kept), Removed: removed}, nil
}

func (h *Handler) historyBuild(he HistoryEngine, params json.RawMessage) (any, error) {
	var p protocol.HistoryBuildParams
	if err := decodeParams(params, &p, "messages", "max_messages"); err != nil {
		return nil, err
	}
	max, err := window.ParseCount("max_messages", p.MaxMessages)
	if err != nil {
		var ce *window.ConfigError
		errors.As(err, &ce)
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.max_messages: %s", ce.Reason)
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	res, err := he.Build(msgs, max)
	if err != nil {
		return nil, asProtocolError(err)
	}
	out := protocol.HistoryBuildResult{Messages: rawMessages(res.Messages), Warnings: make([]protocol.Repair, len(res.Warnings))}
	for i, w := range res.Warnings {
		out.Warnings[i] = protocol.Repair(w)
	}
	return out, nil
}

// asProtocolError maps the reference's typed errors to error kinds.
func asProtocolError(err error) error {
	switch {
	case errors.Is(err, message.ErrInvalid):
		return protocol.NewError(protocol.KindInvalidMessage, "%v", err)
	case errors.Is(err, window.ErrInvalidConfig):
		return protocol.NewError(protocol.KindInvalidConfig, "%v", err)
	case errors.Is(err, budget.ErrUnknownModel):
		return protocol.NewError(protocol.KindUnknownModel, "%v", err)
	case errors.Is(err, budget.ErrInvariant):
		return protocol.NewError(protocol.KindInvariant, "%v", err)
	default:
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return pe
		}
		return protocol.NewError(protocol.KindInternalError, "%v", err)
	}
}

func rawMessages(msgs []message.Message) []json.RawMessage {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		out[i] = m.Raw()
	}
	return out
}

func wireCalls(calls []window.SummarizerCall) []protocol.SummarizerCall {
	out := make([]protocol.SummarizerCall, len(calls))
	for i, c := range calls {
		out[i] = protocol.SummarizerCall(c)
	}
	return out
}

func wireWarnings(ws []window.Warning) []protocol.Warning {
	out := make([]protocol.Warning, len(ws))
	for i, w := range ws {
		out[i] = protocol.Warning(w)
	}
	return out
}

// String describes the handler for logs.
func (h *Handler) String() string { return fmt.Sprintf("server(%s)", h.engine.Name()) }
