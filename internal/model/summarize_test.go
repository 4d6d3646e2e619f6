package model

import (
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
)

// conversation is n alternating user and assistant messages, one unit
// each, with text when text is true.
func conversation(n int, text bool) []Entry {
	out := make([]Entry, n)
	for i := range out {
		m := gen.Message{Seq: i, Class: gen.ClassUserPrompt, Texts: []string{" "}}
		if i%2 == 1 {
			m.Class = gen.ClassAssistantText
		}
		if text {
			m.Texts = []string{"hi"}
		}
		out[i] = EntryOf(m, i+1)
	}
	return out
}

// trim is one trim of in by the model: plain windowing, then the
// prediction, then the model moves on.
func trim(st *Summarizing, in []Entry, sc gen.SummarizerScript) Outcome {
	w := Window{Max: 4, First: 1, Last: 1}
	plain := PlanUnits(w, EntryUnits(in), len(in))
	want, _ := st.Predict(in, w, true, sc, Outcome{Trimmed: Pick(in, plain.Trimmed()), Evicted: Pick(in, plain.Evicted())})
	st.Advance(want)
	return want
}

func reply(core string) gen.SummarizerScript {
	r := " " + core + "\n"
	return gen.SummarizerScript{Wire: &protocol.SummarizerScript{Reply: &r}, Core: core}
}

// TestSummarizing walks the model through SUM-5's threshold, SUM-6's
// skip, SUM-7's failure and SUM-2's summary, with max_messages 4,
// preserve_first_n 1 and preserve_last_n 1: a trim planned for a summary
// keeps one place fewer, so it evicts n − 3 messages.
func TestSummarizing(t *testing.T) {
	var st Summarizing
	// 12 messages: 9 covered < 10, no call; plain windowing's 8 evicted
	// messages wait in the pending list (SUM-4, SUM-5).
	if got := trim(&st, conversation(12, true), reply("x")); got.Path != "below" || got.Call || len(st.Pending) != 8 {
		t.Fatalf("12 messages: path %s, call %v, pending %s; want below, no call, 8 pending", got.Path, got.Call, Labels(st.Pending))
	}
	// A failing summarizer: 8 pending + 9 evicted are covered, the call
	// fails and the evicted messages join the pending list (SUM-7).
	e := "503"
	fails := gen.SummarizerScript{Wire: &protocol.SummarizerScript{Error: &e}, Err: e}
	if got := trim(&st, conversation(12, true), fails); got.Path != "failed" || !got.Call || len(got.Covered) != 17 || !st.Carried || len(st.Pending) != 16 {
		t.Fatalf("failing call: path %s, call %v, covered %d, carried %v, pending %d; want failed, a call, 17, true, 16", got.Path, got.Call, len(got.Covered), st.Carried, len(st.Pending))
	}
	// A reply: the summary goes right after the head and the pending list
	// empties (SUM-2, SUM-3).
	in := conversation(12, true)
	got := trim(&st, in, reply("x"))
	if got.Path != "summary" || got.Summary == nil || Labels(got.Trimmed) != "[m0 s1 m10-m11]" || st.Pending != nil || st.Carried {
		t.Fatalf("reply: path %s, trimmed %s, pending %s; want summary, [m0 s1 m10-m11], none", got.Path, Labels(got.Trimmed), Labels(st.Pending))
	}
	if !strings.HasPrefix(got.Prompt, SumInstruction+"\n\n") || string(got.Summary.Raw) != `{"content":"[Conversation Summary]\nx","role":"assistant"}` {
		t.Errorf("prompt %q, summary %s", got.Prompt, got.Summary.Raw)
	}
	// Blank texts only: no call, summary_skipped_no_text, and the pending
	// list is dropped (SUM-6).
	if got := trim(&st, conversation(13, false), reply("x")); got.Path != "no-text" || got.Call || st.Pending != nil {
		t.Errorf("blank texts: path %s, call %v, pending %s; want no-text, no call, none", got.Path, got.Call, Labels(st.Pending))
	}
}
