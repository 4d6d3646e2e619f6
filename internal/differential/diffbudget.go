package differential

// Differential properties of the capabilities budget and tokens.cl100k.
// Limits are drawn around the thresholds of the conversation at hand: the
// reference counts it while the case is generated, and the limit is chosen
// so that the count lands one token below, exactly at, or one above 80 %
// and 95 % of it (the conversation is padded until exactness is possible).

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/server"
)

var budgetClauses = clauseTable{
	protocol.MethodTokensEncode:   {"": "TOK-1"},
	protocol.MethodBudgetCount:    {"": "TOK-2", "result.tokens": "TOK-3", "error": "MSG-1"},
	protocol.MethodBudgetCheck:    {"": "TOK-3", "result.limit": "LIM-1", "result.approaching": "THR-1", "result.at_limit": "THR-2", "error": "LIM-2"},
	protocol.MethodBudgetPrune:    {"": "PRN-1", "error": "PRN-4"},
	protocol.MethodBudgetCompress: {"": "CMP-1", "error": "CMP-2"},
	protocol.MethodBudgetPrepare: {"": "PREP-2", "result.events": "PREP-2", "result.summarizer_calls": "PREP-3",
		"error": "PREP-4", "error.kind": "PREP-4"},
}

// refCount is the reference's TOK-3 count of msgs, -1 when it refuses them.
func refCount(msgs []json.RawMessage) int {
	// Without a handshake, which budget.count never needs: a handshake
	// for every count, up to 40 of them to pad one conversation, was 3 %
	// of the harness's CPU.
	ref := inprocess.Oracle(server.Reference{})
	raw, err := ref.Call(context.Background(), protocol.MethodBudgetCount, map[string]any{"messages": msgs})
	if err != nil {
		return -1
	}
	return tokensOf(raw)
}

// tokensOf is the count of a budget.count result, -1 when it does not
// decode as one: read in place (jsonscan.Fields) where that can say, as
// json.Unmarshal decodes it otherwise. A case pads its conversation with
// up to 40 counts.
func tokensOf(raw []byte) int {
	var res protocol.BudgetCountResult
	if members, ok := readObject(raw); ok && jsonscan.Fields(members, &res) {
		return res.Tokens
	}
	res = protocol.BudgetCountResult{}
	if json.Unmarshal(raw, &res) != nil {
		return -1
	}
	return res.Tokens
}

// padTo appends a user message of a few words so that the count becomes a
// multiple of k (when some padding of up to 40 words does it) and returns
// the conversation and its count.
func padTo(msgs []json.RawMessage, k int) ([]json.RawMessage, int) {
	n := refCount(msgs)
	if n < 0 || k <= 1 || n%k == 0 {
		return msgs, n
	}
	for words := 1; words <= 40; words++ {
		padded := append(append([]json.RawMessage{}, msgs...), json.RawMessage(`{"role":"user","content":"`+strings.Repeat(" a", words)+`"}`))
		if c := refCount(padded); c > 0 && c%k == 0 {
			return padded, c
		}
	}
	return msgs, n
}

// limitAround draws a limit that puts count one token under, at or one
// over percent of it, or anywhere.
func limitAround(t *rapid.T, count int) int {
	percent := rapid.SampledFrom([]int{80, 95, 80, 95, 100, 50}).Draw(t, "threshold")
	exact := max(1, count*100/percent)
	return max(1, exact+rapid.SampledFrom([]int{0, 0, -1, 1, -2, 2, 1000}).Draw(t, "around"))
}

