package gen

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
)

// Scripted summarizers: a trim's summarizer replies (with white space
// around the reply or none), fails, answers blank or is not there, and
// the script says what the spec makes of the answer (SUM-6, SUM-7).

// SummaryTexts are replies whose first and last characters are not white
// space under any definition, so that trimming them changes nothing.
var SummaryTexts = []string{
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

// SummarizerScript is a scripted summarizer and what the spec makes of its answer.
type SummarizerScript struct {
	Wire *protocol.SummarizerScript // nil: no summarizer at all
	// Core is the reply without surrounding white space ("" when blank).
	Core string
	Err  string
	What string
}

func DrawSummarizer(t *rapid.T, absent bool) SummarizerScript {
	kinds := []string{"reply", "reply", "reply", "error", "empty", "blank"}
	if absent {
		kinds = append(kinds, "none")
	}
	switch kind := rapid.SampledFrom(kinds).Draw(t, "summarizer"); kind {
	case "none":
		return SummarizerScript{What: "no summarizer"}
	case "error":
		e := fmt.Sprintf("summarizer unavailable: 503 #%d", intRange(0, 999).Draw(t, "error number"))
		return SummarizerScript{Wire: &protocol.SummarizerScript{Error: &e}, Err: e, What: fmt.Sprintf("a summarizer that fails with %q", e)}
	default:
		core := ""
		if kind == "reply" {
			core = rapid.SampledFrom(SummaryTexts).Draw(t, "reply")
		}
		reply := rapid.SampledFrom(padding).Draw(t, "padding before") + core + rapid.SampledFrom(padding).Draw(t, "padding after")
		if kind == "empty" {
			reply = ""
		}
		return SummarizerScript{Wire: &protocol.SummarizerScript{Reply: &reply}, Core: core, What: fmt.Sprintf("a summarizer that replies %q", reply)}
	}
}
