package mutants

// Faulty trimmers of the second declaration (SPEC §8d, D-60): each is
// served beside the reference's own trimmers, with the declaration a
// library would honestly write for it, and breaks exactly one promise.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/message"
)

// extraTrimmerEngine is the reference serving more trimmers than its own.
type extraTrimmerEngine struct {
	server.Reference
	extra []server.Trimmer
}

func (e extraTrimmerEngine) Name() string { return "convspec-mutant" }

func (e extraTrimmerEngine) Trimmers() []server.Trimmer {
	return append(server.ReferenceTrimmers(), e.extra...)
}

// errIndex is what a library's IndexError looks like on the wire: an
// internal_error, a crash rather than a refusal.
var errIndex = errors.New("IndexError: list index out of range")

// modelEngine is the reference serving the model trimmers of the second
// declaration, one of them replaced (its declaration kept, so that it
// claims what it breaks).
type modelEngine struct {
	server.Reference
	trimmer string
	trim    trimFunc
	count   func([]message.Message) (int, error)
}

func (e modelEngine) Name() string { return "convspec-mutant" }

func (e modelEngine) Trimmers() []server.Trimmer {
	ts := append(server.ReferenceTrimmers(), server.ModelTrimmers()...)
	for i := range ts {
		if ts[i].Decl.Name != e.trimmer {
			continue
		}
		if e.trim != nil {
			ts[i].Trim = e.trim
		}
		if e.count != nil {
			ts[i].Count = e.count
		}
	}
	return ts
}

// modelDeclEngine is the reference serving the model trimmers with their
// declarations changed (ANY-10).
type modelDeclEngine struct {
	server.Reference
	declare func(*protocol.TrimmerDecl)
}

func (e modelDeclEngine) Name() string { return "convspec-mutant" }

func (e modelDeclEngine) Trimmers() []server.Trimmer {
	ts := append(server.ReferenceTrimmers(), server.ModelTrimmers()...)
	for i := range ts {
		e.declare(&ts[i].Decl)
	}
	return ts
}

func byLength(m []message.Message) int { return len(m) }

// withoutMarkers is msgs without model.first-marker's markers.
func withoutMarkers(msgs []message.Message) []message.Message {
	var in []message.Message
	for _, m := range msgs {
		if !(m.Role() == "system" && strings.HasPrefix(trimout.Text(m, false), server.ModelMarkerPrefix)) {
			in = append(in, m)
		}
	}
	return in
}

// wordsOnly counts the words of the texts and tool payloads, without the
// per-message overhead model.native's own counter adds.
func wordsOnly(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		n += len(strings.Fields(trimout.Text(m, true)))
	}
	return n
}

// chars4Each is ⌈characters / 4⌉ per message (ANY-6).
func chars4Each(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		n += (m.ContentLength() + 3) / 4
	}
	return n
}