// drawBudgetParams draws messages, a model and limits for check, prune and
// prepare: a custom model's limit around a threshold, mostly.
// One fault at most: a bad model, a bad limit, or a bad message (which of
// two faults an error names is open); p's target_ratio, when the caller
// adds one, is valid unless ratio says otherwise.
func drawBudgetParams(t *rapid.T, formats []string, p map[string]any) (faulty bool) {
	fault := rapid.SampledFrom([]string{"none", "none", "none", "message", "model", "limit"}).Draw(t, "fault")
	msgs := gen.DrawConversation(t, formats, rapid.IntRange(1, 10).Draw(t, "n"), fault == "message")
	switch rapid.IntRange(0, 3).Draw(t, "exact at") {
	case 0:
		msgs, _ = padTo(msgs, 4) // 80 % of count·5/4 is count
	case 1:
		msgs, _ = padTo(msgs, 19) // 95 % of count·20/19 is count
	}
	p["messages"] = msgs
	switch fault {
	case "model":
		model := rapid.SampledFrom([]string{"no-such-model", ""}).Draw(t, "bad model")
		p["model"] = model
		if rapid.Bool().Draw(t, "other limits") {
			p["limits"] = map[string]any{"x": 1}
		}
	case "limit":
		model := rapid.SampledFrom([]string{"m", "gpt-4o"}).Draw(t, "model")
		p["model"] = model
		p["limits"] = map[string]any{model: rapid.SampledFrom([]any{0, -1, 2.5, "100", 9007199254740992}).Draw(t, "bad limit")}
	default:
		model := rapid.SampledFrom([]string{"gpt-4o", "claude-3.5-sonnet", "gemini-3-pro", "m", "m", "m"}).Draw(t, "model")
		p["model"] = model
		if model == "m" || rapid.Bool().Draw(t, "override") {
			p["limits"] = map[string]any{model: limitAround(t, max(refCount(msgs), 1))}
		}
	}
	return fault != "none"
}

func diffBudgetProperties() []prop.Property {
	return []prop.Property{
		diffProperty("prop/diff-tokens-encode", protocol.CapTokens,
			"tokens.encode of texts from every Unicode general category and many scripts, white-space runs of every kind and length, contractions in every case and digit runs answers the reference's token ids",
			[]string{"TOK-1"},
			func(t *rapid.T, _ []string) []call {
				return []call{{protocol.MethodTokensEncode, map[string]any{"text": gen.CornerTexts.Draw(t, "text")}}}
			}, encodeExamples(), budgetClauses.of),
		diffProperty("prop/diff-budget-count", protocol.CapBudget,
			"budget.count of any messages (every content shape, corner texts, rare units) answers the reference's per-message counts",
			[]string{"TOK-2", "TOK-3", "MSG-1"},
			func(t *rapid.T, formats []string) []call {
				msgs := gen.DiffConversation(t, formats, rapid.IntRange(0, 8).Draw(t, "n"))
				for range rapid.IntRange(0, 3).Draw(t, "plain messages") {
					msgs = append(msgs, gen.Messages(-1, gen.MessageOpts{Tools: true}).Draw(t, "message").Raw)
				}
				return []call{{protocol.MethodBudgetCount, map[string]any{"messages": msgs}}}
			}, map[string][]call{
				"rare shapes": {{protocol.MethodBudgetCount, map[string]any{"messages": rareShapes()}}},
				"empty":       {{protocol.MethodBudgetCount, map[string]any{"messages": rawList()}}},
				// TOK-2 counts a non-null tool_calls on a message of any role
				"calls on every role": {{protocol.MethodBudgetCount, map[string]any{"messages": rawList(
					`{"role":"user","content":"x","tool_calls":[{"id":"u1","type":"function","function":{"name":"f","arguments":"{}"}}]}`,
					`{"role":"system","content":"s","tool_calls":[]}`, `{"role":"developer","content":"d","tool_calls":[{"id":"d1","function":{"name":"g","arguments":""}}]}`,
				)}}},
				"names and nested content": {{protocol.MethodBudgetCount, map[string]any{"messages": rawList(
					`{"role":"user","name":"alice","content":"hi"}`, `{"role":"user","content":[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","url":"https://x"}}]}`,
					`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]}`,
					`{"role":"tool","tool_call_id":"c1","content":"{\"t\":21}"}`, `{"role":"user","content":7}`, `{"role":"user","content":{"a":[1.0,null,true]}}`)}}},
			}, budgetClauses.of),
		withExamples(diffProperty("prop/diff-budget-check", protocol.CapBudget,
			"budget.check with limits one token around 80 % and 95 % of the count, known, unknown and added models answers as the reference does",
			[]string{"TOK-3", "LIM-1", "LIM-2", "THR-1", "THR-2"},
			func(t *rapid.T, formats []string) []call {
				p := map[string]any{}
				drawBudgetParams(t, formats, p)
				return []call{{protocol.MethodBudgetCheck, p}}
			}, nil, budgetClauses.of), thresholdExamples(protocol.MethodBudgetCheck, budgetClauses.of)...),
		withExamples(diffProperty("prop/diff-budget-prune", protocol.CapBudget,
			"budget.prune with limits around the target and target_ratio spelled every way answers as the reference does",
			[]string{"PRN-1", "PRN-2", "PRN-3", "PRN-4", "PRN-5", "UNIT-3"},
			func(t *rapid.T, formats []string) []call {
				p := map[string]any{}
				ratios := []string{"0.8", "0.80", "8e-1", "0.5", "1", "1.0", "0.01", "null"}
				if !drawBudgetParams(t, formats, p) {
					ratios = append(ratios, "0", "1.5", "-0.1", `"0.8"`) // a fault of its own
				}
				if rapid.Bool().Draw(t, "target_ratio given") {
					p["target_ratio"] = json.RawMessage(rapid.SampledFrom(ratios).Draw(t, "target_ratio"))
				}
				return []call{{protocol.MethodBudgetPrune, p}}
			}, nil, budgetClauses.of), thresholdExamples(protocol.MethodBudgetPrune, budgetClauses.of)...),
		diffProperty("prop/diff-budget-compress", protocol.CapBudget,
			"budget.compress of any conversation with any script answers as the reference does",
			[]string{"CMP-1", "CMP-2"},
			func(t *rapid.T, formats []string) []call {
				return []call{{protocol.MethodBudgetCompress, map[string]any{"messages": gen.DiffConversation(t, formats, rapid.IntRange(0, 10).Draw(t, "n")), "summarizer": gen.Scripts().Draw(t, "summarizer")}}}
			}, map[string][]call{
				"blank reply": {{protocol.MethodBudgetCompress, map[string]any{"messages": numbered(5), "summarizer": map[string]any{"reply": " "}}}},
				"ends in a tool result": {{protocol.MethodBudgetCompress, map[string]any{"summarizer": map[string]any{"reply": "S"}, "messages": rawList(`{"role":"system","content":"s"}`, `{"role":"user","content":"u"}`,
					`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f"}]}`, `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1"}]}`)}}},
				"no user prompt": {{protocol.MethodBudgetCompress, map[string]any{"messages": rawList(`{"role":"system","content":"s"}`), "summarizer": map[string]any{"reply": "S"}}}},
			}, budgetClauses.of),
		withExamples(diffProperty("prop/diff-budget-prepare", protocol.CapBudget,
			"budget.prepare with limits around 80 % and 95 % and summarizers that reply, fail or reply blank answers as the reference does",
			[]string{"PREP-1", "PREP-2", "PREP-3", "PREP-4", "PREP-5"},
			func(t *rapid.T, formats []string) []call {
				p := map[string]any{"summarizer": gen.Scripts().Draw(t, "summarizer")}
				drawBudgetParams(t, formats, p)
				return []call{{protocol.MethodBudgetPrepare, p}}
			}, nil, budgetClauses.of), thresholdExamples(protocol.MethodBudgetPrepare, budgetClauses.of)...),
	}
}

