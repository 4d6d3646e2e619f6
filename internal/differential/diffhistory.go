package differential

// Differential properties of the capability history.

import (
	"encoding/json"
	"slices"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

var historyClauses = clauseTable{
	protocol.MethodHistoryClassify: {"": "CLS-1", "result.units": "UNIT-1", "error": "UNIT-2"},
	protocol.MethodHistoryPrune:    {"": "PRUNE-1", "result.removed": "PRUNE-3", "error": "MSG-1"},
	protocol.MethodHistoryBuild:    {"": "BUILD-1", "result.warnings": "BUILD-2", "error": "BUILD-2"},
}

// maxSpellings are max_messages of history.build: counts spelled every way
// JSON allows (the first validMaxes), then what CFG-3 refuses.
var maxSpellings = []string{"0", "1", "2", "3", "5", "10", "3.0", "3e0", "30E-1", "-0", "-1", "2.5", "null", `"3"`, "true", "9007199254740992"}

const validMaxes = 10

func diffHistoryProperties() []prop.Property {
	conversation := func(t *rapid.T, formats []string) []json.RawMessage {
		return gen.DiffConversation(t, formats, rapid.IntRange(0, 14).Draw(t, "n"))
	}
	return []prop.Property{
		diffProperty("prop/diff-history-classify", protocol.CapHistory,
			"history.classify of any conversation (both formats, rare shapes, malformed structures) answers as the reference does",
			[]string{"CLS-1", "CLS-2", "UNIT-1", "UNIT-2", "MSG-1"},
			func(t *rapid.T, formats []string) []call {
				return []call{{protocol.MethodHistoryClassify, map[string]any{"messages": conversation(t, formats)}}}
			}, map[string][]call{
				"rare shapes": {{protocol.MethodHistoryClassify, map[string]any{"messages": rareShapes()}}},
				"empty":       {{protocol.MethodHistoryClassify, map[string]any{"messages": rawList()}}},
			}, historyClauses.of),
		diffProperty("prop/diff-history-prune", protocol.CapHistory,
			"history.prune of any conversation, runs of prompts separated by every class, answers as the reference does",
			[]string{"PRUNE-1", "PRUNE-2", "PRUNE-3", "PRUNE-4", "MSG-1"},
			func(t *rapid.T, formats []string) []call {
				h := gen.Histories(gen.HistoryOpts{N: rapid.IntRange(0, 14).Draw(t, "n"), Tools: -1, Runs: true, Formats: formats}).Draw(t, "conversation")
				msgs := gen.Raws(h.Msgs)
				if rapid.Bool().Draw(t, "with rare units") {
					msgs = conversation(t, formats)
				}
				return []call{{protocol.MethodHistoryPrune, map[string]any{"messages": msgs}}}
			}, map[string][]call{
				"rare shapes": {{protocol.MethodHistoryPrune, map[string]any{"messages": rareShapes()}}},
				"prompts only": {{protocol.MethodHistoryPrune, map[string]any{"messages": rawList(`{"role":"user","content":"a"}`, `{"role":"user","content":"b"}`,
					`{"role":"developer","content":"d"}`, `{"role":"user"}`, `{"role":"function","content":"f"}`, `{"role":"user","content":[]}`)}}},
			}, historyClauses.of),
		diffProperty("prop/diff-history-build", protocol.CapHistory,
			"history.build of any conversation with max_messages spelled every way answers as the reference does",
			[]string{"BUILD-1", "BUILD-2", "BUILD-3", "BUILD-4", "BUILD-5"},
			func(t *rapid.T, formats []string) []call {
				p := map[string]any{}
				valid := false
				if rapid.IntRange(0, 15).Draw(t, "max absent") > 0 {
					max := rapid.SampledFrom(maxSpellings).Draw(t, "max_messages")
					p["max_messages"] = json.RawMessage(max)
					valid = slices.Index(maxSpellings, max) < validMaxes
				}
				// One fault at most: which of a bad max_messages and a bad
				// message an error names is open.
				p["messages"] = gen.DrawConversation(t, formats, rapid.IntRange(0, 14).Draw(t, "n"), valid)
				return []call{{protocol.MethodHistoryBuild, p}}
			}, buildExamples(), historyClauses.of),
	}
}

// rareShapes is one of every rare message shape, in a well-formed order.
func rareShapes() []json.RawMessage {
	return rawList(`{"role":"developer","content":"d"}`, `{"role":"system","content":[]}`,
		`{"role":"user","content":""}`, `{"role":"user"}`, `{"role":"user","content":null}`,
		`{"role":"assistant","content":"x","tool_calls":[]}`, `{"role":"assistant","tool_calls":null}`,
		`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"t1","name":"f"}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[]}]}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":""}}]}`,
		`{"role":"tool","tool_call_id":"c1"}`,
		`{"role":"user","content":{"type":"tool_result","tool_use_id":"t9"}}`,
		`{"role":"ipython","content":"o"}`, `{"role":"user","content":"last"}`)
}

func buildExamples() map[string][]call {
	ex := map[string][]call{}
	for _, max := range maxSpellings {
		ex["max "+max] = []call{{protocol.MethodHistoryBuild, map[string]any{"messages": rareShapes(), "max_messages": json.RawMessage(max)}}}
	}
	ex["max absent"] = []call{{protocol.MethodHistoryBuild, map[string]any{"messages": rareShapes()}}}
	ex["dangling call"] = []call{{protocol.MethodHistoryBuild, map[string]any{"max_messages": 4, "messages": rawList(`{"role":"system","content":"s"}`,
		`{"role":"user","content":"u"}`, `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
		`{"role":"user","content":"v"}`, `{"role":"tool","tool_call_id":"c9","content":"r"}`, `{"role":"assistant","content":"w"}`)}}}
	return ex
}
