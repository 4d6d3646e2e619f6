package server

// Model trimmers of the second declaration (SPEC §8d, D-60): small
// algorithms written to keep exactly what each declares — the first system
// message and a marker, a head, a start rule, a native counter, a count
// over joined texts, a bound with a unit's slack, results counted as one,
// a domain, the last message when nothing fits (D-76) — so that the
// trimmer properties are shown to hold on an honest declaration of every
// new promise, and the faulty trimmers of
// internal/mutants have something to break. The reference serves them
// beside its own algorithms (D-35), which ReferenceTrimmers lists alone.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/message"
)

// Names of the model trimmers.
const (
	ModelFirstMarker = "model.first-marker"
	ModelHead        = "model.head"
	ModelStart       = "model.start"
	ModelNative      = "model.native"
	ModelJoined      = "model.joined"
	ModelSlack       = "model.slack"
	ModelResults     = "model.results-one"
	ModelDomain      = "model.domain"
	ModelRefuses     = "model.refuses"
	ModelFallback    = "model.fallback"
)

// ModelMarkerPrefix starts the marker model.first-marker inserts.
const ModelMarkerPrefix = "[trimmed "

// ModelTrimmers are the model trimmers, each with its declaration.
func ModelTrimmers() []Trimmer {
	g := func(gs ...string) []string { return gs }
	base := g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeBound, protocol.GuaranteeFits, protocol.GuaranteeIdempotent)
	v2 := func(name, bound, counter string, gs []string, m protocol.TrimmerDecl) protocol.TrimmerDecl {
		m.Version, m.Name, m.Bound, m.Counter, m.Guarantees = 2, name, bound, counter, gs
		return m
	}
	no := false
	space := " "
	ts := []Trimmer{
		{Decl: v2(ModelFirstMarker, protocol.BoundMessages, "", append(base, protocol.GuaranteeSystem),
			protocol.TrimmerDecl{System: protocol.SystemFirst, Markers: &protocol.MarkerDecl{Role: "system", Prefix: ModelMarkerPrefix}})},
		{Decl: v2(ModelHead, protocol.BoundMessages, "", g(protocol.GuaranteeSubsequence, protocol.GuaranteeBound, protocol.GuaranteeFits, protocol.GuaranteeIdempotent),
			protocol.TrimmerDecl{Head: 2})},
		{Decl: v2(ModelStart, protocol.BoundMessages, "", append(base, protocol.GuaranteeSystem),
			protocol.TrimmerDecl{Start: protocol.StartUser})},
		{Decl: v2(ModelNative, protocol.BoundTokens, protocol.CounterNative, base,
			protocol.TrimmerDecl{Count: &protocol.CountDecl{Over: protocol.CountOverMessage}})},
		{Decl: v2(ModelJoined, protocol.BoundTokens, protocol.CounterChars4, base,
			protocol.TrimmerDecl{Count: &protocol.CountDecl{Over: protocol.CountOverJoined, Separator: &space, ToolPayloads: &no}})},
		{Decl: v2(ModelSlack, protocol.BoundTokens, protocol.CounterChars4, base, protocol.TrimmerDecl{Slack: protocol.SlackUnit})},
		{Decl: v2(ModelResults, protocol.BoundMessages, "", base, protocol.TrimmerDecl{Results: protocol.ResultsOne})},
		{Decl: v2(ModelDomain, protocol.BoundMessages, "", g(protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeBound),
			protocol.TrimmerDecl{LimitMin: 1})},
		{Decl: v2(ModelRefuses, protocol.BoundMessages, "", base, protocol.TrimmerDecl{Refuses: protocol.RefusesNothingFits}),
			Trim: RefusingTrimmer(false)},
		{Decl: v2(ModelFallback, protocol.BoundTokens, protocol.CounterChars4, g(protocol.GuaranteeSubsequence, protocol.GuaranteeBound, protocol.GuaranteeFits, protocol.GuaranteeIdempotent),
			protocol.TrimmerDecl{Fallback: protocol.FallbackLastMessage})},
	}
	for i := range ts {
		if ts[i].Trim != nil {
			continue
		}
		d := ts[i].Decl
		switch d.Name {
		case ModelFirstMarker:
			ts[i].Trim = FirstMarkerTrimmer
		case ModelHead:
			ts[i].Trim = HeadTrimmer(2)
		case ModelStart:
			ts[i].Trim = StartTrimmer
		case ModelNative:
			ts[i].Trim = func(msgs []message.Message, limit int) ([]message.Message, error) {
				return NewestWithin(memoSum(nativeBase, nativeCount), 0)(msgs, limit)
			}
			ts[i].Count = func(m []message.Message) (int, error) { return NativeCount(m), nil }
		case ModelSlack:
			ts[i].Trim = func(msgs []message.Message, limit int) ([]message.Message, error) {
				return SlackTrimmer(memoSum(0, declaredCount(d)), 1)(msgs, limit)
			}
		case ModelFallback:
			ts[i].Trim = func(msgs []message.Message, limit int) ([]message.Message, error) {
				return FallbackTrimmer(memoSum(0, declaredCount(d)))(msgs, limit)
			}
		case ModelDomain:
			ts[i].Trim = func(msgs []message.Message, limit int) ([]message.Message, error) {
				if limit < 1 {
					return nil, errors.New("IndexError: limit 0 leaves nothing to index") // outside its domain
				}
				return NewestWithin(func(m []message.Message) int { return len(m) }, 0)(msgs, limit)
			}
		default:
			ts[i].Trim = NewestWithin(func(m []message.Message) int { return trimout.Count(d, raw(m)) }, 0)
		}
	}
	return ts
}

