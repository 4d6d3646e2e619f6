package differential

// Differential properties of the capabilities window and window.summarize.

import (
	"encoding/json"
	"slices"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

var windowClauses = clauseTable{
	protocol.MethodWindowCreate: {"": "CFG-1", "result.config": "CFG-1", "result.warnings": "CFG-6", "error": "CFG-3"},
	protocol.MethodWindowTrim: {"": "WIN-4", "result.trimmed": "WIN-4", "result.evicted": "WIN-5", "result.metrics": "MET-1",
		"result.metrics.estimatedTokens": "EST-1", "result.warnings": "WIN-8", "error": "MSG-1",
		"result.summary": "SUM-2", "result.summarizer_calls": "SUM-5", "result.summarizer_calls[": "SUM-1"},
	protocol.MethodWindowEstimate:  {"": "EST-1", "error": "MSG-1"},
	protocol.MethodWindowSummarize: {"": "SUM-9", "result.summarizer_calls": "SUM-1", "error": "SUM-9"},
}

// summarizeClauses governs a trim with a summarizer: where the trim's
// outcome follows from SUM-3 to SUM-7.
var summarizeClauses = clauseTable{
	protocol.MethodWindowCreate: windowClauses[protocol.MethodWindowCreate],
	protocol.MethodWindowTrim: {"": "SUM-4", "result.trimmed": "SUM-3", "result.evicted": "SUM-4", "result.metrics": "SUM-3",
		"result.warnings": "SUM-7", "error": "SUM-7", "result.summary": "SUM-2", "result.summarizer_calls": "SUM-5",
		"result.summarizer_calls[": "SUM-1"},
}

func diffWindowProperties() []prop.Property {
	return []prop.Property{
		diffProperty("prop/diff-window-trim", protocol.CapWindow,
			"a window created from any configuration (members absent, null, spelled 3.0, at and around every boundary, invalid) and trimmed with growing conversations of every shape answers every request as the reference does",
			[]string{"CFG-1", "CFG-2", "CFG-3", "CFG-4", "CFG-5", "CFG-6", "WIN-1", "WIN-2", "WIN-3", "WIN-4", "WIN-5", "WIN-6", "WIN-7", "WIN-8", "WIN-9", "EST-1", "MET-1", "MET-2", "MSG-1", "MSG-2", "UNIT-2", "UNIT-3"},
			func(t *rapid.T, formats []string) []call { return drawTrims(t, formats, false) }, windowExamples(), windowClauses.of),
		diffProperty("prop/diff-window-estimate", protocol.CapWindow,
			"window.estimate of any list of messages (any content, astral and combining characters, numbers in every JSON spelling) answers as the reference does",
			[]string{"EST-1", "EST-2", "EST-3", "EST-4", "EST-5", "MSG-1"},
			func(t *rapid.T, _ []string) []call {
				msgs := rapid.SliceOfN(gen.Messages(-1, gen.MessageOpts{Tools: true, Overflow: true, PlaneEdges: true}), 0, 6).Draw(t, "messages")
				list := gen.Raws(msgs)
				if rapid.IntRange(0, 9).Draw(t, "invalid") == 0 {
					list = append(list, gen.InvalidMessage(t))
				}
				return []call{{protocol.MethodWindowEstimate, map[string]any{"messages": list}}}
			}, map[string][]call{
				"empty":           {{protocol.MethodWindowEstimate, map[string]any{"messages": []json.RawMessage{}}}},
				"astral and nul":  {{protocol.MethodWindowEstimate, map[string]any{"messages": rawList(`{"role":"user","content":"😀\u0000e\u0301"}`)}}},
				"numbers spelled": {{protocol.MethodWindowEstimate, map[string]any{"messages": rawList(`{"role":"user","content":[1.0,1e21,-0,0.0000001,1E2]}`)}}},
			}, windowClauses.of),
		diffProperty("prop/diff-window-summarize-trim", protocol.CapSummarize,
			"a summarizing window trimmed again and again (summarizers that reply, fail, reply blank or answer late; the rate limit holding evictions back and a later trim summarizing them) answers every trim as the reference does",
			[]string{"SUM-1", "SUM-2", "SUM-3", "SUM-4", "SUM-5", "SUM-6", "SUM-7", "SUM-8"},
			func(t *rapid.T, formats []string) []call { return drawTrims(t, formats, true) }, summarizeExamples(), summarizeClauses.of),
		diffProperty("prop/diff-window-summarize", protocol.CapSummarize,
			"window.summarize of any messages with any script answers as the reference does",
			[]string{"SUM-9", "SUM-1"},
			func(t *rapid.T, formats []string) []call {
				msgs := gen.DiffConversation(t, formats, rapid.IntRange(0, 8).Draw(t, "n"))
				return []call{{protocol.MethodWindowSummarize, map[string]any{"messages": msgs, "summarizer": gen.Scripts().Draw(t, "summarizer")}}}
			}, map[string][]call{
				"blank reply": {{protocol.MethodWindowSummarize, map[string]any{"messages": rawList(`{"role":"user","content":"a"}`), "summarizer": map[string]any{"reply": " \u2028"}}}},
				"nothing":     {{protocol.MethodWindowSummarize, map[string]any{"messages": rawList(), "summarizer": map[string]any{"reply": "x"}}}},
				// SUM-1, D-48: each call renders on its own; an odd one
				// hides none of the others
				"odd tool call beside good ones": {{protocol.MethodWindowSummarize, map[string]any{"messages": rawList(
					`{"role":"assistant","content":"c","tool_calls":[{"id":"t","function":{"name":"n","arguments":"args"}},{"id":"s","function":{"name":5,"arguments":{"a":1}}},{"id":"r","function":"f"}]}`,
					`{"role":"tool","tool_call_id":"t","content":"1"}`, `{"role":"tool","tool_call_id":"s","content":"2"}`, `{"role":"tool","tool_call_id":"r","content":null}`,
				), "summarizer": map[string]any{"reply": "x"}}}},
				"a name given twice": {{protocol.MethodWindowSummarize, map[string]any{"messages": rawList(
					`{"role":"user","content":"draft","content":[{"type":"text","text":"a","text":"b"},{"type":"tool_use","id":"u","name":"x","name":"y","input":{}}]}`,
				), "summarizer": map[string]any{"reply": "x"}}}},
			}, windowClauses.of),
	}
}

func rawList(msgs ...string) []json.RawMessage {
	out := []json.RawMessage{}
	for _, m := range msgs {
		out = append(out, json.RawMessage(m))
	}
	return out
}

// invalidConfigs are configurations CFG-3 and CFG-4 refuse or warn about,
// and spellings at the edge of what they accept.
var invalidConfigs = []string{`{"max_messages":-1}`, `{"max_messages":2.5}`, `{"max_messages":"3"}`,
	`{"preserve_first_n":true}`, `{"max_messages":9007199254740992}`, `{"max_messages":9007199254740991}`,
	`{"extra":1}`, `[]`, `null`, `{"max_messages":1e2}`, `{"max_messages":-0}`, `{"summarize_on_trim":"yes"}`,
	`{"preserve_last_n":-0.0}`, `{"max_messages":1E1,"preserve_first_n":0,"preserve_last_n":0}`}

// drawTrims draws a window and trims of one growing conversation: each
// trim sends a longer prefix, as an agent loop resends its history. With
// summarize, the window summarizes and the trims carry scripts.
func drawTrims(t *rapid.T, formats []string, summarize bool) []call {
	var cfg json.RawMessage
	maxN, h, tl := gen.DefaultMax, gen.DefaultFirst, gen.DefaultLast
	if !summarize && rapid.IntRange(0, 7).Draw(t, "invalid config") == 0 {
		cfg = json.RawMessage(rapid.SampledFrom(invalidConfigs).Draw(t, "config"))
	} else {
		c := gen.Configs(rapid.OneOf(rapid.SampledFrom([]int{1, 2, 3, 4, 5, 6, 10}), gen.Maxes)).Draw(t, "config")
		if summarize {
			var m map[string]json.RawMessage
			if c.Raw == nil || json.Unmarshal(c.Raw, &m) != nil || m == nil {
				m = map[string]json.RawMessage{}
			}
			if rapid.IntRange(0, 5).Draw(t, "summarize off") > 0 {
				m["summarize_on_trim"] = json.RawMessage("true")
			}
			c.Raw, _ = json.Marshal(m)
		}
		cfg = c.Raw
		maxN, h, tl, _ = c.Want()
	}
	seq := []call{{protocol.MethodWindowCreate, map[string]any{}}}
	if cfg != nil {
		seq[0].Params["config"] = cfg
	}
	longestConv := gen.Lengths(maxN, h, tl, gen.OverCap).Draw(t, "length")
	if summarize {
		longestConv = max(longestConv, rapid.IntRange(0, 45).Draw(t, "summarized length"))
	}
	conv := gen.DiffConversation(t, formats, min(longestConv, gen.LongestConversation))
	trims := rapid.IntRange(1, 4).Draw(t, "trims")
	if summarize {
		trims = rapid.IntRange(1, 6).Draw(t, "trims")
	}
	ends := rapid.SliceOfN(rapid.IntRange(0, len(conv)), trims, trims).Draw(t, "prefix ends")
	slices.Sort(ends)
	ends[len(ends)-1] = len(conv)
	for _, end := range ends {
		p := map[string]any{"window": windowRef(0), "messages": conv[:end]}
		if summarize && rapid.IntRange(0, 5).Draw(t, "no summarizer") > 0 {
			p["summarizer"] = gen.Scripts().Draw(t, "summarizer")
		}
		seq = append(seq, call{protocol.MethodWindowTrim, p})
	}
	if rapid.IntRange(0, 3).Draw(t, "again") == 0 {
		seq = append(seq, seq[len(seq)-1]) // the same list once more: nothing new evicted
	}
	return seq
}

// numbered builds n plain messages m1 … mn, alternating user and assistant
// after a system prompt.
func numbered(n int) []json.RawMessage {
	out := []json.RawMessage{}
	for i := 1; i <= n; i++ {
		role := []string{"user", "assistant"}[i%2]
		if i == 1 {
			role = "system"
		}
		out = append(out, json.RawMessage(`{"role":"`+role+`","content":"m`+itoa(i)+`"}`))
	}
	return out
}

func itoa(i int) string { return string(gen.MustJSON(i)) }

// trimSeq is a window of config trimmed once with messages.
func trimSeq(config string, msgs []json.RawMessage, extra map[string]any) []call {
	p := map[string]any{"window": windowRef(0), "messages": msgs}
	for k, v := range extra {
		p[k] = v
	}
	return []call{{protocol.MethodWindowCreate, map[string]any{"config": json.RawMessage(config)}}, {protocol.MethodWindowTrim, p}}
}

// windowExamples are the boundaries of WIN and CFG, every one run first.
func windowExamples() map[string][]call {
	ex := map[string][]call{}
	for _, c := range []struct {
		name, config string
		n            int
	}{
		{"cap-1", `{"max_messages":5,"preserve_first_n":1,"preserve_last_n":2}`, 4},
		{"cap", `{"max_messages":5,"preserve_first_n":1,"preserve_last_n":2}`, 5},
		{"cap+1", `{"max_messages":5,"preserve_first_n":1,"preserve_last_n":2}`, 6},
		{"cap+2", `{"max_messages":5,"preserve_first_n":1,"preserve_last_n":2}`, 7},
		{"head+tail=max-1", `{"max_messages":5,"preserve_first_n":2,"preserve_last_n":2}`, 9},
		{"head+tail=max", `{"max_messages":5,"preserve_first_n":2,"preserve_last_n":3}`, 9},
		{"head+tail=max+1", `{"max_messages":5,"preserve_first_n":3,"preserve_last_n":3}`, 9},
		{"max 0 disables", `{"max_messages":0}`, 30},
		{"max 1", `{"max_messages":1,"preserve_first_n":0,"preserve_last_n":0}`, 3},
		{"max 1 head 1", `{"max_messages":1}`, 3},
		{"defaults at 100", `{}`, 100},
		{"defaults at 101", `{}`, 101},
		{"nulls", `{"max_messages":null,"preserve_first_n":null,"preserve_last_n":null,"summarize_on_trim":null}`, 101},
		{"spelled 3.0 and 3e0", `{"max_messages":3.0,"preserve_first_n":1e0,"preserve_last_n":1.0}`, 5},
		{"head 0 tail 0", `{"max_messages":2,"preserve_first_n":0,"preserve_last_n":0}`, 4},
	} {
		ex[c.name] = trimSeq(c.config, numbered(c.n), nil)
	}
	for _, cfg := range invalidConfigs {
		ex["config "+cfg] = []call{{protocol.MethodWindowCreate, map[string]any{"config": json.RawMessage(cfg)}}}
	}
	ex["no config"] = []call{{protocol.MethodWindowCreate, map[string]any{}}}
	// A window trims each list on its own (WIN-7): nothing of an earlier
	// trim carries over.
	again := trimSeq(`{"max_messages":5,"preserve_first_n":1,"preserve_last_n":2}`, numbered(8), nil)
	all := numbered(10)
	handedOn := append([]json.RawMessage{all[0]}, all[4:]...) // what the first trim kept, and two more
	again = append(again, call{protocol.MethodWindowTrim, map[string]any{"window": windowRef(0), "messages": handedOn}})
	ex["trimmed twice"] = again
	ex["tool unit at the cut"] = trimSeq(`{"max_messages":4,"preserve_first_n":1,"preserve_last_n":1}`, rawList(
		`{"role":"system","content":"s"}`, `{"role":"user","content":"u"}`,
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"f","arguments":""}}]}`,
		`{"role":"tool","tool_call_id":"c2","content":"b"}`, `{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"a"}]}`,
		`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f"}]}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[]}]}`,
		`{"role":"developer","content":"d"}`, `{"role":"assistant","content":"done","tool_calls":[]}`), nil)
	return ex
}

