package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// The model of summarization: the conversation a window holds, and what
// each trim must make of it (SUM-1 – SUM-8).

// convEntry is a message of the conversation the machine holds.
type convEntry struct {
	raw      json.RawMessage
	label    string // m7 for a generated message, s2 for the second summary
	class    string
	rendered string
	texts    []string
	chars    int
	unit     int // entries of one unit share it
}

func entryOf(m gen.Message, unit int) convEntry {
	return convEntry{raw: m.Raw, label: "m" + strconv.Itoa(m.Seq), class: m.Class, rendered: m.Rendered, texts: m.Texts, chars: m.Chars, unit: unit}
}

func summaryEntry(content string, k, unit int) convEntry {
	raw := gen.MustJSON(map[string]string{"role": "assistant", "content": content})
	return convEntry{raw: raw, label: "s" + strconv.Itoa(k), class: gen.ClassAssistantText, rendered: "[assistant] " + content,
		texts: []string{content}, chars: gen.UTF16Len(content), unit: unit}
}

func entryUnits(es []convEntry) [][2]int {
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

func labels(es []convEntry) string {
	if len(es) == 0 {
		return "none"
	}
	var parts []string
	for i := 0; i < len(es); {
		j := gen.RunEnd(es, i, func(a, b convEntry) bool { return sameSeries(a.label, b.label) })
		if i == j {
			parts = append(parts, es[i].label)
		} else {
			parts = append(parts, es[i].label+"-"+es[j].label)
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

func pickEntries(es []convEntry, idx []int) []convEntry {
	out := make([]convEntry, 0, len(idx))
	for _, i := range idx {
		out = append(out, es[i])
	}
	return out
}

// meaning is SUM-6 over the covered entries: is there a message that is
// not a tool result with content text that is not white space?
func meaning(es []convEntry) textKind {
	k := blankText
	for _, e := range es {
		if e.class == gen.ClassToolResult {
			continue
		}
		for _, s := range e.texts {
			k = max(k, classifyText(s))
		}
	}
	return k
}

func promptOf(es []convEntry) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.rendered
	}
	return sumInstruction + "\n\n" + strings.Join(parts, "\n\n")
}

// sumState is what the model of a summarizing window remembers between
// trims (SUM-4, SUM-7).
type sumState struct {
	// pending is the window's list of SUM-4; carried says it holds messages
	// of a failed call (SUM-7).
	pending []convEntry
	carried bool
	// summarized are the messages earlier summaries covered.
	summarized []convEntry
	// units counts the units of the conversation, summaries included;
	// summaries counts the summaries.
	units, summaries int
}

// outcome is what a trim did, as the model predicts it.
type outcome struct {
	path    string // off, nothing, below, no-text, failed, empty, summary
	clause  string // the clause that decides the path
	why     string
	call    bool
	prompt  string
	covered []convEntry
	trimmed []convEntry // the summary convEntry included
	evicted []convEntry
	summary *convEntry
	code    string // the summary warning wanted, "" for none
}

func withCall(plain, call outcome) outcome {
	plain.call, plain.prompt, plain.covered = true, call.prompt, call.covered
	return plain
}

// predict is what a trim of in must do, by a window of configuration w
// with summarize_on_trim on and summarizer sc, given what st remembers and
// plainOut, the trim's plain windowing (SUM-2 – SUM-8); roomy is the plan
// with a place given up to a summary (SUM-3). A summary takes a new unit.
func (st *sumState) predict(in []convEntry, w model.Window, on bool, sc gen.SummarizerScript, plainOut outcome) (want outcome, roomy model.Plan) {
	units := entryUnits(in)
	n := len(in)
	roomy = model.PlanCap(w, units, n, w.Max-1)
	var covered []convEntry
	switch {
	case !on || sc.Wire == nil:
		want = plainOut
		want.path, want.clause = "off", "SUM-8"
		want.why = "summarize_on_trim is false, so the trim is plain windowing"
		if on {
			want.why = "no summarizer was provided, so the trim is plain windowing and the pending list is left alone"
		}
	case len(plainOut.evicted) == 0:
		want = plainOut
		want.path, want.clause, want.why = "nothing", "SUM-5", "the trim evicts nothing, so it makes no call"
	default:
		covered = slices.Concat(st.pending, pickEntries(in, roomy.Evicted()))
		want.covered = covered
		c := fmt.Sprintf("c = %d pending %s + %d evicted when planned for a summary with max_messages − 1 = %d %s",
			len(st.pending), labels(st.pending), len(roomy.Evicted()), w.Max-1, labels(pickEntries(in, roomy.Evicted())))
		switch k := meaning(covered); {
		case len(covered) < sumEvery:
			want = plainOut
			want.path, want.clause, want.why = "below", "SUM-5", c+" < 10, so no call: plain windowing, its evicted messages join the pending list"
		case k == blankText:
			want = plainOut
			want.path, want.clause, want.why = "no-text", "SUM-6", c+" >= 10, but no covered message other than a tool result has content text that is not white space, so no call"
			want.code = codeSummarySkipped
		default:
			want.call, want.prompt = true, promptOf(covered)
			why := c + " >= 10, so the trim calls the summarizer once with the prompt of the covered messages"
			switch {
			case sc.Err != "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "failed", "SUM-7", why+"; the call fails, so the trim is plain windowing, warns summary_failed and keeps the pending list"
				want.code = codeSummaryFailed
			case sc.Core == "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "empty", "SUM-7", why+"; the reply is blank, so the trim is plain windowing, warns summary_empty and keeps the pending list"
				want.code = codeSummaryEmpty
			default:
				st.units++
				se := summaryEntry(sumPrefix+sc.Core, st.summaries+1, st.units)
				want.path, want.clause = "summary", "SUM-2"
				want.why = why + fmt.Sprintf("; it replies, so the summary goes right after the head %s and the middle keeps one place fewer (SUM-3)", labels(pickEntries(in, gen.Indices(roomy.Head))))
				want.summary = &se
				want.trimmed = slices.Concat(pickEntries(in, gen.Indices(roomy.Head)), []convEntry{se}, pickEntries(in, gen.IndexRange(roomy.N-roomy.Tail-roomy.Keep, roomy.N)))
				want.evicted = pickEntries(in, roomy.Evicted())
			}
		}
	}
	return want, roomy
}

// advance moves the model on past a trim that did what want says.
func (st *sumState) advance(want outcome) {
	switch want.path {
	case "below":
		st.pending = append(st.pending, want.evicted...)
	case "no-text":
		st.pending, st.carried = nil, false
	case "failed", "empty":
		st.pending = append(st.pending, want.evicted...)
		st.carried = true
	case "summary":
		st.summaries++
		st.summarized = append(st.summarized, want.covered...)
		st.pending, st.carried = nil, false
	}
}

// SUM-1's instruction, SUM-2's prefix, SUM-1's max_tokens and SUM-5's
// rate, written here from the spec, not taken from the reference.
const (
	sumInstruction = "Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief."
	sumPrefix      = "[Conversation Summary]\n"
	sumMaxTokens   = 1024
	sumEvery       = 10
)

// Warning codes of SUM-6 and SUM-7.
const (
	codeSummaryFailed  = "summary_failed"
	codeSummaryEmpty   = "summary_empty"
	codeSummarySkipped = "summary_skipped_no_text"
)

var summaryCodes = []string{codeSummaryFailed, codeSummaryEmpty, codeSummarySkipped}

func whiteSpace(r rune) bool {
	switch {
	case r == ' ', r >= '\t' && r <= '\r', r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// textKind says whether a text has a character other than white space.
type textKind int

const (
	blankText textKind = iota
	meaningfulText
)

func classifyText(s string) textKind {
	for _, r := range s {
		if !whiteSpace(r) {
			return meaningfulText
		}
	}
	return blankText
}
