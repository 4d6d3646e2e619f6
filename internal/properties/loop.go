package properties

import (
	"encoding/json"
	"errors"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/agentrun"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/prop"
)

// loopProperties are the properties of capability loop, in report order.
func loopProperties() []prop.Property {
	return []prop.Property{
		{ID: "prop/loop-requests-valid-and-bounded", Clauses: []string{"LOOP-6", "LOOP-7", "LOOP-1", "LOOP-2", "LOOP-3", "LOOP-5"}, Capability: protocol.CapLoop,
			Doc:   "over random runs (both formats, parallel calls or one per message, caps, preserve settings, summaries that succeed, fail or come back empty) every request is valid for its provider, starts with the run's first message and ends with the message appended last, and stays within max_messages; every iteration's metrics count its state and warn above 80% of the cap",
			Check: checkLoop, Examples: loopEdges(), Cost: 3},
	}
}

func checkLoop(t *rapid.T, tg target.Target) {
	loopRun(newSession(t, tg, "LOOP-1"), gen.DrawLoopCase(t))
}

// loopRun runs c and checks every request and event of the run.
func loopRun(s *session, c gen.LoopCase) {
	initial, iterations, err := agentrun.Build(c.Plan)
	if err != nil {
		s.t.Fatalf("generator: %v", err)
	}
	if initial == nil {
		initial = []json.RawMessage{}
	}
	params := protocol.LoopRunParams{Config: c.Config(), Initial: initial, Iterations: iterations, Summarizers: c.Summarizers}
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
		if err := agentrun.Check(r.Messages, c.Plan.Provider); err != nil {
			s.fail("LOOP-6", "request %d (iteration %d) would be rejected by the %s API: %v\n  request: %s", i, r.Iteration, c.Plan.Provider, err, compactJSON(r.Messages))
		}
		if !jsoncmp.Equal(r.Messages[0], first[0]) {
			s.fail("LOOP-2", "request %d does not start with the run's first message %s: %s", i, first[0], compactJSON(r.Messages))
		}
		if c.Strict() {
			if len(r.Messages) > c.Max {
				s.fail("LOOP-7", "request %d holds %d messages, more than max_messages %d", i, len(r.Messages), c.Max)
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
		if c.Strict() && len(it.State) > c.Max {
			s.fail("LOOP-3", "iteration %d hands on %d messages, more than max_messages %d", i, len(it.State), c.Max)
		}
		warned := len(it.Events) > 0 && it.Events[len(it.Events)-1].Code == "conversation_approaching_limit"
		if want := c.Max > 0 && 100*len(it.State) > 80*c.Max; warned != want && prop.Diagnostics(s.tg) {
			s.fail("LOOP-5", "iteration %d hands on %d messages with max_messages %d: approaching warning %v, want %v (events %s)", i, len(it.State), c.Max, warned, want, compactJSON(it.Events))
		}
	}
}

func compactJSON(v any) string { return abbreviate(gen.MustJSON(v), 1500) }