// summarizeExamples are the rate limit's and the fallbacks' boundaries.
func summarizeExamples() map[string][]call {
	on := `{"max_messages":4,"preserve_first_n":1,"preserve_last_n":1,"summarize_on_trim":true}`
	reply := map[string]any{"summarizer": map[string]any{"reply": "S"}}
	ex := map[string][]call{
		"nine evicted":      trimSeq(on, numbered(13), reply),
		"ten evicted":       trimSeq(on, numbered(14), reply),
		"eleven evicted":    trimSeq(on, numbered(15), reply),
		"blank reply":       trimSeq(on, numbered(15), map[string]any{"summarizer": map[string]any{"reply": "\u3000\n"}}),
		"error":             trimSeq(on, numbered(15), map[string]any{"summarizer": map[string]any{"error": "x"}}),
		"late":              trimSeq(on, numbered(15), map[string]any{"summarizer": map[string]any{"reply": "S", "delay_ms": 200, "timeout_ms": 5}}),
		"no summarizer":     trimSeq(on, numbered(15), nil),
		"summarize off":     trimSeq(`{"max_messages":4,"preserve_first_n":1,"preserve_last_n":1}`, numbered(15), reply),
		"only tool results": trimSeq(on, append(numbered(2), rawList(`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]}`, `{"role":"tool","tool_call_id":"c1","content":"r"}`, `{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}}]}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"}]}`, `{"role":"assistant","content":"x"}`, `{"role":"user","content":"y"}`)...), reply),
	}
	// The rate limit holds evictions back, then a later trim summarizes
	// them all (SUM-4, SUM-5).
	seq := trimSeq(on, numbered(8), reply)
	for _, n := range []int{10, 12, 16, 20} {
		seq = append(seq, call{protocol.MethodWindowTrim, map[string]any{"window": windowRef(0), "messages": numbered(n), "summarizer": map[string]any{"reply": "S"}}})
	}
	ex["held back then summarized"] = seq
	fail := trimSeq(on, numbered(15), map[string]any{"summarizer": map[string]any{"error": "x"}})
	fail = append(fail, call{protocol.MethodWindowTrim, map[string]any{"window": windowRef(0), "messages": numbered(17), "summarizer": map[string]any{"reply": "S"}}})
	ex["failure then success"] = fail
	// SUM-8: a trim without a summarizer adds nothing to the pending list.
	none := trimSeq(on, numbered(9), nil)
	for _, n := range []int{12, 14} {
		none = append(none, call{protocol.MethodWindowTrim, map[string]any{"window": windowRef(0), "messages": numbered(n), "summarizer": map[string]any{"reply": "S"}}})
	}
	ex["no summarizer then one"] = none
	return ex
}