// encodeExamples are texts at the pre-tokenizer's edges.
func encodeExamples() map[string][]call {
	ex := map[string][]call{}
	for _, text := range []string{"", " ", "  ", "\n\n\n", " \n", "\t\t x", "a  b", "a\u00a0\u00a0b", "\u2028\u2029", "\u3000x",
		"I'M", "it'S", "we'Ll", "they'VE", "don't", "x'd", "'s", "''", "it'Sam", "it'SELL", "I'VEX", "'DEAL", "WE'REAL", "don'TRY", "I'Mark", "'reason", "a\u2019s", "1234567", "12345678", "٣٤٥", "①②", "ℌ",
		"e\u0301\u0302", "😀😀", "中文字符", "한국어", "<|endoftext|>", "!!!", "a.b,c", "   !", "\r\n\r\n", "x \u0085y",
		"\uffff", "a\U00010000b", "\U0010ffff", "\ud7ff\ue000", "\u07ff\u0800"} {
		ex["text "+strconv.Quote(text)] = []call{{protocol.MethodTokensEncode, map[string]any{"text": text}}}
	}
	return ex
}

// withExamples is p with more edge examples.
func withExamples(p prop.Property, examples ...prop.Example) prop.Property {
	p.Examples = append(p.Examples, examples...)
	return p
}

