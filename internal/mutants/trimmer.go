package mutants

// Faulty trimmers (ANY-1 – ANY-9): the bugs users of every agent framework
// meet whatever the trimming algorithm — a pair split at the cut, the system
// prompt dropped, a message duplicated, reordered or altered, the bound
// broken by one, an empty result, a crash on the empty conversation. Each
// variant keeps the declaration of the reference trimmer it replaces, so
// it claims what it breaks; the trimmer properties alone must kill it.

import (
	"encoding/json"
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

type trimFunc = func(msgs []message.Message, limit int) ([]message.Message, error)

// trimmerEngine is the reference with one of its trimmers replaced.
type trimmerEngine struct {
	server.Reference
	trimmer string
	trim    trimFunc
}

func (e trimmerEngine) Name() string { return "convspec-mutant" }

func (e trimmerEngine) Trimmers() []server.Trimmer {
	ts := server.ReferenceTrimmers()
	for i := range ts {
		if ts[i].Decl.Name == e.trimmer {
			ts[i].Trim = e.trim
		}
	}
	return ts
}

// trimmerDeclEngine is the reference with its trimmer declarations
// changed (ANY-10).
type trimmerDeclEngine struct {
	server.Reference
	declare func([]server.Trimmer) []server.Trimmer
}

func (e trimmerDeclEngine) Name() string { return "convspec-mutant" }

func (e trimmerDeclEngine) Trimmers() []server.Trimmer { return e.declare(server.ReferenceTrimmers()) }

func trimmerMutants() []Mutant {
	return []Mutant{
		{
			Name:    "trimmer-token-bound-without-counter",
			Bug:     "declares its token-bounded trimmer as bound tokens but names no counter, leaving the caller to guess how it counts",
			Clauses: []string{"ANY-10"}, RefusedAtHandshake: true,
			Engine: trimmerDeclEngine{declare: func(ts []server.Trimmer) []server.Trimmer {
				for i := range ts {
					if ts[i].Decl.Bound == protocol.BoundTokens {
						ts[i].Decl.Counter = ""
					}
				}
				return ts
			}},
		},
		{
			Name:    "trimmer-splits-pair-at-cut",
			Bug:     "keeps the system prompt and the last limit − 1 messages, counting messages blind to units, so a tool result can lose its call at the cut",
			Clauses: []string{"ANY-2"},
			Engine: trimmerEngine{trimmer: server.TrimmerWindow, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				lead := server.LeadingSystem(msgs)
				if len(msgs) <= limit {
					return msgs, nil
				}
				keep := max(0, limit-lead)
				return slices.Concat(msgs[:lead], msgs[max(lead, len(msgs)-keep):]), nil
			}},
		},
		{
			Name:    "trimmer-drops-system",
			Bug:     "windows the whole conversation without preserving its head, so the system prompt is evicted like any old message",
			Clauses: []string{"ANY-3"},
			Engine: trimmerEngine{trimmer: server.TrimmerWindow, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				if limit == 0 {
					return []message.Message{}, nil
				}
				return windowTrimmed(window.Config{MaxMessages: limit}, msgs)
			}},
		},
		{
			Name:    "trimmer-duplicates-system",
			Bug:     "prepends the system prompt to what it built, which already starts with it: the model gets the system prompt twice",
			Clauses: []string{"ANY-1"},
			Engine: trimmerEngine{trimmer: server.TrimmerBuild, trim: editingOutput(server.BuildTrimmer, func(msgs, out []message.Message, _ int) ([]message.Message, error) {
				if len(msgs) == 0 || msgs[0].Class() != message.System {
					return out, nil
				}
				return append([]message.Message{msgs[0]}, out...), nil
			})},
		},
		{
			Name:    "trimmer-reverses-kept",
			Bug:     "collects the kept units walking back from the newest and forgets to reverse them",
			Clauses: []string{"ANY-1"},
			Engine: trimmerEngine{trimmer: server.TrimmerPrune, trim: editingOutput(server.PruneTrimmer, func(msgs, out []message.Message, _ int) ([]message.Message, error) {
				if len(out) == len(msgs) {
					return out, nil
				}
				units, err := message.Units(out)
				if err != nil {
					return nil, err
				}
				var rev []message.Message
				for i := len(units) - 1; i >= 0; i-- {
					rev = append(rev, out[units[i].Start:units[i].End]...)
				}
				return rev, nil
			})},
		},
		{
			Name:    "trimmer-rebuilds-messages",
			Bug:     "returns each kept message rebuilt from a typed struct {role, content, tool_calls, tool_call_id}, losing name, cache_control and every other member",
			Clauses: []string{"ANY-1"},
			Engine: trimmerEngine{trimmer: server.TrimmerBuild, trim: editingOutput(server.BuildTrimmer, func(_, out []message.Message, _ int) ([]message.Message, error) {
				for i, m := range out {
					var typed struct {
						Role       string          `json:"role"`
						Content    json.RawMessage `json:"content,omitempty"`
						ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
						ToolCallID json.RawMessage `json:"tool_call_id,omitempty"`
					}
					if err := json.Unmarshal(m.Raw(), &typed); err != nil {
						return nil, err
					}
					raw, _ := json.Marshal(typed)
					rebuilt, err := message.Parse(raw)
					if err != nil {
						return nil, err
					}
					out[i] = rebuilt
				}
				return out, nil
			})},
		},
		{
			Name:    "trimmer-forgets-current-exchange",
			Bug:     "preserves only the system prompt, so a long tool exchange pushes the user prompt that started it out of the window",
			Clauses: []string{"ANY-4"},
			Engine: trimmerEngine{trimmer: server.TrimmerExchange, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				return windowTrimmed(window.Config{MaxMessages: limit, PreserveFirstN: server.LeadingSystem(msgs)}, msgs)
			}},
		},
		{
			Name:    "trimmer-bound-off-by-one",
			Bug:     "compares with ≤ where < belongs and keeps one message more than the limit",
			Clauses: []string{"ANY-6"},
			Engine: trimmerEngine{trimmer: server.TrimmerWindow, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				return server.WindowTrimmer(msgs, limit+1)
			}},
		},
		{
			Name:    "trimmer-empty-when-last-too-big",
			Bug:     "keeps only what fits, so when the newest unit alone is over the limit it returns nothing of the conversation's end",
			Clauses: []string{"ANY-5"},
			Engine: trimmerEngine{trimmer: server.TrimmerPrune, trim: editingOutput(server.PruneTrimmer, func(_, out []message.Message, limit int) ([]message.Message, error) {
				if budget.Count(out) <= limit {
					return out, nil
				}
				return []message.Message{}, nil
			})},
		},
		{
			Name:    "trimmer-always-evicts",
			Bug:     "evicts the oldest unit after the system prompt on every call, even when the conversation is within the limit",
			Clauses: []string{"ANY-7", "ANY-8"},
			Engine: trimmerEngine{trimmer: server.TrimmerWindow, trim: editingOutput(server.WindowTrimmer, func(msgs, out []message.Message, _ int) ([]message.Message, error) {
				if len(out) != len(msgs) {
					return out, nil
				}
				units, err := message.Units(out)
				if err != nil {
					return nil, err
				}
				for _, u := range units {
					if out[u.Start].Class() != message.System {
						return slices.Concat(out[:u.Start], out[u.End:]), nil
					}
				}
				return out, nil
			})},
		},
		{
			Name:    "trimmer-crashes-on-empty",
			Bug:     "reads the last message's role before looking at the length, and crashes on the empty conversation",
			Clauses: []string{"ANY-9"},
			Engine: trimmerEngine{trimmer: server.TrimmerPrune, trim: func(msgs []message.Message, limit int) ([]message.Message, error) {
				_ = msgs[len(msgs)-1].Role()
				return server.PruneTrimmer(msgs, limit)
			}},
		},
	}
}

// editingOutput is trim, the reference trimmer a variant replaces,
// followed by the variant's edit of what it kept; an error of trim is
// passed on as it is.
func editingOutput(trim trimFunc, edit func(msgs, out []message.Message, limit int) ([]message.Message, error)) trimFunc {
	return func(msgs []message.Message, limit int) ([]message.Message, error) {
		out, err := trim(msgs, limit)
		if err != nil {
			return out, err
		}
		return edit(msgs, out, limit)
	}
}

// windowTrimmed is what the reference's window of cfg keeps of msgs.
func windowTrimmed(cfg window.Config, msgs []message.Message) ([]message.Message, error) {
	w, err := window.New(cfg)
	if err != nil {
		return nil, err
	}
	res, err := w.Trim(msgs)
	return res.Trimmed, err
}
