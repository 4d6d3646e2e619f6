package properties

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
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
		j := runEnd(es, i, func(a, b convEntry) bool { return sameSeries(a.label, b.label) })
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

// machine drives a window that summarizes through random appends and
// trims, checking each trim against the model.
type machine struct {
	s  *session
	w  window
	on bool // summarize_on_trim
	// conv is the conversation as the agent holds it: what the last trim
	// returned, then what was appended since.
	conv []convEntry
	sumState

	seq, ids int
	steps    []string
	last     string // the last request, as sent
}

func (m *machine) fail(clause, format string, args ...any) {
	m.s.t.Helper()
	steps := m.steps
	if len(steps) > 40 {
		steps = append([]string{fmt.Sprintf("(%d earlier steps)", len(steps)-40)}, steps[len(steps)-40:]...)
	}
	m.s.t.Fatalf("%s", m.s.stable(fmt.Sprintf("%s: %s\nwindow: max_messages %d, preserve_first_n %d, preserve_last_n %d, summarize_on_trim %v\nsteps:\n  %s\nlast request:\n  %s",
		clause, fmt.Sprintf(format, args...), m.w.max, m.w.h, m.w.t, m.on, strings.Join(steps, "\n  "), abbreviate([]byte(m.last), 4000))))
}

func checkSummarizeMachine(t *rapid.T, tg target.Target) {
	s := newSession(t, tg, "SUM-8")
	maxN := rapid.SampledFrom([]int{4, 5, 6, 3, 8, 2, 10, 1, 12, 0}).Draw(t, "max_messages")
	h := rapid.IntRange(0, 3).Draw(t, "preserve_first_n")
	tl := rapid.IntRange(0, 4).Draw(t, "preserve_last_n")
	on := rapid.SampledFrom([]bool{true, true, true, true, true, true, false}).Draw(t, "summarize_on_trim")
	m := newMachine(s, maxN, h, tl, on)
	t.Repeat(map[string]func(*rapid.T){
		"append a message": func(t *rapid.T) { m.appendUnit(t, gen.HistoryOpts{Tools: 0}) },
		"append a tool call": func(t *rapid.T) {
			m.appendUnit(t, gen.HistoryOpts{Tools: 1, Force: "tool"})
		},
		// Tool calls without text: what SUM-6 skips.
		"append a tool call without text": func(t *rapid.T) {
			m.appendUnit(t, gen.HistoryOpts{Tools: 1, Force: "tool", Silent: true})
		},
		"trim": m.trim,
	})
}

// newMachine creates the window the machine trims with.
func newMachine(s *session, maxN, h, tl int, on bool) *machine {
	raw := fmt.Sprintf(`{"max_messages":%d,"preserve_first_n":%d,"preserve_last_n":%d,"summarize_on_trim":%v}`, maxN, h, tl, on)
	cfg := gen.Config{Raw: json.RawMessage(raw), Max: &maxN, First: &h, Last: &tl, Summarize: &on,
		Sent: map[string]string{"max_messages": strconv.Itoa(maxN), "preserve_first_n": strconv.Itoa(h), "preserve_last_n": strconv.Itoa(tl), "summarize_on_trim": strconv.FormatBool(on)}}
	m := &machine{s: s, w: s.create(cfg), on: on}
	m.last = protocol.MethodWindowCreate + " " + raw
	return m
}

// appendUnit continues the conversation with one generated unit: a
// message, or a tool call with its results in either format, parallel
// calls included. One unit a step lets rapid shrink a failure to the
// steps that matter.
func (m *machine) appendUnit(t *rapid.T, o gen.HistoryOpts) {
	m.appendHistory(gen.Histories(m.unitOpts(o)).Draw(t, "appended"), o.Silent)
}

// unitOpts are the options that make the machine's next unit.
func (m *machine) unitOpts(o gen.HistoryOpts) gen.HistoryOpts {
	o.N, o.Marked, o.Base, o.IdBase = 1, true, m.seq, m.ids
	return o
}

// appendHistory continues the conversation with h, one unit.
func (m *machine) appendHistory(h gen.History, silent bool) {
	first := len(m.conv)
	m.units++
	for _, x := range h.Msgs {
		m.conv = append(m.conv, entryOf(x, m.units))
	}
	m.seq += len(h.Msgs)
	m.ids += 100
	shape := h.Msgs[0].Class
	if len(h.Msgs) > 1 {
		shape += fmt.Sprintf(" with %s", plural(len(h.Msgs)-1, "result message"))
	}
	if silent {
		shape += ", no text"
	}
	m.steps = append(m.steps, fmt.Sprintf("append %s: %s", labels(m.conv[first:]), shape))
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

func (m *machine) trim(t *rapid.T) { m.trimWith(drawScript(t, true)) }

// trimWith trims the conversation with summarizer sc and checks the
// outcome against the model's.
func (m *machine) trimWith(sc script) {
	in := m.conv
	n := len(in)
	units := entryUnits(in)
	plain := model.PlanUnits(m.w.config(), units, n)
	plainOut := outcome{trimmed: pickEntries(in, plain.Trimmed()), evicted: pickEntries(in, plain.Evicted())}

	msgs := make([]json.RawMessage, n)
	for i, e := range in {
		msgs[i] = e.raw
	}
	params := protocol.WindowTrimParams{Window: m.w.handle, Messages: msgs, Summarizer: sc.wire}
	m.last = protocol.MethodWindowTrim + " " + string(gen.MustJSON(params))
	res, err := target.TrimWith(m.s.ctx, m.s.tg, m.w.handle, msgs, sc.wire)
	step := fmt.Sprintf("trim %s with %s", labels(in), sc.what)
	m.steps = append(m.steps, step)
	if err != nil {
		m.fail("SUM-7", "window.trim failed: %v; a trim succeeds whatever its summarizer does", err)
	}

	want, roomy := m.predict(in, m.w.config(), m.on, sc, plainOut)
	m.verify(in, sc, want, res, plain, roomy)

	m.advance(want)
	m.conv = want.trimmed
	m.steps[len(m.steps)-1] = fmt.Sprintf("%s: %s, trimmed %s, evicted %s, pending now %s", step, want.path, labels(want.trimmed), labels(want.evicted), labels(m.pending))
}

func withCall(plain, call outcome) outcome {
	plain.call, plain.prompt, plain.covered = true, call.prompt, call.covered
	return plain
}

// predict is what a trim of in must do, by a window of configuration w
// with summarize_on_trim on and summarizer sc, given what st remembers and
// plainOut, the trim's plain windowing (SUM-2 – SUM-8); roomy is the plan
// with a place given up to a summary (SUM-3). A summary takes a new unit.
func (st *sumState) predict(in []convEntry, w model.Window, on bool, sc script, plainOut outcome) (want outcome, roomy model.Plan) {
	units := entryUnits(in)
	n := len(in)
	roomy = model.PlanCap(w, units, n, w.Max-1)
	var covered []convEntry
	switch {
	case !on || sc.wire == nil:
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
			case sc.err != "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "failed", "SUM-7", why+"; the call fails, so the trim is plain windowing, warns summary_failed and keeps the pending list"
				want.code = codeSummaryFailed
			case sc.core == "":
				want = withCall(plainOut, want)
				want.path, want.clause, want.why = "empty", "SUM-7", why+"; the reply is blank, so the trim is plain windowing, warns summary_empty and keeps the pending list"
				want.code = codeSummaryEmpty
			default:
				st.units++
				se := summaryEntry(sumPrefix+sc.core, st.summaries+1, st.units)
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
