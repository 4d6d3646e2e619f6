// Package loop is the provider tool-call loop of 004 as one pure operation:
// executor iterations, each appending a user prompt to the conversation
// state and running model turns, with the window trimming before every
// model call (spec LOOP-*). It exists so that the loop's guarantees — every
// request provider-valid and within the bound, trimmed state carried between
// iterations, metrics and warnings — can be checked end to end.
package loop

import (
	"context"
	"fmt"
	"slices"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// Event codes of the loop (LOOP-4, LOOP-5).
const (
	CodeTrimmed     = "conversation_trimmed"
	CodeMetrics     = "conversation_metrics"
	CodeApproaching = "conversation_approaching_limit"
	CodeFirstRaised = "preserve_first_raised"
)

// ApproachingPercent is the share of max_messages above which an iteration
// warns (004 task 119: "exceeds 80% of the cap").
const ApproachingPercent = 80

// Turn is one model call: the response the model gives and the tool
// results appended after it (none for the final, tool-less response).
type Turn struct {
	Response message.Message
	Results  []message.Message
}

// Iteration is one executor iteration: a new user prompt, then model turns.
type Iteration struct {
	Prompt message.Message
	Turns  []Turn
}

// Run is a whole simulated run.
type Run struct {
	Config window.Config
	// Initial is the conversation before the first iteration: the system
	// prompt in the OpenAI format, nothing in the Anthropic format (whose
	// system prompt is not a message).
	Initial    []message.Message
	Iterations []Iteration
	// Summarizer is passed to every trim; nil means none is provided.
	Summarizer window.Summarizer
}

// Request is what one model call was sent.
type Request struct {
	Iteration int
	Messages  []message.Message
}

// Metrics are the provider's conversationMetrics (004 task 114).
type Metrics struct {
	MessageCount    int `json:"messageCount"`
	EstimatedTokens int `json:"estimatedTokens"`
}

// IterationResult is what an executor iteration hands on.
type IterationResult struct {
	// State is the conversationState carried to the next iteration,
	// trimmed (LOOP-3).
	State   []message.Message
	Metrics Metrics
	Events  []window.Warning
}

// Result is the outcome of a run.
type Result struct {
	Requests        []Request
	Iterations      []IterationResult
	SummarizerCalls []window.SummarizerCall
}

// Trimmer is the window as the loop uses it; the reference passes a
// *window.Window.
type Trimmer interface {
	TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error)
}

// Effective is the window configuration the loop trims with: the
// configuration with preserve_first_n raised to 1, so that the first message
// — the system prompt or the initial context — is never evicted (LOOP-2).
func Effective(cfg window.Config) window.Config {
	cfg.PreserveFirstN = max(cfg.PreserveFirstN, 1)
	return cfg
}

// Execute runs r with the reference window.
func Execute(ctx context.Context, r Run) (Result, error) {
	w, err := window.New(Effective(r.Config))
	if err != nil {
		return Result{}, err
	}
	return ExecuteWith(ctx, r, w)
}

// ExecuteWith runs r, trimming with t before every model call (LOOP-1) and
// once more before handing the state on (LOOP-3).
func ExecuteWith(ctx context.Context, r Run, t Trimmer) (Result, error) {
	fs := fault.From(ctx)
	var res Result
	state := slices.Clone(r.Initial)
	raised := r.Config.PreserveFirstN == 0 && (r.Config.MaxMessages > 0 || fs.On(fault.LoopRaisedWhenDisabled))
	for i, it := range r.Iterations {
		var events []window.Warning
		if raised && (i == 0 || fs.On(fault.LoopRaisedEveryIteration)) {
			events = append(events, window.Warning{Code: CodeFirstRaised,
				Message: "preserve_first_n 0 raised to 1: the provider loop never evicts the first message"})
		}
		trim := func() error {
			tr, err := t.TrimWith(ctx, state, r.Summarizer)
			if err != nil {
				return fmt.Errorf("iteration %d: %w", i, err)
			}
			if tr.Metrics.EvictedMessages > 0 {
				events = append(events, Trimmed(tr.Metrics))
			}
			events = append(events, tr.Warnings...)
			res.SummarizerCalls = append(res.SummarizerCalls, tr.SummarizerCalls...)
			state = tr.Trimmed
			return nil
		}
		state = append(state, it.Prompt)
		for _, turn := range it.Turns {
			if err := trim(); err != nil {
				return Result{}, err
			}
			res.Requests = append(res.Requests, Request{Iteration: i, Messages: slices.Clone(state)})
			state = append(state, turn.Response)
			state = append(state, turn.Results...)
		}
		if len(it.Turns) == 0 || !fs.On(fault.LoopNoFinalTrim) {
			if err := trim(); err != nil {
				return Result{}, err
			}
		}
		m := Metrics{MessageCount: len(state), EstimatedTokens: window.EstimateTokens(state)}
		events = append(events, window.Warning{Code: CodeMetrics,
			Message: fmt.Sprintf("Conversation: %d messages (~%d tokens)", m.MessageCount, m.EstimatedTokens)})
		if Approaching(m.MessageCount, r.Config.MaxMessages) || atApproaching(m.MessageCount, r.Config.MaxMessages) && fs.On(fault.LoopApproachingInclusive) {
			events = append(events, ApproachingLimit(m.MessageCount, r.Config.MaxMessages))
		}
		res.Iterations = append(res.Iterations, IterationResult{State: slices.Clone(state), Metrics: m, Events: events})
	}
	return res, nil
}

// atApproaching tells whether count is exactly ApproachingPercent of a cap
// max: not yet approaching (LOOP-5).
func atApproaching(count, max int) bool {
	return max > 0 && 100*count == ApproachingPercent*max
}

// Trimmed is the log event of a trim that evicted messages (004 task 116).
func Trimmed(m window.Metrics) window.Warning {
	return window.Warning{Code: CodeTrimmed,
		Message: fmt.Sprintf("Trimmed conversation: %d messages removed, %d kept (~%d tokens)",
			m.EvictedMessages, m.PreservedMessages, m.EstimatedTokens)}
}

// ApproachingLimit is the warning of an iteration whose state holds count
// messages of a cap max (004 task 119).
func ApproachingLimit(count, max int) window.Warning {
	return window.Warning{Code: CodeApproaching,
		Message: fmt.Sprintf("Conversation approaching limit (%d/%d messages)", count, max)}
}

// Approaching reports whether count exceeds ApproachingPercent of a cap
// max; never when trimming is off (max 0). Whole numbers, no rounding.
func Approaching(count, max int) bool {
	return max > 0 && 100*count > ApproachingPercent*max
}