func raw(msgs []message.Message) []json.RawMessage { return rawMessages(msgs) }

// memoSum is a count of a list that is base plus each message's own count,
// with each message counted once however many lists it is counted in:
// NewestWithin and SlackTrimmer count every suffix of a conversation, and
// a count that read each message again for each of them was most of what
// a trimmer.trim cost. A new memoSum for each call: the memory is keyed
// by the messages' bytes, which live as long as the call.
func memoSum(base int, each func(message.Message) int) func([]message.Message) int {
	counted := map[*byte]int{}
	return func(msgs []message.Message) int {
		n := base
		for _, m := range msgs {
			b := m.Raw()
			if len(b) == 0 {
				n += each(m)
				continue
			}
			c, ok := counted[&b[0]]
			if !ok {
				c = each(m)
				counted[&b[0]] = c
			}
			n += c
		}
		return n
	}
}

// declaredCount is one message's count by a declaration whose count of a
// list is the sum of its messages' (D-35's tokens and characters: every
// counter without a count over joined texts or results counted as one).
func declaredCount(d protocol.TrimmerDecl) func(message.Message) int {
	return func(m message.Message) int { return trimout.Count(d, []json.RawMessage{m.Raw()}) }
}

// NewestWithin keeps the first keep messages and then the newest whole
// units whose count, with them, is at most the limit; a conversation that
// fits comes back unchanged.
func NewestWithin(count func([]message.Message) int, keep int) func([]message.Message, int) ([]message.Message, error) {
	return func(msgs []message.Message, limit int) ([]message.Message, error) {
		units, err := message.Units(msgs)
		if err != nil {
			return nil, err
		}
		if count(msgs) <= limit {
			return msgs, nil
		}
		keep := min(keep, len(msgs))
		head := msgs[:keep]
		start := len(msgs)
		for i := len(units) - 1; i >= 0 && units[i].Start >= keep; i-- {
			if count(concat(head, msgs[units[i].Start:])) > limit {
				break
			}
			start = units[i].Start
		}
		return concat(head, msgs[start:]), nil
	}
}

func concat(a, b []message.Message) []message.Message {
	return append(append([]message.Message{}, a...), b...)
}

// FirstMarkerTrimmer keeps in[0] when it is a system message, then the
// newest units that fit, and puts a system marker after in[0] saying how
// many messages it dropped; markers in its input are dropped and not
// counted, so that trimming its output again only renews the marker.
func FirstMarkerTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	var in []message.Message
	for _, m := range msgs {
		if !(m.Role() == "system" && strings.HasPrefix(trimout.Text(m, false), ModelMarkerPrefix)) {
			in = append(in, m)
		}
	}
	if len(in) <= limit {
		return msgs, nil
	}
	keep := 0
	if len(in) > 0 && in[0].Class() == message.System {
		keep = 1
	}
	out, err := NewestWithin(func(m []message.Message) int { return len(m) }, keep)(in, limit)
	if err != nil || len(out) == len(in) {
		return out, err
	}
	marker, err := message.New("system", fmt.Sprintf("%s%d messages]", ModelMarkerPrefix, len(in)-len(out)))
	if err != nil {
		return nil, err
	}
	return concat(append(out[:keep:keep], marker), out[keep:]), nil
}

