package properties

import (
	"encoding/json"
	"errors"
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/agentrun"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// loopCase is a generated run and the configuration it is sent with.
type loopCase struct {
	plan        agentrun.Plan
	max, h, t   int
	summarize   bool
	summarizers []protocol.SummarizerScript
}

// longestUnit is the most messages one tool turn of the plan appends as a
// unit: a call and its results.
func (c loopCase) longestUnit() int {
	longest := 1
	for _, it := range c.plan.Iterations {
		for _, calls := range it {
			switch {
			case c.plan.OneByOne || c.plan.Provider == agentrun.Anthropic:
				longest = max(longest, 2)
			default:
				longest = max(longest, 1+calls)
			}
		}
	}
	return longest
}

// strict reports whether the head and the tail, grown to whole units and
// with a place given up to a summary, always leave room for a middle, so
// that WIN-6's exception cannot apply and every request holds at most max.
func (c loopCase) strict() bool {
	u := c.longestUnit()
	return c.max > 0 && max(c.h, 1)+c.t+2*(u-1) < c.max-1
}

func drawLoopCase(t *rapid.T) loopCase {
	c := loopCase{plan: agentrun.Plan{
		Provider: rapid.SampledFrom(onlyFormats(t, []string{agentrun.OpenAI, agentrun.Anthropic}, func(p string) string { return p })).Draw(t, "provider"),
		OneByOne: rapid.Bool().Draw(t, "one call per message"),
	}}
	for range rapid.IntRange(1, 5).Draw(t, "iterations") {
		turns := rapid.SliceOfN(rapid.IntRange(1, 5), 0, 4).Draw(t, "parallel calls per tool turn")
		c.plan.Iterations = append(c.plan.Iterations, turns)
	}
	c.max = rapid.OneOf(rapid.Just(0), rapid.IntRange(2, 16), rapid.IntRange(17, 40)).Draw(t, "max_messages")
	c.h = rapid.IntRange(0, 3).Draw(t, "preserve_first_n")
	c.t = rapid.IntRange(0, 12).Draw(t, "preserve_last_n")
	c.summarize = rapid.Bool().Draw(t, "summarize_on_trim")
	if c.summarize && rapid.Bool().Draw(t, "summarizer provided") {
		for i := range rapid.IntRange(1, 3).Draw(t, "summarizer scripts") {
			var s protocol.SummarizerScript
			switch rapid.SampledFrom([]string{"reply", "error", "empty"}).Draw(t, "script") {
			case "reply":
				r := fmt.Sprintf("Summary %d of the work so far.", i+1)
				s.Reply = &r
			case "error":
				e := fmt.Sprintf("upstream failure %d", i+1)
				s.Error = &e
			default:
				r := " \n "
				s.Reply = &r
			}
			c.summarizers = append(c.summarizers, s)
		}
	}
	return c
}

func (c loopCase) config() *protocol.ConfigSource {
	block, _ := json.Marshal(map[string]any{"execution": map[string]any{"conversation": map[string]any{
		"max_messages": c.max, "preserve_first_n": c.h, "preserve_last_n": c.t, "summarize_on_trim": c.summarize,
	}}})
	return &protocol.ConfigSource{Format: "json", Text: string(block)}
}

func checkLoop(t *rapid.T, tg target.Target) {
	loopRun(newSession(t, tg, "LOOP-1"), drawLoopCase(t))
}

// loopRun runs c and checks every request and event of the run.
func loopRun(s *session, c loopCase) {
	initial, iterations, err := agentrun.Build(c.plan)
	if err != nil {
		s.t.Fatalf("generator: %v", err)
	}
	if initial == nil {
		initial = []json.RawMessage{}
	}
	params := protocol.LoopRunParams{Config: c.config(), Initial: initial, Iterations: iterations, Summarizers: c.summarizers}
	s.record(protocol.MethodLoopRun, params)
	raw, err := s.tg.Call(s.ctx, protocol.MethodLoopRun, params)
	var pe *protocol.Error
	if errors.As(err, &pe) {
		// The run as scripted is well-formed: an error means the loop broke
		// its own conversation on the way (a trim that split a unit, say).
		s.fail("LOOP-6", "loop.run failed on a well-formed run: %v", err)
	}
	if err != nil {
		s.callFailed(protocol.MethodLoopRun, err)
	}
	var res protocol.LoopRunResult
	if err := target.DecodeResult(protocol.MethodLoopRun, raw, &res); err != nil {
		s.fail("LOOP-1", "loop.run answered with a result that is not protocol v1: %v", err)
	}

	first := initial
	if len(first) == 0 {
		first = []json.RawMessage{iterations[0].Prompt}
	}
	// What each model call must end with: the message appended just before it.
	var last []json.RawMessage
	turns := 0
	for _, it := range iterations {
		prev := it.Prompt
		for _, turn := range it.Turns {
			last = append(last, prev)
			prev = turn.Response
			if len(turn.Results) > 0 {
				prev = turn.Results[len(turn.Results)-1]
			}
			turns++
		}
	}
	if len(res.Requests) != turns {
		s.fail("LOOP-1", "the run has %d model calls but %d requests came back", turns, len(res.Requests))
	}
	for i, r := range res.Requests {
		if err := agentrun.Check(r.Messages, c.plan.Provider); err != nil {
			s.fail("LOOP-6", "request %d (iteration %d) would be rejected by the %s API: %v\n  request: %s", i, r.Iteration, c.plan.Provider, err, compactJSON(r.Messages))
		}
		if !jsoncmp.Equal(r.Messages[0], first[0]) {
			s.fail("LOOP-2", "request %d does not start with the run's first message %s: %s", i, first[0], compactJSON(r.Messages))
		}
		if c.strict() {
			if len(r.Messages) > c.max {
				s.fail("LOOP-7", "request %d holds %d messages, more than max_messages %d", i, len(r.Messages), c.max)
			}
			if !jsoncmp.Equal(r.Messages[len(r.Messages)-1], last[i]) {
				s.fail("LOOP-1", "request %d does not end with the message appended just before the call, %s: %s", i, last[i], compactJSON(r.Messages))
			}
		}
	}
	if len(res.Iterations) != len(iterations) {
		s.fail("LOOP-3", "the run has %d iterations but %d came back", len(iterations), len(res.Iterations))
	}
	for i, it := range res.Iterations {
		if it.Metrics.MessageCount != len(it.State) {
			s.fail("LOOP-4", "iteration %d's messageCount is %d but it hands on %d messages", i, it.Metrics.MessageCount, len(it.State))
		}
		if c.strict() && len(it.State) > c.max {
			s.fail("LOOP-3", "iteration %d hands on %d messages, more than max_messages %d", i, len(it.State), c.max)
		}
		warned := len(it.Events) > 0 && it.Events[len(it.Events)-1].Code == "conversation_approaching_limit"
		if want := c.max > 0 && 100*len(it.State) > 80*c.max; warned != want && diagnostics(s.tg) {
			s.fail("LOOP-5", "iteration %d hands on %d messages with max_messages %d: approaching warning %v, want %v (events %s)", i, len(it.State), c.max, warned, want, compactJSON(it.Events))
		}
	}
}

func compactJSON(v any) string { return abbreviate(mustJSON(v), 1500) }
