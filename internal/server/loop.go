package server

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// ConfigEngine serves capability config: a configuration file resolved.
type ConfigEngine interface {
	ResolveConfig(text []byte, f config.Format) (config.Resolved, error)
}

// LoopEngine serves capability loop: a provider loop run with a
// configuration its ConfigEngine resolves.
type LoopEngine interface {
	ConfigEngine
	RunLoop(ctx context.Context, r loop.Run) (loop.Result, error)
}

// ResolveConfig implements ConfigEngine.
func (Reference) ResolveConfig(text []byte, f config.Format) (config.Resolved, error) {
	return config.Resolve(text, f)
}

// RunLoop implements LoopEngine.
func (e Reference) RunLoop(ctx context.Context, r loop.Run) (loop.Result, error) {
	return loop.Execute(e.with(ctx), r)
}

// requireConfigText refuses params whose config has no text: protocol.md
// gives the member without "?", so a missing or null text is a missing
// param (PROTO-2), not an empty file (D-48).
func requireConfigText(params json.RawMessage) error {
	members, _ := jsonscan.SplitObject(params)
	cfg, _ := members.Get("config")
	src, ok := jsonscan.SplitObject(cfg)
	if !ok {
		return nil // not an object: decoding has said so already
	}
	if text, ok := src.Get("text"); !ok || string(text) == "null" {
		return protocol.NewError(protocol.KindInvalidParams, "params.config.text is missing")
	}
	return nil
}

// decodeResolving decodes params into p, whose member config src points to,
// and resolves that config with l: config.resolve and loop.run read their
// config alike (D-48).
func decodeResolving(l ConfigEngine, params json.RawMessage, p any, src **protocol.ConfigSource, required ...string) (config.Resolved, error) {
	if err := decodeParams(params, p, required...); err != nil {
		return config.Resolved{}, err
	}
	if err := requireConfigText(params); err != nil {
		return config.Resolved{}, err
	}
	return resolveConfig(l, *src)
}

// resolveConfig checks a ConfigSource and resolves it with l.
func resolveConfig(l ConfigEngine, src *protocol.ConfigSource) (config.Resolved, error) {
	if src == nil {
		return config.Resolved{}, protocol.NewError(protocol.KindInvalidParams, "params.config is missing")
	}
	f, err := config.ParseFormat(src.Format)
	if err != nil {
		return config.Resolved{}, protocol.NewError(protocol.KindInvalidParams, "params.config.format: %v", err)
	}
	res, err := l.ResolveConfig([]byte(src.Text), f)
	if err != nil {
		var ce *config.Error
		if errors.As(err, &ce) {
			pe := protocol.NewError(protocol.KindInvalidConfig, "%v", err)
			path := ce.Path
			pe.Data.Path = &path
			return config.Resolved{}, pe
		}
		return config.Resolved{}, asProtocolError(err)
	}
	return res, nil
}

func (h *Handler) configResolve(l ConfigEngine, params json.RawMessage) (any, error) {
	var p protocol.ConfigResolveParams
	res, err := decodeResolving(l, params, &p, &p.Config, "config")
	if err != nil {
		return nil, err
	}
	return protocol.ConfigResolveResult{
		Config:          protocol.WindowConfig(res.Config),
		MaxMessagesFrom: res.MaxMessagesFrom,
		Warnings:        wireWarnings(res.Warnings),
	}, nil
}

