package server

// The reference's own trimmers served as capability trimmer (ANY-10,
// D-35): the sliding window (in two configurations), history.build and
// budget.prune, each behind a
// thin adapter from trimmer.trim's (messages, limit) to its own parameters,
// each declaring the guarantees it keeps.

import (
	"encoding/json"
	"errors"
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// Trimmer is one trimmer of capability trimmer: its declaration and the
// function that trims to a limit.
type Trimmer struct {
	Decl protocol.TrimmerDecl
	Trim func(msgs []message.Message, limit int) ([]message.Message, error)
	// Count is the native counter of a trimmer declared with counter
	// "native" (trimmer.count, D-60); nil otherwise.
	Count func(msgs []message.Message) (int, error)
}

// TrimmerEngine is an Engine that serves capability trimmer. A Handler
// asks it for its trimmers once, as the handshake declares them once.
type TrimmerEngine interface {
	Trimmers() []Trimmer
}

// Trimmers implements TrimmerEngine: the reference's own trimmers and the
// model trimmers of the second declaration (D-60), so that every promise
// the vocabulary can state is served by a trimmer that keeps it.
func (Reference) Trimmers() []Trimmer { return append(ReferenceTrimmers(), ModelTrimmers()...) }

// Names of the reference trimmers.
const (
	TrimmerWindow   = "window"
	TrimmerExchange = "window.exchange"
	TrimmerBuild    = "history.build"
	TrimmerPrune    = "budget.prune"
)

// ReferenceTrimmers are the reference's trimmers, each claiming exactly
// what its clauses guarantee:
//
//   - window: a window of max_messages = limit that preserves the leading
//     system messages (preserve_first_n = their number, preserve_last_n 0);
//     when they fill the cap only they are kept (WIN-3), which is the
//     floor of ANY-6. Limit 0 is not max_messages 0, which disables the
//     window (CFG-5): the adapter returns the leading system messages,
//     what WIN-3 keeps with max_messages = preserve_first_n.
//   - window.exchange: the window that also preserves the current
//     exchange — preserve_last_n from the latest user prompt to the end,
//     or the last unit when there is no prompt —
//     as a provider loop uses it. It keeps the latest prompt and the last
//     unit, and no bound: the preserved head and tail may fill the cap
//     (WIN-3), and limit 0 is max_messages 0, no trimming (CFG-5).
//   - history.build: max_messages = limit minus the leading system
//     messages, at least 1, so that the system messages count too
//     (BUILD-3, BUILD-4), counted after repair and pruning. Not fits: build prunes orphaned prompts even
//     under the limit (BUILD-1). No bound: a system message that pruning
//     makes leading (user, system, user loses its first prompt) is kept
//     beyond the limit.
//   - budget.prune: cl100k tokens, pruned below limit + 1 at ratio 1, so
//     that the count ends at most limit (PRN-1); the empty conversation,
//     which PRN-4 refuses, is returned empty. No bound and no system: the
//     first unit is kept whatever it is, a second system message is not
//     (PRN-2).
func ReferenceTrimmers() []Trimmer {
	g := func(gs ...string) []string { return gs }
	return []Trimmer{
		{
			Decl: protocol.TrimmerDecl{Name: TrimmerWindow, Bound: protocol.BoundMessages,
				Guarantees: g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeSystem,
					protocol.GuaranteeBound, protocol.GuaranteeFits, protocol.GuaranteeIdempotent, protocol.GuaranteeTotal)},
			Trim: WindowTrimmer,
		},
		{
			Decl: protocol.TrimmerDecl{Name: TrimmerExchange, Bound: protocol.BoundMessages,
				Guarantees: g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeSystem,
					protocol.GuaranteeLastPrompt, protocol.GuaranteeLastUnit, protocol.GuaranteeFits,
					protocol.GuaranteeIdempotent, protocol.GuaranteeTotal)},
			Trim: ExchangeTrimmer,
		},
		{
			Decl: protocol.TrimmerDecl{Name: TrimmerBuild, Bound: protocol.BoundMessages,
				Guarantees: g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeSystem,
					protocol.GuaranteeLastUnit, protocol.GuaranteeIdempotent, protocol.GuaranteeTotal)},
			Trim: BuildTrimmer,
		},
		{
			Decl: protocol.TrimmerDecl{Name: TrimmerPrune, Bound: protocol.BoundTokens, Counter: protocol.CounterCl100k,
				Guarantees: g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeLastUnit,
					protocol.GuaranteeFits, protocol.GuaranteeIdempotent, protocol.GuaranteeTotal)},
			Trim: PruneTrimmer,
		},
	}
}

// LeadingSystem is the number of system messages before the first message
// of another class (ANY-3).
func LeadingSystem(msgs []message.Message) int {
	n := 0
	for n < len(msgs) && msgs[n].Class() == message.System {
		n++
	}
	return n
}

