package mutants

// Outsider variants of the capability loop (LOOP-*): the provider loop's
// trims, events and metrics.

import (
	"context"
	"fmt"
	"slices"

	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/window"
)

// loopQuirks are the loop variants' deviations from loop.ExecuteWith.
type loopQuirks struct {
	approachingInclusive bool // 100*count >= 80*max
	raisedWhenDisabled   bool // preserve_first_raised even with max_messages 0
	raisedEachIteration  bool // preserve_first_raised in every iteration
	noFinalTrim          bool // trims only before requests, not at the iteration's end
}

func outsiderLoopMutants() []Mutant {
	return []Mutant{
		{
			// loop.run, max_messages 10, an iteration ending with 8 messages:
			// 8 is not above 80 % of 10, no approaching event; the variant
			// emits one.
			Name: "outsider-loop-approaching-inclusive", Bug: "emits conversation_approaching_limit at exactly 80 % of max_messages",
			Clauses: []string{"LOOP-4"},
			Engine:  replaced{runLoop: outsiderLoop(loopQuirks{approachingInclusive: true})},
		},
		{
			// loop.run with {"max_messages":0,"preserve_first_n":0}: the
			// window is disabled, nothing is raised; the variant still
			// emits preserve_first_raised.
			Name: "outsider-loop-raised-when-disabled", Bug: "emits preserve_first_raised for preserve_first_n 0 even when max_messages 0 disables the window",
			Clauses: []string{"LOOP-2"},
			Engine:  replaced{runLoop: outsiderLoop(loopQuirks{raisedWhenDisabled: true})},
		},
		{
			// loop.run with preserve_first_n 0 and two iterations: the event
			// belongs to the first iteration only; the variant repeats it.
			Name: "outsider-loop-raised-every-iteration", Bug: "emits preserve_first_raised in every iteration instead of once",
			Clauses: []string{"LOOP-2"},
			Engine:  replaced{runLoop: outsiderLoop(loopQuirks{raisedEachIteration: true})},
		},
		{
			// loop.run max_messages 4, one iteration whose one turn adds an
			// assistant tool call and its result to 3 messages: the state at
			// the iteration's end is trimmed to 4; the variant leaves 6.
			Name: "outsider-loop-no-final-trim", Bug: "trims only before each provider request, not after the last turn's results",
			Clauses: []string{"LOOP-1", "LOOP-3"},
			Engine:  replaced{runLoop: outsiderLoop(loopQuirks{noFinalTrim: true})},
		},
	}
}

func outsiderLoop(q loopQuirks) func(context.Context, loop.Run) (loop.Result, error) {
	return func(ctx context.Context, r loop.Run) (loop.Result, error) {
		t, err := window.New(loop.Effective(r.Config))
		if err != nil {
			return loop.Result{}, err
		}
		var res loop.Result
		state := slices.Clone(r.Initial)
		for i, it := range r.Iterations {
			var events []window.Warning
			if (i == 0 || q.raisedEachIteration) && r.Config.PreserveFirstN == 0 && (r.Config.MaxMessages > 0 || q.raisedWhenDisabled) {
				events = append(events, window.Warning{Code: loop.CodeFirstRaised,
					Message: "preserve_first_n 0 raised to 1: the provider loop never evicts the first message"})
			}
			trim := func() error {
				tr, err := t.TrimWith(ctx, state, r.Summarizer)
				if err != nil {
					return fmt.Errorf("iteration %d: %w", i, err)
				}
				if tr.Metrics.EvictedMessages > 0 {
					events = append(events, loop.Trimmed(tr.Metrics))
				}
				events = append(events, tr.Warnings...)
				res.SummarizerCalls = append(res.SummarizerCalls, tr.SummarizerCalls...)
				state = tr.Trimmed
				return nil
			}
			state = append(state, it.Prompt)
			for _, turn := range it.Turns {
				if err := trim(); err != nil {
					return loop.Result{}, err
				}
				res.Requests = append(res.Requests, loop.Request{Iteration: i, Messages: slices.Clone(state)})
				state = append(state, turn.Response)
				state = append(state, turn.Results...)
			}
			if !q.noFinalTrim || len(it.Turns) == 0 {
				if err := trim(); err != nil {
					return loop.Result{}, err
				}
			}
			m := loop.Metrics{MessageCount: len(state), EstimatedTokens: window.EstimateTokens(state)}
			events = append(events, window.Warning{Code: loop.CodeMetrics,
				Message: fmt.Sprintf("Conversation: %d messages (~%d tokens)", m.MessageCount, m.EstimatedTokens)})
			approaching := loop.Approaching(m.MessageCount, r.Config.MaxMessages)
			if q.approachingInclusive {
				approaching = r.Config.MaxMessages > 0 && 100*m.MessageCount >= loop.ApproachingPercent*r.Config.MaxMessages
			}
			if approaching {
				events = append(events, loop.ApproachingLimit(m.MessageCount, r.Config.MaxMessages))
			}
			res.Iterations = append(res.Iterations, loop.IterationResult{State: slices.Clone(state), Metrics: m, Events: events})
		}
		return res, nil
	}
}