func domainMutants() []Mutant {
	return []Mutant{
		{
			Name:    "trimmer-first-system-evicted",
			Bug:     "declares that it keeps the first system message but counts it like any other, so a tight limit evicts it",
			Clauses: []string{"ANY-3"},
			Engine: modelEngine{trimmer: server.ModelFirstMarker, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				return server.NewestWithin(byLength, 0)(withoutMarkers(msgs), limit)
			}},
		},
		{
			Name:    "trimmer-marker-unrecognizable",
			Bug:     "inserts a marker whose text does not start as declared (\"Trimmed N messages\"), so it is an invented message",
			Clauses: []string{"ANY-1"},
			Engine: modelEngine{trimmer: server.ModelFirstMarker, trim: editingOutput(server.FirstMarkerTrimmer, func(msgs, out []message.Message, _ int) ([]message.Message, error) {
				for i, m := range out {
					if m.Role() == "system" && strings.HasPrefix(trimout.Text(m, false), server.ModelMarkerPrefix) {
						marker, err := message.New("system", fmt.Sprintf("Trimmed %d messages", len(msgs)-len(out)+1))
						if err != nil {
							return nil, err
						}
						out[i] = marker
					}
				}
				return out, nil
			})},
		},
		variant("trimmer-head-short", "declares a head of 2 messages but keeps only the first when the limit is tight", modelEngine{trimmer: server.ModelHead, trim: server.HeadTrimmer(1)}, "ANY-11"),
		{
			Name:    "trimmer-start-only-when-trimming",
			Bug:     "applies its start rule only when it trims, so a conversation that fits comes back starting on an assistant message",
			Clauses: []string{"ANY-12", "ANY-7"},
			Engine: modelEngine{trimmer: server.ModelStart, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				if len(msgs) <= limit {
					return msgs, nil
				}
				return server.StartTrimmer(msgs, limit)
			}},
		},
		{
			Name:    "trimmer-start-forgotten-after-cut",
			Bug:     "applies its start rule to the input but not after the cut, so the trimmed history starts on a tool call or a reply",
			Clauses: []string{"ANY-12"},
			Engine: modelEngine{trimmer: server.ModelStart, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				lead := server.LeadingSystem(msgs)
				rest := msgs[lead:]
				for len(rest) > 0 && rest[0].Class() != message.UserPrompt {
					rest = rest[1:]
				}
				return server.NewestWithin(byLength, lead)(append(append([]message.Message{}, msgs[:lead]...), rest...), limit)
			}},
		},
		{
			Name:    "trimmer-native-counter-negative",
			Bug:     "subtracts 12 tokens per tool call from its own count, so a tool call counts negative and a history grows cheaper as calls are added",
			Clauses: []string{"ANY-13"},
			Engine: modelEngine{trimmer: server.ModelNative, count: func(msgs []message.Message) (int, error) {
				n := server.NativeCount(msgs)
				for _, m := range msgs {
					if m.Class() == message.ToolCall {
						n -= 12 * len(m.ToolIDs())
					}
				}
				return n, nil
			}},
		},
		variant("trimmer-native-trims-by-another-count", "answers count requests with its full counter but trims by words alone, forgetting the per-message overhead, so its output counts above the limit by its own count", modelEngine{trimmer: server.ModelNative, trim: server.NewestWithin(wordsOnly, 0)}, "ANY-6"),
		{
			Name:    "trimmer-joined-ignores-separator",
			Bug:     "counts the joined texts without the separators it joins them with, so many short messages overshoot the limit",
			Clauses: []string{"ANY-6"},
			Engine: modelEngine{trimmer: server.ModelJoined, trim: server.NewestWithin(func(msgs []message.Message) int {
				var b strings.Builder
				for _, m := range msgs {
					b.WriteString(trimout.Text(m, false))
				}
				return (message.Length(b.String()) + 3) / 4
			}, 0)},
		},
		variant("trimmer-slack-two-units", "keeps one more unit after the one the cut falls in, overshooting by more than its declared slack of one unit", modelEngine{trimmer: server.ModelSlack, trim: server.SlackTrimmer(chars4Each, 2)}, "ANY-6"),
		{
			Name:    "trimmer-results-counted-per-unit",
			Bug:     "declares that a call's results count as one message but counts a whole unit, call included, as one, overshooting the limit",
			Clauses: []string{"ANY-6"},
			Engine: modelEngine{trimmer: server.ModelResults, trim: server.NewestWithin(func(msgs []message.Message) int {
				units, _ := message.Units(msgs)
				return len(units)
			}, 0)},
		},
		{
			Name:    "trimmer-refuses-inside-domain",
			Bug:     "declares the domain limit ≥ 1 but refuses limit 1 when the conversation ends with a tool result: a refusal inside its domain",
			Clauses: []string{"ANY-9"},
			Engine: modelEngine{trimmer: server.ModelDomain, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				if limit == 1 && len(msgs) > 0 && msgs[len(msgs)-1].Class() == message.ToolResult {
					return nil, protocol.NewError(protocol.KindInvalidParams, "limit 1 is too small for a tool exchange")
				}
				return server.NewestWithin(byLength, 0)(msgs, limit)
			}},
		},
		variant("trimmer-refuses-when-something-fits", "declares that it refuses only when nothing fits, but refuses as soon as the newest unit does not fit, though an older one does", modelEngine{trimmer: server.ModelRefuses, trim: server.RefusingTrimmer(true)}, "ANY-9"),
		variant("trimmer-fallback-returns-nothing", "declares that it keeps the last message when nothing fits, but returns nothing then, as a plain newest-first trimmer does", modelEngine{trimmer: server.ModelFallback, trim: server.NewestWithin(chars4Each, 0)}, "ANY-14"),
		{
			Name:    "trimmer-fallback-keeps-last-unit",
			Bug:     "when the last message does not fit, keeps the whole last unit, a call with all its results, rather than the last message it declares",
			Clauses: []string{"ANY-14"},
			Engine: modelEngine{trimmer: server.ModelFallback, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				if n := len(msgs); n > 0 && chars4Each(msgs[n-1:]) > limit {
					units, err := message.Units(msgs)
					if err != nil {
						return nil, err
					}
					return msgs[units[len(units)-1].Start:], nil
				}
				return server.NewestWithin(chars4Each, 0)(msgs, limit)
			}},
		},
		{
			Name:    "trimmer-head-without-version",
			Bug:     "declares a head without \"version\": 2, so a reader of the first declaration would silently ignore it",
			Clauses: []string{"ANY-10"}, RefusedAtHandshake: true,
			Engine: modelDeclEngine{declare: func(d *protocol.TrimmerDecl) {
				if d.Head > 0 {
					d.Version = 0
				}
			}},
		},
		{
			Name:    "trimmer-slack-without-bound",
			Bug:     "declares a slack for a bound it does not claim: a declaration that contradicts itself",
			Clauses: []string{"ANY-10"}, RefusedAtHandshake: true,
			Engine: modelDeclEngine{declare: func(d *protocol.TrimmerDecl) {
				if d.Slack != "" {
					d.Guarantees = []string{protocol.GuaranteeSubsequence}
				}
			}},
		},

		{
			Name: "trimmer-crashes-at-limit-one",
			Bug: "walks back from the end for the user prompt to keep and indexes past the start when the last unit is a tool call, " +
				"crashing at limit 1 on a valid conversation though it declares no total (an error it never meant as a refusal)",
			Clauses: []string{"ANY-9"},
			Engine: extraTrimmerEngine{extra: []server.Trimmer{{
				Decl: protocol.TrimmerDecl{Name: "crashes.at.one", Bound: protocol.BoundMessages,
					Guarantees: []string{protocol.GuaranteeSubsequence, protocol.GuaranteeUnits, protocol.GuaranteeBound}},
				Trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
					if limit == 1 && len(msgs) > 0 && msgs[len(msgs)-1].Class() == message.ToolResult {
						return nil, errIndex
					}
					return tailWithin(msgs, limit)
				},
			}}},
		},
	}
}

// tailWithin keeps the newest whole units that fit in limit messages.
func tailWithin(msgs []message.Message, limit int) ([]message.Message, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return nil, err
	}
	start := len(msgs)
	for i := len(units) - 1; i >= 0; i-- {
		if len(msgs)-units[i].Start > limit {
			break
		}
		start = units[i].Start
	}
	return msgs[start:], nil
}
