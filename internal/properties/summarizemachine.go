package properties

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
)

// machine drives a window that summarizes through random appends and
// trims, checking each trim against the model.
type machine struct {
	s  *session
	w  window
	on bool // summarize_on_trim
	// conv is the conversation as the agent holds it: what the last trim
	// returned, then what was appended since.
	conv []model.Entry
	model.Summarizing

	seq, ids int
	steps    []string
	// last writes the last request as sent, for a failure only: encoding
	// every trim's params to show none of them was 0.6 % of the
	// harness's CPU over the wire. What it encodes is not changed once
	// sent.
	last func() string
}

func (m *machine) fail(clause, format string, args ...any) {
	m.s.t.Helper()
	steps := m.steps
	if len(steps) > 40 {
		steps = append([]string{fmt.Sprintf("(%d earlier steps)", len(steps)-40)}, steps[len(steps)-40:]...)
	}
	m.s.t.Fatalf("%s", m.s.stable(fmt.Sprintf("%s: %s\nwindow: max_messages %d, preserve_first_n %d, preserve_last_n %d, summarize_on_trim %v\nsteps:\n  %s\nlast request:\n  %s",
		clause, fmt.Sprintf(format, args...), m.w.max, m.w.h, m.w.t, m.on, strings.Join(steps, "\n  "), abbreviate([]byte(m.last()), 4000))))
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
	m.last = func() string { return protocol.MethodWindowCreate + " " + raw }
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
	m.Units++
	for _, x := range h.Msgs {
		m.conv = append(m.conv, model.EntryOf(x, m.Units))
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
	m.steps = append(m.steps, fmt.Sprintf("append %s: %s", model.Labels(m.conv[first:]), shape))
}

func (m *machine) trim(t *rapid.T) { m.trimWith(gen.DrawSummarizer(t, true)) }

// trimWith trims the conversation with summarizer sc and checks the
// outcome against the model's.
func (m *machine) trimWith(sc gen.SummarizerScript) {
	in := m.conv
	n := len(in)
	units := model.EntryUnits(in)
	plain := model.PlanUnits(m.w.config(), units, n)
	plainOut := model.Outcome{Trimmed: model.Pick(in, plain.Trimmed()), Evicted: model.Pick(in, plain.Evicted())}

	msgs := make([]json.RawMessage, n)
	for i, e := range in {
		msgs[i] = e.Raw
	}
	params := protocol.WindowTrimParams{Window: m.w.handle, Messages: msgs, Summarizer: sc.Wire}
	m.last = func() string { return protocol.MethodWindowTrim + " " + string(gen.MustJSON(params)) }
	res, err := target.TrimWith(m.s.ctx, m.s.tg, m.w.handle, msgs, sc.Wire)
	step := fmt.Sprintf("trim %s with %s", model.Labels(in), sc.What)
	m.steps = append(m.steps, step)
	if err != nil {
		m.fail("SUM-7", "window.trim failed: %v; a trim succeeds whatever its summarizer does", err)
	}

	want, roomy := m.Predict(in, m.w.config(), m.on, sc, plainOut)
	m.verify(in, sc, want, res, plain, roomy)

	m.Advance(want)
	m.conv = want.Trimmed
	m.steps[len(m.steps)-1] = fmt.Sprintf("%s: %s, trimmed %s, evicted %s, pending now %s", step, want.Path, model.Labels(want.Trimmed), model.Labels(want.Evicted), model.Labels(m.Pending))
}
