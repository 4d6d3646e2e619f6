package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/gen"
)

// The model of summarization: the conversation a window holds, and what
// each trim must make of it (SUM-1 – SUM-8).

// Entry is a message of the conversation a summarizing window holds.
type Entry struct {
	Raw      json.RawMessage
	Label    string // m7 for a generated message, s2 for the second summary
	Class    string
	Rendered string
	Texts    []string
	chars    int
	unit     int // entries of one unit share it
}

// EntryOf is the entry of generated message m in unit unit.
func EntryOf(m gen.Message, unit int) Entry {
	return Entry{Raw: m.Raw, Label: "m" + strconv.Itoa(m.Seq), Class: m.Class, Rendered: m.Rendered, Texts: m.Texts, chars: m.Chars, unit: unit}
}

// summaryEntry is the k-th summary, with content, in unit unit (SUM-2).
func summaryEntry(content string, k, unit int) Entry {
	raw := gen.MustJSON(map[string]string{"role": "assistant", "content": content})
	return Entry{Raw: raw, Label: "s" + strconv.Itoa(k), Class: gen.ClassAssistantText, Rendered: "[assistant] " + content,
		Texts: []string{content}, chars: gen.UTF16Len(content), unit: unit}
}

// EntryUnits are the units of es, as [start, end) positions.
func EntryUnits(es []Entry) [][2]int {
	var out [][2]int
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].unit == es[i].unit {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// Labels names es in a failure: [m1-m4 s1 m9], "none" for no entry.
func Labels(es []Entry) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(es); {
		j := gen.RunEnd(es, i, func(a, b Entry) bool { return sameSeries(a.Label, b.Label) })
		if i == j {
			parts = append(parts, es[i].Label)
		} else {
			parts = append(parts, es[i].Label+"-"+es[j].Label)
		}
		i = j + 1
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// sameSeries reports whether label b directly follows a (m3, m4).
func sameSeries(a, b string) bool {
	if a == "" || b == "" || a[0] != 'm' || b[0] != 'm' {
		return false
	}
	x, e1 := strconv.Atoi(a[1:])
	y, e2 := strconv.Atoi(b[1:])
	return e1 == nil && e2 == nil && y == x+1
}

// Pick is the entries of es at positions idx, in order.
func Pick(es []Entry, idx []int) []Entry {
	out := make([]Entry, 0, len(idx))
	for _, i := range idx {
		out = append(out, es[i])
	}
	return out
}

// Meaning is SUM-6 over the covered entries: is there a message that is
// not a tool result with content text that is not white space?
func Meaning(es []Entry) TextKind {
	k := BlankText
	for _, e := range es {
		if e.Class == gen.ClassToolResult {
			continue
		}
		for _, s := range e.Texts {
			k = max(k, ClassifyText(s))
		}
	}
	return k
}

// PromptOf is the prompt of SUM-1 for the covered entries es.
func PromptOf(es []Entry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Rendered
	}
	return SumInstruction + "\n\n" + strings.Join(parts, "\n\n")
}

// Summarizing is what the model of a summarizing window remembers between
// trims (SUM-4, SUM-7).
type Summarizing struct {
	// Pending is the window's list of SUM-4; Carried says it holds messages
	// of a failed call (SUM-7).
	Pending []Entry
	Carried bool
	// Summarized are the messages earlier summaries covered.
	Summarized []Entry
	// Units counts the units of the conversation, summaries included;
	// summaries counts the summaries.
	Units, summaries int
}

// Outcome is what a trim did, as the model predicts it.
type Outcome struct {
	Path    string // off, nothing, below, no-text, failed, empty, summary
	Clause  string // the clause that decides the path
	Why     string
	Call    bool
	Prompt  string
	Covered []Entry
	Trimmed []Entry // the summary entry included
	Evicted []Entry
	Summary *Entry
	code    string // the summary warning wanted, "" for none
}

// withCall is plain windowing after the call of call was made.
func withCall(plain, call Outcome) Outcome {
	plain.Call, plain.Prompt, plain.Covered = true, call.Prompt, call.Covered
	return plain
}

// Predict is what a trim of in must do, by a window of configuration w
// with summarize_on_trim on and summarizer sc, given what st remembers and
// plainOut, the trim's plain windowing (SUM-2 – SUM-8); roomy is the plan
// with a place given up to a summary (SUM-3). A summary takes a new unit.
func (st *Summarizing) Predict(in []Entry, w Window, on bool, sc gen.SummarizerScript, plainOut Outcome) (want Outcome, roomy Plan) {
	units := EntryUnits(in)
	n := len(in)
	roomy = PlanCap(w, units, n, w.Max-1)
	var covered []Entry
	switch {
	case !on || sc.Wire == nil:
		want = plainOut
		want.Path, want.Clause = "off", "SUM-8"
		want.Why = "summarize_on_trim is false, so the trim is plain windowing"
		if on {
			want.Why = "no summarizer was provided, so the trim is plain windowing and the pending list is left alone"
		}
	case len(plainOut.Evicted) == 0:
		want = plainOut
		want.Path, want.Clause, want.Why = "nothing", "SUM-5", "the trim evicts nothing, so it makes no call"
	default:
		covered = slices.Concat(st.Pending, Pick(in, roomy.Evicted()))
		want.Covered = covered
		c := fmt.Sprintf("c = %d pending %s + %d evicted when planned for a summary with max_messages − 1 = %d %s",
			len(st.Pending), Labels(st.Pending), len(roomy.Evicted()), w.Max-1, Labels(Pick(in, roomy.Evicted())))
		switch k := Meaning(covered); {
		case len(covered) < SumEvery:
			want = plainOut
			want.Path, want.Clause, want.Why = "below", "SUM-5", c+" < 10, so no call: plain windowing, its evicted messages join the pending list"
		case k == BlankText:
			want = plainOut
			want.Path, want.Clause, want.Why = "no-text", "SUM-6", c+" >= 10, but no covered message other than a tool result has content text that is not white space, so no call"
			want.code = CodeSummarySkipped
		default:
			want.Call, want.Prompt = true, PromptOf(covered)
			why := c + " >= 10, so the trim calls the summarizer once with the prompt of the covered messages"
			switch {
			case sc.Err != "":
				want = withCall(plainOut, want)
				want.Path, want.Clause, want.Why = "failed", "SUM-7", why+"; the call fails, so the trim is plain windowing, warns summary_failed and keeps the pending list"
				want.code = CodeSummaryFailed
			case sc.Core == "":
				want = withCall(plainOut, want)
				want.Path, want.Clause, want.Why = "empty", "SUM-7", why+"; the reply is blank, so the trim is plain windowing, warns summary_empty and keeps the pending list"
				want.code = CodeSummaryEmpty
			default:
				st.Units++
				se := summaryEntry(sumPrefix+sc.Core, st.summaries+1, st.Units)
				want.Path, want.Clause = "summary", "SUM-2"
				want.Why = why + fmt.Sprintf("; it replies, so the summary goes right after the head %s and the middle keeps one place fewer (SUM-3)", Labels(Pick(in, gen.Indices(roomy.Head))))
				want.Summary = &se
				want.Trimmed = slices.Concat(Pick(in, gen.Indices(roomy.Head)), []Entry{se}, Pick(in, gen.IndexRange(roomy.N-roomy.Tail-roomy.Keep, roomy.N)))
				want.Evicted = Pick(in, roomy.Evicted())
			}
		}
	}
	return want, roomy
}

// Advance moves the model on past a trim that did what want says.
func (st *Summarizing) Advance(want Outcome) {
	switch want.Path {
	case "below":
		st.Pending = append(st.Pending, want.Evicted...)
	case "no-text":
		st.Pending, st.Carried = nil, false
	case "failed", "empty":
		st.Pending = append(st.Pending, want.Evicted...)
		st.Carried = true
	case "summary":
		st.summaries++
		st.Summarized = append(st.Summarized, want.Covered...)
		st.Pending, st.Carried = nil, false
	}
}

// SUM-1's instruction, SUM-2's prefix, SUM-1's max_tokens and SUM-5's
// rate, written here from the spec, not taken from the reference.
const (
	SumInstruction = "Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief."
	sumPrefix      = "[Conversation Summary]\n"
	SumMaxTokens   = 1024
	SumEvery       = 10
)

// Warning codes of SUM-6 and SUM-7.
const (
	CodeSummaryFailed  = "summary_failed"
	CodeSummaryEmpty   = "summary_empty"
	CodeSummarySkipped = "summary_skipped_no_text"
)

var SummaryCodes = []string{CodeSummaryFailed, CodeSummaryEmpty, CodeSummarySkipped}

func whiteSpace(r rune) bool {
	switch {
	case r == ' ', r >= '\t' && r <= '\r', r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// TextKind says whether a text has a character other than white space.
type TextKind int

const (
	BlankText TextKind = iota
	MeaningfulText
)

// ClassifyText says whether s has a character other than white space.
func ClassifyText(s string) TextKind {
	for _, r := range s {
		if !whiteSpace(r) {
			return MeaningfulText
		}
	}
	return BlankText
}
