package properties

import (
	"fmt"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The summarization state machine's edge examples (SUM-1 – SUM-8): fixed
// sequences of appends and trims that reach, on purpose, what random
// sequences reach by luck — 9 and 10 covered messages either side of the
// rate limit (SUM-5), evictions held back by the rate limit and summarized
// by a later trim (SUM-4), a failed call and a blank reply that keep the
// pending list (SUM-7), tool calls without text (SUM-6), no summarizer and
// summarize_on_trim false (SUM-8).

// machineStep is one step of a fixed sequence: "msg", "tool" or "silent"
// appends a unit of that kind; "trim:" and a summarizer kind (reply,
// error, empty, blank, none) trims.
type machineStep string

// machineEdge is a window and a sequence of steps.
type machineEdge struct {
	name      string
	max, h, t int
	on        bool
	steps     []machineStep
}

// times repeats a step.
func times(n int, s machineStep) []machineStep {
	out := make([]machineStep, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func steps(parts ...[]machineStep) []machineStep {
	var out []machineStep
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func step1(s machineStep) []machineStep { return []machineStep{s} }

// machineEdges: with max_messages 4 and one message each of head and tail,
// a summarizing trim plans for 3 places (SUM-3), so n messages evict
// n − 3 of them.
func machineEdges() []machineEdge {
	return []machineEdge{
		{"9 covered messages: no call", 4, 1, 1, true, steps(times(12, "msg"), step1("trim:reply"))},
		{"10 covered messages: one call", 4, 1, 1, true, steps(times(13, "msg"), step1("trim:reply"))},
		{"evictions held back by the rate limit, summarized by a later trim", 4, 1, 1, true,
			steps(times(8, "msg"), step1("trim:reply"), times(6, "msg"), step1("trim:reply"), times(3, "msg"), step1("trim:reply"))},
		{"a failed call keeps the pending list for the next", 4, 1, 1, true,
			steps(times(14, "msg"), step1("trim:error"), times(2, "msg"), step1("trim:reply"))},
		{"a blank reply keeps the pending list for the next", 4, 1, 1, true,
			steps(times(14, "msg"), step1("trim:blank"), step1("msg"), step1("trim:empty"), times(2, "msg"), step1("trim:reply"))},
		{"tool calls without text: nothing to summarize", 4, 1, 1, true, steps(times(7, "silent"), step1("trim:reply"))},
		{"tool calls with text and results", 5, 1, 2, true, steps(times(6, "tool"), step1("trim:reply"), times(4, "tool"), step1("trim:reply"))},
		{"no summarizer: plain windowing, pending left alone", 4, 1, 1, true,
			steps(times(14, "msg"), step1("trim:none"), times(2, "msg"), step1("trim:reply"))},
		{"summarize_on_trim false", 4, 1, 1, false, steps(times(14, "msg"), step1("trim:reply"))},
		{"head and tail fill the summary plan", 5, 2, 2, true, steps(times(16, "msg"), step1("trim:reply"))},
	}
}

// fixedScript is a summarizer of a kind, as drawScript makes them.
func fixedScript(kind string) gen.SummarizerScript {
	switch kind {
	case "none":
		return gen.SummarizerScript{What: "no summarizer"}
	case "error":
		e := "summarizer unavailable: 503"
		return gen.SummarizerScript{Wire: &protocol.SummarizerScript{Error: &e}, Err: e, What: fmt.Sprintf("a summarizer that fails with %q", e)}
	}
	core, reply := "", ""
	switch kind {
	case "reply":
		core = gen.SummaryTexts[0]
		reply = " " + core + "\n"
	case "blank":
		reply = " \n\u3000"
	}
	return gen.SummarizerScript{Wire: &protocol.SummarizerScript{Reply: &reply}, Core: core, What: fmt.Sprintf("a summarizer that replies %q", reply)}
}

// summarizeMachineEdges runs each sequence through the machine.
func summarizeMachineEdges() []prop.Example {
	var out []prop.Example
	for k, e := range machineEdges() {
		out = append(out, prop.Example{
			Name: fmt.Sprintf("%s (max_messages %d, preserve_first_n %d, preserve_last_n %d)", e.name, e.max, e.h, e.t),
			Run: func(f prop.Failer, tg target.Target) {
				m := newMachine(fixedSession(f, tg, "SUM-8"), e.max, e.h, e.t, e.on)
				formats := tg.Info().Formats
				for i, st := range e.steps {
					if kind, ok := strings.CutPrefix(string(st), "trim:"); ok {
						m.trimWith(fixedScript(kind))
						continue
					}
					o := gen.HistoryOpts{Tools: 0, Formats: formats}
					switch st {
					case "tool":
						o = gen.HistoryOpts{Tools: 1, Force: "tool", Formats: formats}
					case "silent":
						o = gen.HistoryOpts{Tools: 1, Force: "tool", Silent: true, Formats: formats}
					}
					m.appendHistory(fixedHistory(formats, m.unitOpts(o), k*100+i, nil), st == "silent")
				}
			},
		})
	}
	return out
}

// summarizePromptEdges asks for a summary of one message, of a mix of
// units and of tool-call units without text, with a summarizer that
// replies, fails, replies blank and replies nothing (SUM-1, SUM-9).
func summarizePromptEdges() []prop.Example {
	edges := []historyEdge{{"one message", gen.HistoryOpts{N: 1}, nil}, {"a mix of units", gen.HistoryOpts{N: 9, Tools: -1}, nil}, {"tool-call units without text", gen.HistoryOpts{N: 6, Tools: 1, Force: "tool", Silent: true}, nil}}
	for i := range edges {
		edges[i].name += ", with a summarizer that replies, fails, replies blank and replies nothing"
	}
	return historyEdges(nil, "SUM-9", edges, func(s *session, h gen.History) {
		for _, kind := range []string{"reply", "error", "blank", "empty"} {
			summarizePrompt(s, h, fixedScript(kind))
		}
	})
}