// thresholdExamples are conversations exactly at 80 % and 95 % of a limit
// and one token around them. Their requests need the reference's own
// counts, so each is built when it runs, not when the catalogue is: every
// conform start builds the catalogue, and most never run a budget
// property.
func thresholdExamples(method string, clauseOf func(method, path string) string) []prop.Example {
	calls := thresholdCalls(method)
	var out []prop.Example
	for _, name := range sortedKeys(calls) {
		out = append(out, edgeExample(name, calls[name], clauseOf))
	}
	return out
}

// thresholdCalls are the requests of thresholdExamples by name, each built
// when called; a count of the reference's is asked once, by the first
// example that needs it.
func thresholdCalls(method string) map[string]func() []call {
	ex := map[string]func() []call{}
	params := func(msgs []json.RawMessage, limit int, summarizer map[string]any) []call {
		p := map[string]any{"messages": msgs, "model": "m", "limits": map[string]any{"m": limit}}
		if summarizer != nil {
			p["summarizer"] = summarizer
		}
		return []call{{method, p}}
	}
	for _, k := range []struct {
		name    string
		percent int
	}{{"80%", 80}, {"95%", 95}} {
		padded := sync.OnceValues(func() ([]json.RawMessage, int) {
			return padTo(numbered(6), map[int]int{80: 4, 95: 19}[k.percent])
		})
		for _, d := range []int{-1, 0, 1} {
			ex[k.name+" limit "+itoa(d)] = func() []call {
				msgs, count := padded()
				var summarizer map[string]any
				if method == protocol.MethodBudgetPrepare {
					summarizer = map[string]any{"reply": "S"}
				}
				return params(msgs, count*100/k.percent+d, summarizer)
			}
		}
	}
	if method == protocol.MethodBudgetPrepare {
		// PREP-3, PREP-4: above 95 % with a summarizer that fails, or
		// replies blank, and a first message pruning cannot remove, so that
		// the fallback is still at the limit — and, with a roomier limit,
		// below it.
		huge := rawList(`{"role":"system","content":"`+strings.Repeat(" the", 90)+`"}`, `{"role":"user","content":"go"}`)
		hugeCount := sync.OnceValue(func() int { return refCount(huge) })
		for limitName, limit := range map[string]func() int{"its count": hugeCount, "its count / 0.9": func() int { return hugeCount() * 100 / 90 }} {
			for name, sum := range map[string]map[string]any{"fails": {"error": "quota exceeded"}, "replies blank": {"reply": " "}} {
				ex[fmt.Sprintf("a summarizer that %s, first message too big, limit %s", name, limitName)] = func() []call { return params(huge, limit(), sum) }
			}
		}
		// UNIT-2: a malformed structure is refused on every path, not only
		// where prepare prunes: 37 tokens under 80 %, between 80 % and
		// 95 % and above 95 % of the limit.
		users := []string{`{"role":"user","content":"` + strings.Repeat(" the", 14) + `"}`, `{"role":"user","content":"` + strings.Repeat(" the", 19) + `"}`}
		for format, orphan := range map[string]string{"openai": `{"role":"tool","tool_call_id":"x","content":"r"}`, "anthropic": `{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"r"}]}`} {
			for where, limit := range map[string]int{"under 80%": 1000, "80% to 95%": 40, "above 95%": 10} {
				ex["malformed structure "+format+" "+where] = func() []call {
					return params(rawList(append([]string{orphan}, users...)...), limit, map[string]any{"reply": "S"})
				}
			}
		}
	}
	ex["unknown model"] = func() []call {
		return []call{{method, map[string]any{"messages": numbered(2), "model": "no-such-model", "summarizer": map[string]any{"reply": "S"}}}}
	}
	ex["empty"] = func() []call {
		return []call{{method, map[string]any{"messages": rawList(), "model": "gpt-4o", "summarizer": map[string]any{"reply": "S"}}}}
	}
	// PREP-5: a long conversation, most of it to prune.
	long := numbered(501)
	longCount := sync.OnceValue(func() int { return refCount(long) })
	for name, limit := range map[string]func() int{"long at 90%": func() int { return longCount() * 100 / 90 }, "long at 400%": func() int { return longCount() / 4 }} {
		ex[name] = func() []call { return params(long, limit(), map[string]any{"reply": "S"}) }
	}
	return ex
}