// WindowTrimmer is the window as a trimmer.
func WindowTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	lead := LeadingSystem(msgs)
	if limit == 0 {
		if _, err := message.Units(msgs); err != nil {
			return nil, err // refused as the window refuses it (UNIT-2)
		}
		return msgs[:lead], nil
	}
	w, err := window.New(window.Config{MaxMessages: limit, PreserveFirstN: lead})
	if err != nil {
		return nil, err
	}
	res, err := w.Trim(msgs)
	return res.Trimmed, err
}

// ExchangeTrimmer is the window preserving the system prompt and the
// current exchange.
func ExchangeTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	tail := min(1, len(msgs)) // without a user prompt, the last unit (WIN-9 extends it)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Class() == message.UserPrompt {
			tail = len(msgs) - i
			break
		}
	}
	w, err := window.New(window.Config{MaxMessages: limit, PreserveFirstN: LeadingSystem(msgs), PreserveLastN: tail})
	if err != nil {
		return nil, err
	}
	res, err := w.Trim(msgs)
	return res.Trimmed, err
}

// BuildTrimmer is history.build as a trimmer.
func BuildTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	// The system messages that lead once build has repaired and pruned
	// (BUILD-1) are the ones it keeps outside max_messages.
	sane, _ := history.Sanitize(msgs)
	pruned, _ := history.Prune(sane)
	res, err := history.Build(msgs, max(1, limit-LeadingSystem(pruned)))
	return res.Messages, err
}

// PruneTrimmer is budget.prune as a trimmer.
func PruneTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	if len(msgs) == 0 {
		return []message.Message{}, nil
	}
	kept, _, err := budget.Prune(msgs, limit+1, 100)
	return kept, err
}

// trimmers are the engine's declared trimmers, read once per Handler: the
// handshake declares them once for the whole session (D-90), and building
// them afresh for each trimmer.trim and trimmer.count was a twentieth of
// what a run's requests cost the server.
func (h *Handler) trimmers() []Trimmer { return h.declaredTrimmers() }

// readTrimmers asks the engine for its trimmers, when it serves them.
func (h *Handler) readTrimmers() []Trimmer {
	te, ok := h.engine.(TrimmerEngine)
	if !ok || !slices.Contains(h.engine.Capabilities(), protocol.CapTrimmer) {
		return nil
	}
	return te.Trimmers()
}

func (h *Handler) trimmerDecls() []protocol.TrimmerDecl {
	var out []protocol.TrimmerDecl
	for _, t := range h.trimmers() {
		out = append(out, t.Decl)
	}
	return out
}

func (h *Handler) trimmerTrim(_ TrimmerEngine, params json.RawMessage) (any, error) {
	var p protocol.TrimmerTrimParams
	if err := decodeParams(params, &p, "trimmer", "messages", "limit"); err != nil {
		return nil, err
	}
	t, err := h.trimmer(p.Trimmer)
	if err != nil {
		return nil, err
	}
	trim := t.Trim
	limit, err := window.ParseCount("limit", p.Limit)
	if err != nil {
		var ce *window.ConfigError
		if errors.As(err, &ce) {
			return nil, protocol.NewError(protocol.KindInvalidParams, "params.limit: %s", ce.Reason)
		}
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.limit: %v", err)
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	kept, err := trim(msgs, limit)
	if err != nil {
		return nil, asProtocolError(err)
	}
	return protocol.TrimmerTrimResult{Messages: rawMessages(kept)}, nil
}

// trimmer is the declared trimmer of that name, or invalid_params.
func (h *Handler) trimmer(name string) (Trimmer, error) {
	for _, t := range h.trimmers() {
		if t.Decl.Name == name {
			return t, nil
		}
	}
	return Trimmer{}, protocol.NewError(protocol.KindInvalidParams, "params.trimmer: no trimmer %q was declared", name)
}

// trimmerCount answers trimmer.count with the trimmer's native counter.
func (h *Handler) trimmerCount(_ TrimmerEngine, params json.RawMessage) (any, error) {
	var p protocol.TrimmerCountParams
	if err := decodeParams(params, &p, "trimmer", "messages"); err != nil {
		return nil, err
	}
	t, err := h.trimmer(p.Trimmer)
	if err != nil {
		return nil, err
	}
	if t.Count == nil {
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.trimmer: trimmer %q declares no native counter", p.Trimmer)
	}
	msgs, err := message.FromValid(p.Messages)
	if err != nil {
		return nil, asProtocolError(err)
	}
	n, err := t.Count(msgs)
	if err != nil {
		return nil, asProtocolError(err)
	}
	return protocol.TrimmerCountResult{Count: n}, nil
}
