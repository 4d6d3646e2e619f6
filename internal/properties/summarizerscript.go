package properties

// Summarization (SUM-1 – SUM-9) as a state machine: a window that
// summarizes is the one stateful object of the spec, so its property is a
// random sequence of appends and trims, each trim with a scripted
// summarizer that replies, fails, answers nothing or is not there, checked
// step by step against a model of the window's pending list.

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
)

// summaryTexts are replies whose first and last characters are not white
// space under any definition, so that trimming them changes nothing.
var summaryTexts = []string{
	"Read a.go, fixed the nil check.",
	"x",
	"User wants the weather in Paris; get_weather returned 18°C.",
	"Ran the tests: 3 failed.\nFixed two; one left (flaky).",
	"日本語のまとめ 😀",
	`Wrote "b.txt" \ path C:\tmp`,
	"[Conversation Summary]",
	"<b>done</b> & more",
}

// padding is white space around a reply.
var padding = []string{"", "", " ", "\n", "  \t", "\r\n", "\u00a0", "\u3000 ", "\n\n", "\u0085"}

// script is a scripted summarizer and what the spec makes of its answer.
type script struct {
	wire *protocol.SummarizerScript // nil: no summarizer at all
	// core is the reply without surrounding white space ("" when blank).
	core string
	err  string
	what string
}

func drawScript(t *rapid.T, absent bool) script {
	kinds := []string{"reply", "reply", "reply", "error", "empty", "blank"}
	if absent {
		kinds = append(kinds, "none")
	}
	switch kind := rapid.SampledFrom(kinds).Draw(t, "summarizer"); kind {
	case "none":
		return script{what: "no summarizer"}
	case "error":
		e := fmt.Sprintf("summarizer unavailable: 503 #%d", rapid.IntRange(0, 999).Draw(t, "error number"))
		return script{wire: &protocol.SummarizerScript{Error: &e}, err: e, what: fmt.Sprintf("a summarizer that fails with %q", e)}
	default:
		core := ""
		if kind == "reply" {
			core = rapid.SampledFrom(summaryTexts).Draw(t, "reply")
		}
		reply := rapid.SampledFrom(padding).Draw(t, "padding before") + core + rapid.SampledFrom(padding).Draw(t, "padding after")
		if kind == "empty" {
			reply = ""
		}
		return script{wire: &protocol.SummarizerScript{Reply: &reply}, core: core, what: fmt.Sprintf("a summarizer that replies %q", reply)}
	}
}
