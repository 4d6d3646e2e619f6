package gen

import (
	"encoding/json"
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/agentrun"
)

// LoopCase is a generated run and the configuration it is sent with.
type LoopCase struct {
	Plan        agentrun.Plan
	Max, h, t   int
	summarize   bool
	Summarizers []protocol.SummarizerScript
}

// longestUnit is the most messages one tool turn of the plan appends as a
// unit: a call and its results.
func (c LoopCase) longestUnit() int {
	longest := 1
	for _, it := range c.Plan.Iterations {
		for _, calls := range it {
			switch {
			case c.Plan.OneByOne || c.Plan.Provider == agentrun.Anthropic:
				longest = max(longest, 2)
			default:
				longest = max(longest, 1+calls)
			}
		}
	}
	return longest
}

// Strict reports whether the head and the tail, grown to whole units and
// with a place given up to a summary, always leave room for a middle, so
// that WIN-6's exception cannot apply and every request holds at most max.
func (c LoopCase) Strict() bool {
	u := c.longestUnit()
	return c.Max > 0 && max(c.h, 1)+c.t+2*(u-1) < c.Max-1
}

func DrawLoopCase(t *rapid.T) LoopCase {
	c := LoopCase{Plan: agentrun.Plan{
		Provider: rapid.SampledFrom(onlyFormats(t, []string{agentrun.OpenAI, agentrun.Anthropic}, func(p string) string { return p })).Draw(t, "provider"),
		OneByOne: anyBool.Draw(t, "one call per message"),
	}}
	for range intRange(1, 5).Draw(t, "iterations") {
		turns := rapid.SliceOfN(rapid.IntRange(1, 5), 0, 4).Draw(t, "parallel calls per tool turn")
		c.Plan.Iterations = append(c.Plan.Iterations, turns)
	}
	c.Max = rapid.OneOf(rapid.Just(0), rapid.IntRange(2, 16), rapid.IntRange(17, 40)).Draw(t, "max_messages")
	c.h = intRange(0, 3).Draw(t, "preserve_first_n")
	c.t = intRange(0, 12).Draw(t, "preserve_last_n")
	c.summarize = anyBool.Draw(t, "summarize_on_trim")
	if c.summarize && anyBool.Draw(t, "summarizer provided") {
		for i := range intRange(1, 3).Draw(t, "summarizer scripts") {
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
			c.Summarizers = append(c.Summarizers, s)
		}
	}
	return c
}

func (c LoopCase) Config() *protocol.ConfigSource {
	block, _ := json.Marshal(map[string]any{"execution": map[string]any{"conversation": map[string]any{
		"max_messages": c.Max, "preserve_first_n": c.h, "preserve_last_n": c.t, "summarize_on_trim": c.summarize,
	}}})
	return &protocol.ConfigSource{Format: "json", Text: string(block)}
}

// LoopEdgeCases are the runs, for the provider given.
func LoopEdgeCases(provider string) []LoopCase {
	plan := agentrun.Plan{Provider: provider, Iterations: [][]int{{2}, {1, 3}, {1}, {2, 1, 1}}}
	oneByOne := plan
	oneByOne.OneByOne = true
	reply, fail, blank := "Summary of the work so far.", "upstream failure", " \n "
	var out []LoopCase
	for _, c := range []LoopCase{
		{Max: 0, h: 1, t: 2},
		{Max: 4, h: 0, t: 2}, // LOOP-2 raises preserve_first_n to 1
		{Max: 3, h: 1, t: 2},
		{Max: 4, h: 1, t: 2},
		{Max: 6, h: 1, t: 3},
		{Max: 12, h: 2, t: 4},
		{Max: 5, h: 1, t: 2, summarize: true, Summarizers: []protocol.SummarizerScript{{Reply: &reply}}},
		{Max: 5, h: 1, t: 2, summarize: true, Summarizers: []protocol.SummarizerScript{{Error: &fail}, {Reply: &reply}}},
		{Max: 5, h: 1, t: 2, summarize: true, Summarizers: []protocol.SummarizerScript{{Reply: &blank}}},
		{Max: 5, h: 1, t: 2, summarize: true},
	} {
		for _, p := range []agentrun.Plan{plan, oneByOne} {
			c.Plan = p
			out = append(out, c)
		}
	}
	return out
}

// LoopEdgeName names a case.
func LoopEdgeName(c LoopCase) string {
	name := fmt.Sprintf("%s, max_messages %d, preserve_first_n %d, preserve_last_n %d", c.Plan.Provider, c.Max, c.h, c.t)
	if c.Plan.OneByOne {
		name += ", one call per message"
	}
	if c.summarize {
		name += fmt.Sprintf(", summarizing with %d scripts", len(c.Summarizers))
	}
	return name
}