func (h *Handler) loopRun(ctx context.Context, l LoopEngine, params json.RawMessage) (any, error) {
	var p protocol.LoopRunParams
	resolved, err := decodeResolving(l, params, &p, &p.Config, "config", "iterations")
	if err != nil {
		return nil, err
	}
	run := loop.Run{Config: resolved.Config}
	if run.Initial, err = message.FromValid(p.Initial); err != nil {
		return nil, asProtocolError(err)
	}
	for i, it := range p.Iterations {
		prompt, err := message.Parse(it.Prompt)
		if err != nil {
			return nil, protocol.NewError(protocol.KindInvalidMessage, "iterations[%d].prompt: %v", i, err)
		}
		iteration := loop.Iteration{Prompt: prompt}
		for j, t := range it.Turns {
			response, err := message.Parse(t.Response)
			if err != nil {
				return nil, protocol.NewError(protocol.KindInvalidMessage, "iterations[%d].turns[%d].response: %v", i, j, err)
			}
			results, err := message.FromValid(t.Results)
			if err != nil {
				return nil, protocol.NewError(protocol.KindInvalidMessage, "iterations[%d].turns[%d].results: %v", i, j, err)
			}
			iteration.Turns = append(iteration.Turns, loop.Turn{Response: response, Results: results})
		}
		run.Iterations = append(run.Iterations, iteration)
	}
	if resolved.Config.MaxMessages == 0 {
		// Trimming is off: every request holds the whole conversation so
		// far, so the answer grows with the square of the run. Refuse it
		// before building it (protocol.md, "Limits").
		if n := untrimmedAnswerBytes(p); n > protocol.MaxResultBytes {
			return nil, tooLarge(n)
		}
	}
	var seq *summarizerSequence
	if len(p.Summarizers) > 0 {
		if seq, err = newSummarizerSequence(p.Summarizers); err != nil {
			return nil, err
		}
		run.Summarizer = seq
	}
	res, err := l.RunLoop(ctx, run)
	if err != nil {
		return nil, asProtocolError(err)
	}
	out := protocol.LoopRunResult{
		Config:          protocol.WindowConfig(resolved.Config),
		Requests:        make([]protocol.LoopRequest, len(res.Requests)),
		Iterations:      make([]protocol.LoopIterationResult, len(res.Iterations)),
		SummarizerCalls: wireCalls(res.SummarizerCalls),
	}
	for i, r := range res.Requests {
		out.Requests[i] = protocol.LoopRequest{Iteration: r.Iteration, Messages: rawMessages(r.Messages)}
	}
	for i, it := range res.Iterations {
		out.Iterations[i] = protocol.LoopIterationResult{
			State:   rawMessages(it.State),
			Metrics: protocol.ConversationMetrics(it.Metrics),
			Events:  wireWarnings(it.Events),
		}
	}
	return out, nil
}

// summarizerSequence plays its scripts in order, one per call; the last one
// repeats.
type summarizerSequence struct {
	mu      sync.Mutex
	scripts []*scriptedSummarizer
	next    int
}

func newSummarizerSequence(scripts []protocol.SummarizerScript) (*summarizerSequence, error) {
	seq := &summarizerSequence{}
	for i := range scripts {
		s, err := scripted(&scripts[i], true)
		if err != nil {
			var pe *protocol.Error
			if errors.As(err, &pe) {
				pe.Message = "params.summarizers[" + strconv.Itoa(i) + "]: " + pe.Message
			}
			return nil, err
		}
		seq.scripts = append(seq.scripts, s)
	}
	return seq, nil
}

// Call implements window.Summarizer.
func (q *summarizerSequence) Call(ctx context.Context, prompt string, maxTokens int) (string, error) {
	q.mu.Lock()
	s := q.scripts[min(q.next, len(q.scripts)-1)]
	q.next++
	q.mu.Unlock()
	return s.Call(ctx, prompt, maxTokens)
}

var _ window.Summarizer = (*summarizerSequence)(nil)

// untrimmedAnswerBytes is about how many bytes of messages loop.run's
// answer holds when nothing is trimmed: every request holds the state
// before its model call, every iteration's state the state after it. It
// saturates instead of overflowing.
func untrimmedAnswerBytes(p protocol.LoopRunParams) int {
	state, total := 0, 0
	add := func(n *int, k int) { *n = min(*n+k, math.MaxInt/2) }
	for _, m := range p.Initial {
		add(&state, len(m)+1)
	}
	for _, it := range p.Iterations {
		add(&state, len(it.Prompt)+1)
		for _, t := range it.Turns {
			add(&total, state) // the request before this response
			add(&state, len(t.Response)+1)
			for _, r := range t.Results {
				add(&state, len(r)+1)
			}
		}
		add(&total, state) // the iteration's state
	}
	return total
}
