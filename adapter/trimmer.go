package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/trimdecl"
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
)

// Trimmer is one trimmer of capability trimmer (SPEC §8d): its declaration
// in the handshake (name, bound, counter for a token bound, formats, the
// guarantees it claims; ANY-10) and the function trimmer.trim calls.
// Giving an Implementation any Trimmers declares the capability.
type Trimmer struct {
	protocol.TrimmerDecl
	// Trim keeps what it keeps of messages under limit (a count, ANY-6):
	// input messages, returned as given (MSG-2).
	Trim func(ctx context.Context, messages []json.RawMessage, limit int) ([]json.RawMessage, error)
	// NativeCount is the library's own count of messages, given exactly
	// when the declaration's counter is "native" (version 2, D-60): it
	// answers trimmer.count, and the harness checks the bound with it and
	// checks it for sanity (ANY-13).
	NativeCount func(ctx context.Context, messages []json.RawMessage) (int, error)
}

// Count is the count of messages by t's bound (ANY-6): the number of
// messages, or the sum of each message's tokens by t's counter — Chars4 or
// Cl100k — or as the second declaration's count says. A message that
// cannot be read counts 0, and so does every list for a native counter,
// which only NativeCount knows.
func (t Trimmer) Count(messages []json.RawMessage) int {
	return trimout.Count(t.TrimmerDecl, messages)
}

// Chars4 is a message's chars4 count (ANY-6): ⌈c / 4⌉ with c the
// characters of its content as EST-2 – EST-5 count them (UTF-16 code units;
// other content in its compact JSON form; absent or null content 0).
func Chars4(m json.RawMessage) (int, error) {
	msg, err := message.Parse(m)
	if err != nil {
		return 0, err
	}
	return (msg.ContentLength() + 3) / 4, nil
}

// Cl100k is a message's cl100k count (TOK-2), as budget.count reports it.
func Cl100k(m json.RawMessage) (int, error) {
	msg, err := message.Parse(m)
	if err != nil {
		return 0, err
	}
	return budget.MessageTokens(msg), nil
}

// checkDeclarations checks the handshake's declarations when the adapter
// starts, so that a wrong one is its author's error at once rather than a
// protocol error in the run (D-42, ANY-10).
func (i Implementation) checkDeclarations() error {
	for _, d := range []struct {
		what  string
		names []string
		known []string
	}{{"Levels", i.Levels, protocol.Levels()}, {"Formats", i.Formats, protocol.Formats()}} {
		if d.names == nil {
			continue
		}
		if len(d.names) == 0 {
			return fmt.Errorf("adapter: Implementation.%s is empty: leave it nil to declare all of %v", d.what, d.known)
		}
		for _, n := range d.names {
			if !slices.Contains(d.known, n) {
				return fmt.Errorf("adapter: Implementation.%s: unknown %q (known: %v)", d.what, n, d.known)
			}
		}
	}
	if len(i.Trimmers) == 0 {
		return nil
	}
	if err := trimdecl.CheckTrimmers([]string{protocol.CapTrimmer}, i.decls()); err != nil {
		return fmt.Errorf("adapter: Implementation.Trimmers: %w", err)
	}
	for k, t := range i.Trimmers {
		switch {
		case t.Trim == nil:
			return fmt.Errorf("adapter: Implementation.Trimmers[%d] (%s) has no Trim function", k, t.Name)
		case t.Counter == protocol.CounterNative && t.NativeCount == nil:
			return fmt.Errorf("adapter: Implementation.Trimmers[%d] (%s) declares counter %q but has no NativeCount function", k, t.Name, protocol.CounterNative)
		case t.Counter != protocol.CounterNative && t.NativeCount != nil:
			return fmt.Errorf("adapter: Implementation.Trimmers[%d] (%s) has a NativeCount function, but its counter is not %q", k, t.Name, protocol.CounterNative)
		}
	}
	return nil
}

func (i Implementation) decls() []protocol.TrimmerDecl {
	out := make([]protocol.TrimmerDecl, len(i.Trimmers))
	for k, t := range i.Trimmers {
		out[k] = t.TrimmerDecl
		out[k].Guarantees = nonNil(t.Guarantees)
	}
	return out
}

func (d *dispatcher) trimmerTrim(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.TrimmerTrimParams
	if err := server.DecodeParams(params, &p, "trimmer", "messages", "limit"); err != nil {
		return nil, err
	}
	var trim *Trimmer
	for k := range d.impl.Trimmers {
		if d.impl.Trimmers[k].Name == p.Trimmer {
			trim = &d.impl.Trimmers[k]
		}
	}
	if trim == nil {
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.trimmer: no trimmer %q was declared", p.Trimmer)
	}
	limit, err := count("limit", p.Limit)
	if err != nil {
		return nil, err
	}
	if _, err := message.FromRaw(p.Messages); err != nil {
		if errors.Is(err, message.ErrInvalid) {
			return nil, protocol.NewError(protocol.KindInvalidMessage, "%v", err)
		}
		return nil, err
	}
	kept, err := trim.Trim(ctx, p.Messages, limit)
	if err != nil {
		return nil, err
	}
	return protocol.TrimmerTrimResult{Messages: nonNil(kept)}, nil
}

func (d *dispatcher) trimmerCount(ctx context.Context, params json.RawMessage) (any, error) {
	var p protocol.TrimmerCountParams
	if err := server.DecodeParams(params, &p, "trimmer", "messages"); err != nil {
		return nil, err
	}
	var native func(context.Context, []json.RawMessage) (int, error)
	for _, t := range d.impl.Trimmers {
		if t.Name == p.Trimmer {
			native = t.NativeCount
		}
	}
	if native == nil {
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.trimmer: no trimmer %q declares counter %q", p.Trimmer, protocol.CounterNative)
	}
	if _, err := message.FromRaw(p.Messages); err != nil {
		if errors.Is(err, message.ErrInvalid) {
			return nil, protocol.NewError(protocol.KindInvalidMessage, "%v", err)
		}
		return nil, err
	}
	n, err := native(ctx, nonNil(p.Messages))
	if err != nil {
		return nil, err
	}
	return protocol.TrimmerCountResult{Count: n}, nil
}
