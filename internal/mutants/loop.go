package mutants

// Faulty variants of the capability loop (LOOP-*) and of the
// configuration the loop reads.

import (
	"context"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// withTrimmer runs the loop with the reference's window wrapped by wrap.
func withTrimmer(wrap func(*window.Window) loop.Trimmer) func(context.Context, loop.Run) (loop.Result, error) {
	return func(ctx context.Context, r loop.Run) (loop.Result, error) {
		w, err := window.New(loop.Effective(r.Config))
		if err != nil {
			return loop.Result{}, err
		}
		return loop.ExecuteWith(ctx, r, wrap(w))
	}
}

// editingEvents runs the loop with run and replaces each iteration's
// events with what edit makes of them.
func editingEvents(run func(context.Context, loop.Run) (loop.Result, error), edit func(r loop.Run, it loop.IterationResult) []window.Warning) func(context.Context, loop.Run) (loop.Result, error) {
	return func(ctx context.Context, r loop.Run) (loop.Result, error) {
		res, err := run(ctx, r)
		for i, it := range res.Iterations {
			res.Iterations[i].Events = edit(r, it)
		}
		return res, err
	}
}

// onlyWhen trims with w when trim says so and otherwise passes msgs on
// untouched.
func onlyWhen(w *window.Window, trim func([]message.Message) bool) loop.Trimmer {
	return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
		if len(msgs) == 0 || trim(msgs) {
			return w.TrimWith(ctx, msgs, s)
		}
		return window.Result{Trimmed: msgs, Evicted: []message.Message{}, Metrics: window.Metrics{TotalMessages: len(msgs), PreservedMessages: len(msgs), EstimatedTokens: window.EstimateTokens(msgs)}}, nil
	})
}

func withoutCode(ws []window.Warning, code string) []window.Warning {
	var out []window.Warning
	for _, w := range ws {
		if w.Code != code {
			out = append(out, w)
		}
	}
	return out
}

// loopCatalogue is the catalogue's variants of capability loop.
func loopCatalogue() []Mutant {
	return []Mutant{
		pointVariant("loop-approaching-at-80", "warns at exactly 80% of the cap instead of above it", fault.LoopApproachingInclusive, "LOOP-5"),
		{Name: "loop-evicts-first-message", Clauses: []string{"LOOP-2"},
			Bug: "honours preserve_first_n 0 in the loop, dropping the system prompt",
			Engine: replaced{runLoop: editingEvents(func(ctx context.Context, r loop.Run) (loop.Result, error) {
				w, err := window.New(r.Config)
				if err != nil {
					return loop.Result{}, err
				}
				return loop.ExecuteWith(ctx, r, w)
			}, func(_ loop.Run, it loop.IterationResult) []window.Warning {
				return withoutCode(it.Events, loop.CodeFirstRaised)
			})}},
		{Name: "loop-hands-on-untrimmed-state", Clauses: []string{"LOOP-3"},
			Bug: "returns the conversation state after the final reply without trimming it",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return onlyWhen(w, func(msgs []message.Message) bool { return msgs[len(msgs)-1].Class() != message.AssistantText })
			})}},
		{Name: "loop-no-trim-event", Clauses: []string{"LOOP-4"},
			Bug: "trims silently, without the conversation_trimmed log event",
			Engine: replaced{runLoop: editingEvents(loop.Execute, func(_ loop.Run, it loop.IterationResult) []window.Warning {
				return withoutCode(it.Events, loop.CodeTrimmed)
			})}},
		{Name: "loop-tool-result-as-prompt", Clauses: []string{"LOOP-6"},
			Bug: "classifies an Anthropic tool_result message as a user prompt, so the window cuts between a tool_use and its result",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return trimmerFunc(func(_ context.Context, msgs []message.Message, _ window.Summarizer) (window.Result, error) {
					units, err := message.Units(msgs)
					if err != nil {
						return window.Result{}, err
					}
					var split []message.Unit
					for _, u := range units {
						if msgs[u.Start].Role() == "assistant" && u.Len() > 1 && msgs[u.Start+1].Role() == "user" {
							for i := u.Start; i < u.End; i++ {
								split = append(split, message.Unit{Start: i, End: i + 1})
							}
							continue
						}
						split = append(split, u)
					}
					return w.Apply(w.Config().Plan(split), msgs), nil
				})
			})}},
		{Name: "loop-trims-once-per-iteration", Clauses: []string{"LOOP-1", "LOOP-7", "LOOP-3"},
			Bug: "trims only before the first model call of an iteration, so the array grows through the tool-call loop",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return onlyWhen(w, func(msgs []message.Message) bool { return msgs[len(msgs)-1].Class() == message.UserPrompt })
			})}},
	}
}