// HeadTrimmer keeps the first n messages whatever the limit, then the
// newest units that fit.
func HeadTrimmer(n int) func([]message.Message, int) ([]message.Message, error) {
	return NewestWithin(func(m []message.Message) int { return len(m) }, n)
}

// StartTrimmer keeps the leading system messages and starts what follows
// on a user prompt, trimmed or not: the newest units that fit, then
// nothing before the first user prompt among them.
func StartTrimmer(msgs []message.Message, limit int) ([]message.Message, error) {
	lead := LeadingSystem(msgs)
	rest := msgs[lead:]
	for len(rest) > 0 && rest[0].Class() != message.UserPrompt {
		rest = rest[1:]
	}
	out, err := NewestWithin(func(m []message.Message) int { return len(m) }, lead)(concat(msgs[:lead], rest), limit)
	if err != nil {
		return nil, err
	}
	tail := out[lead:]
	for len(tail) > 0 && tail[0].Class() != message.UserPrompt {
		tail = tail[1:]
	}
	return concat(out[:lead], tail), nil
}

// RefusingTrimmer keeps the newest units that fit, and refuses with
// context_window_exhausted when no unit fits the limit alone, as a
// library that will not send a request with no messages does;
// contiguousOnly refuses as soon as the newest unit does not fit (faulty:
// an older unit may).
func RefusingTrimmer(contiguousOnly bool) func([]message.Message, int) ([]message.Message, error) {
	return func(msgs []message.Message, limit int) ([]message.Message, error) {
		units, err := message.Units(msgs)
		if err != nil {
			return nil, err
		}
		out, err := NewestWithin(func(m []message.Message) int { return len(m) }, 0)(msgs, limit)
		if err != nil || len(out) > 0 || len(msgs) == 0 {
			return out, err
		}
		for _, u := range units {
			if u.Len() <= limit && !contiguousOnly {
				return out, nil // something fits: an empty answer, not a refusal
			}
		}
		return nil, protocol.NewError(protocol.KindWindowExhausted, "no message fits in %d", limit)
	}
}

// FallbackTrimmer keeps the newest whole units that fit, and the last
// message alone when it does not fit by itself (ANY-14), as a memory that
// would rather send the newest message than nothing does.
func FallbackTrimmer(count func([]message.Message) int) func([]message.Message, int) ([]message.Message, error) {
	return func(msgs []message.Message, limit int) ([]message.Message, error) {
		if n := len(msgs); n > 0 && count(msgs[n-1:]) > limit {
			return msgs[n-1:], nil
		}
		return NewestWithin(count, 0)(msgs, limit)
	}
}

// NativeCount is model.native's own counter: 3 for the conversation, and
// 4 per message plus the words of its text and tool payloads.
func NativeCount(msgs []message.Message) int {
	n := nativeBase
	for _, m := range msgs {
		n += nativeCount(m)
	}
	return n
}

const nativeBase = 3

func nativeCount(m message.Message) int { return 4 + len(strings.Fields(trimout.Text(m, true))) }

// SlackTrimmer adds the newest units while what it kept counts less than
// the limit, so the unit the cut falls in is kept whole and may overshoot;
// extra more units are added past the cut (1 is honest).
func SlackTrimmer(count func([]message.Message) int, units int) func([]message.Message, int) ([]message.Message, error) {
	return func(msgs []message.Message, limit int) ([]message.Message, error) {
		us, err := message.Units(msgs)
		if err != nil {
			return nil, err
		}
		if count(msgs) <= limit {
			return msgs, nil
		}
		start, past := len(msgs), 0
		for i := len(us) - 1; i >= 0; i-- {
			if count(msgs[start:]) >= limit {
				if past++; past >= units {
					break
				}
			}
			start = us[i].Start
		}
		return msgs[start:], nil
	}
}
