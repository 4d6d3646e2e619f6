package properties

import (
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/agentrun"
)

// The loop's edge examples (LOOP-1 – LOOP-7): one run of single and
// parallel tool calls, in each declared provider format and with one call
// per message, under trimming off, preserve_first_n 0, a cap the head and
// tail fill, a cap one above them, a roomy cap, and summarization with a summarizer that
// replies, fails, replies blank, or is absent.

// loopEdgeCases are the runs, for the provider given.
func loopEdgeCases(provider string) []loopCase {
	plan := agentrun.Plan{Provider: provider, Iterations: [][]int{{2}, {1, 3}, {1}, {2, 1, 1}}}
	oneByOne := plan
	oneByOne.OneByOne = true
	reply, fail, blank := "Summary of the work so far.", "upstream failure", " \n "
	var out []loopCase
	for _, c := range []loopCase{
		{max: 0, h: 1, t: 2},
		{max: 4, h: 0, t: 2}, // LOOP-2 raises preserve_first_n to 1
		{max: 3, h: 1, t: 2},
		{max: 4, h: 1, t: 2},
		{max: 6, h: 1, t: 3},
		{max: 12, h: 2, t: 4},
		{max: 5, h: 1, t: 2, summarize: true, summarizers: []protocol.SummarizerScript{{Reply: &reply}}},
		{max: 5, h: 1, t: 2, summarize: true, summarizers: []protocol.SummarizerScript{{Error: &fail}, {Reply: &reply}}},
		{max: 5, h: 1, t: 2, summarize: true, summarizers: []protocol.SummarizerScript{{Reply: &blank}}},
		{max: 5, h: 1, t: 2, summarize: true},
	} {
		for _, p := range []agentrun.Plan{plan, oneByOne} {
			c.plan = p
			out = append(out, c)
		}
	}
	return out
}

// loopEdgeName names a case.
func loopEdgeName(c loopCase) string {
	name := fmt.Sprintf("%s, max_messages %d, preserve_first_n %d, preserve_last_n %d", c.plan.Provider, c.max, c.h, c.t)
	if c.plan.OneByOne {
		name += ", one call per message"
	}
	if c.summarize {
		name += fmt.Sprintf(", summarizing with %d scripts", len(c.summarizers))
	}
	return name
}

// loopEdges runs loopRun on every case in every declared format.
func loopEdges() []Example {
	var out []Example
	for _, provider := range []string{agentrun.OpenAI, agentrun.Anthropic} {
		for _, c := range loopEdgeCases(provider) {
			out = append(out, Example{Name: loopEdgeName(c), Run: func(f Failer, tg target.Target) {
				if !sendsOnly(providerFormats(tg.Info()), map[string]any{"format": providerMessage(provider)}) {
					return // a format the implementation does not declare (D-42)
				}
				loopRun(fixedSession(f, tg, "LOOP-1"), c)
			}})
		}
	}
	return out
}

// loopRunExamples are the same runs as loop.run requests, for the
// differential property.
func loopRunExamples() map[string][]call {
	ex := map[string][]call{}
	for _, provider := range []string{agentrun.OpenAI, agentrun.Anthropic} {
		for _, c := range loopEdgeCases(provider) {
			initial, iterations, err := agentrun.Build(c.plan)
			if err != nil {
				panic(fmt.Sprintf("loop edge %s: %v", loopEdgeName(c), err))
			}
			if initial == nil {
				initial = []json.RawMessage{}
			}
			p := map[string]any{"config": c.config(), "initial": initial, "iterations": iterations}
			if len(c.summarizers) > 0 {
				p["summarizers"] = c.summarizers
			}
			ex[loopEdgeName(c)] = []call{{protocol.MethodLoopRun, p}}
		}
	}
	return ex
}

// providerMessage is a message of the provider's tool format, to ask
// sendsOnly whether the implementation declares it.
func providerMessage(provider string) json.RawMessage {
	if provider == agentrun.Anthropic {
		return json.RawMessage(`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`)
	}
	return json.RawMessage(`{"role":"tool","tool_call_id":"c","content":"r"}`)
}
