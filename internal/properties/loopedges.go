package properties

import (
	"encoding/json"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/agentrun"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The loop's edge examples (LOOP-1 – LOOP-7): one run of single and
// parallel tool calls, in each declared provider format and with one call
// per message, under trimming off, preserve_first_n 0, a cap the head and
// tail fill, a cap one above them, a roomy cap, and summarization with a summarizer that
// replies, fails, replies blank, or is absent.

// loopEdges runs loopRun on every case in every declared format.
func loopEdges() []prop.Example {
	var out []prop.Example
	for _, provider := range []string{agentrun.OpenAI, agentrun.Anthropic} {
		for _, c := range gen.LoopEdgeCases(provider) {
			out = append(out, prop.Example{Name: gen.LoopEdgeName(c), Run: func(f prop.Failer, tg target.Target) {
				if !gen.SendsOnly(prop.ProviderFormats(tg.Info()), map[string]any{"format": providerMessage(provider)}) {
					return // a format the implementation does not declare (D-42)
				}
				loopRun(fixedSession(f, tg, "LOOP-1"), c)
			}})
		}
	}
	return out
}

// providerMessage is a message of the provider's tool format, to ask
// sendsOnly whether the implementation declares it.
func providerMessage(provider string) json.RawMessage {
	if provider == agentrun.Anthropic {
		return json.RawMessage(`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`)
	}
	return json.RawMessage(`{"role":"tool","tool_call_id":"c","content":"r"}`)
}
