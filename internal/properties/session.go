package properties

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/model"
	"github.com/convspec/convspec/internal/prop"
)

// Sessions: calls that remember what they sent, and failures that show it.

type session struct {
	// t is a *rapid.T for a generated case, the runner's recorder for a
	// fixed example.
	t   prop.Failer
	tg  target.Target
	ctx context.Context
	// clause is the clause a failed call is reported under.
	clause string
	// sent is every request sent, encoded only when a failure shows them:
	// most cases pass, and encoding every request a second time cost the
	// harness as much as its own checks of some properties.
	sent []sentRequest
	// handles maps each window handle the target gave to w1, w2, … in the
	// order of creation: a failure message must read the same when rapid
	// replays the case against a target that hands out other handles, or
	// rapid takes it for a flaky failure and does not shrink it.
	handles map[string]string
}

// stable replaces the target's window handles in text by their aliases.
func (s *session) stable(text string) string {
	for h, alias := range s.handles {
		text = strings.ReplaceAll(text, strconv.Quote(h), strconv.Quote(alias))
	}
	return text
}

func newSession(t *rapid.T, tg target.Target, clause string) *session {
	return &session{t: t, tg: tg, ctx: t.Context(), clause: clause}
}

// fixedSession is a session for a property's fixed example: failures go to
// the runner's recorder, and no case deadline applies beyond the calls' own.
func fixedSession(f prop.Failer, tg target.Target, clause string) *session {
	return &session{t: f, tg: tg, ctx: context.Background(), clause: clause}
}

// start creates a window from a generated config and draws a conversation
// whose length is chosen around the window's boundaries.
func start(t *rapid.T, tg target.Target, clause string, maxes *rapid.Generator[int], mode gen.LengthMode) (*session, window, []gen.Message) {
	s := newSession(t, tg, clause)
	w := s.create(gen.Configs(maxes).Draw(t, "config"))
	n := gen.Lengths(w.max, w.h, w.t, mode).Draw(t, "n")
	return s, w, gen.Conversations(n).Draw(t, "conversation")
}

// fail ends the case: the clause first, then what was wanted and what came
// back, then every request sent.
func (s *session) fail(clause, format string, args ...any) {
	s.t.Helper()
	s.failWith(clause, deviation.Parts{}, format, args...)
}

// failWith is fail for a check that names the value it wanted and the one
// it got: they go to the report as the deviation's Want and Got, the
// requests sent as its Sent (D-72).
func (s *session) failWith(clause string, p deviation.Parts, format string, args ...any) {
	s.t.Helper()
	sent := make([]string, len(s.sent))
	for i, r := range s.sent {
		sent[i] = r.String()
	}
	p.Sent = strings.Join(sent, "\n")
	deviation.Note(s.ctx, s.t, deviation.Parts{Sent: s.stable(p.Sent), Got: s.stable(p.Got), Want: s.stable(p.Want)})
	s.t.Fatalf("%s", s.stable(fmt.Sprintf("%s: %s\nrequests sent:\n  %s", clause, fmt.Sprintf(format, args...), strings.Join(sent, "\n  "))))
}

// sentRequest is one request as sent: its params are values the
// properties build and never change once sent, so encoding them later
// shows what was sent.
type sentRequest struct {
	method string
	params any
}

// String is the request as a failure shows it: the method and its params
// as JSON.
func (r sentRequest) String() string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.params); err != nil {
		return fmt.Sprintf("%s %+v", r.method, r.params)
	}
	return r.method + " " + strings.TrimSpace(b.String())
}

func (s *session) record(method string, params any) {
	s.sent = append(s.sent, sentRequest{method, params})
}

// callFailed reports an error from the target. Every request the
// properties send is valid, so any error is a failure.
func (s *session) callFailed(method string, err error) {
	s.t.Helper()
	clause := s.clause
	var pe *protocol.Error
	if errors.As(err, &pe) {
		switch pe.Kind() {
		case protocol.KindInvalidMessage:
			clause = "MSG-1"
			if slices.ContainsFunc(gen.StructureCodes, func(c string) bool { return strings.Contains(pe.Message, c) }) {
				clause = "UNIT-2" // a well-formed structure refused
			}
		case protocol.KindInvalidConfig:
			clause = "CFG-3"
		}
	}
	s.fail(clause, "%s failed on a valid request: %v", method, err)
}

// config is w's effective configuration.
func (w window) config() model.Window { return model.Window{Max: w.max, First: w.h, Last: w.t} }

// window is a created window and its effective configuration.
type window struct {
	handle    string
	max, h, t int
	warnings  []protocol.Warning
}

// create creates a window and checks its effective configuration: a member
// sent is kept as sent, an absent or null one takes its default (CFG-1 –
// CFG-3). The properties then use the effective configuration.
func (s *session) create(c gen.Config) window {
	s.t.Helper()
	s.record(protocol.MethodWindowCreate, protocol.WindowCreateParams{Config: c.Raw})
	res, err := target.CreateWindow(s.ctx, s.tg, c.Raw)
	if err != nil {
		s.callFailed(protocol.MethodWindowCreate, err)
	}
	got := res.Config
	wm, wh, wt, ws := c.Want()
	for _, f := range []struct {
		name      string
		sent      *int
		got, want int
	}{
		{"max_messages", c.Max, got.MaxMessages, wm},
		{"preserve_first_n", c.First, got.PreserveFirstN, wh},
		{"preserve_last_n", c.Last, got.PreserveLastN, wt},
	} {
		if f.got != f.want {
			s.fail(c.Clause(f.name), "the effective config has %s %d, wanted %d (%s)\neffective config: %s",
				f.name, f.got, f.want, c.How(f.name), gen.MustJSON(got))
		}
	}
	if got.SummarizeOnTrim != ws {
		s.fail(c.Clause("summarize_on_trim"), "the effective config has summarize_on_trim %v, wanted %v (%s)\neffective config: %s",
			got.SummarizeOnTrim, ws, c.How("summarize_on_trim"), gen.MustJSON(got))
	}
	if s.handles == nil {
		s.handles = map[string]string{}
	}
	s.handles[res.Window] = fmt.Sprintf("w%d", len(s.handles)+1)
	return window{handle: res.Window, max: got.MaxMessages, h: got.PreserveFirstN, t: got.PreserveLastN, warnings: res.Warnings}
}

func (s *session) trim(w window, in []gen.Message) protocol.WindowTrimResult {
	s.t.Helper()
	return s.trimRaw(w, gen.Raws(in))
}

func (s *session) trimRaw(w window, msgs []json.RawMessage) protocol.WindowTrimResult {
	s.t.Helper()
	msgs = nonNil(msgs)
	s.record(protocol.MethodWindowTrim, protocol.WindowTrimParams{Window: w.handle, Messages: msgs})
	res, err := target.Trim(s.ctx, s.tg, w.handle, msgs)
	if err != nil {
		s.callFailed(protocol.MethodWindowTrim, err)
	}
	return res
}

func (s *session) estimate(in []gen.Message) int {
	s.t.Helper()
	msgs := gen.Raws(in)
	s.record(protocol.MethodWindowEstimate, protocol.WindowEstimateParams{Messages: msgs})
	tokens, err := target.Estimate(s.ctx, s.tg, msgs)
	if err != nil {
		s.callFailed(protocol.MethodWindowEstimate, err)
	}
	return tokens
}

// blameEstimate explains a wrong estimate and names the clause it breaks.
// It asks the target a few more estimates: of one-character messages, to
// check the rounding (EST-1), and of four copies of each message, which is
// exactly the number of characters the target counts for it (⌈4c / 4⌉ = c),
// to find the first message counted wrong; then of that message without
// its content, to tell content from other members (EST-2 – EST-5).
func (s *session) blameEstimate(in []gen.Message, got int) {
	s.t.Helper()
	total := 0
	var table []string
	for i, m := range in {
		total += m.Chars
		table = append(table, fmt.Sprintf("  input[%d] (role %s): %d characters (%s content)", i, m.Role, m.Chars, m.Kind))
	}
	head := fmt.Sprintf("window.estimate returned %s for %s, wanted %d = ⌈%d characters / 4⌉", plural(got, "token"), plural(len(in), "message"), ceil4(total), total)
	if len(in) == 0 {
		s.fail("EST-1", "%s: an empty list estimates 0", head)
	}
	est := func(msgs ...json.RawMessage) int {
		tokens, err := target.Estimate(s.ctx, s.tg, msgs)
		if err != nil {
			return -1
		}
		return tokens
	}
	four := func(m json.RawMessage) int { return est(m, m, m, m) }
	perMessage := "characters per message:\n" + strings.Join(table, "\n")

	one := json.RawMessage(`{"role":"user","content":"x"}`)
	switch a, b := est(one), est(one, one); {
	case a == 0:
		s.fail("EST-1", "%s\nthe estimate rounds down: %s alone estimates 0 tokens, but ⌈1 / 4⌉ = 1\n%s", head, one, perMessage)
	case a == 1 && b == 2:
		s.fail("EST-1", "%s\nthe estimate is rounded per message: two copies of %s estimate 2 tokens, but the division is done once, on the total: ⌈2 / 4⌉ = 1\n%s", head, one, perMessage)
	}
	for i, m := range in {
		counted := four(m.Raw)
		if counted == m.Chars {
			continue
		}
		without := four(m.WithoutContent())
		otherCounted := without != 0
		if m.Kind == "absent" {
			// The message is its other members; tell them apart from an
			// absent content by varying the role and adding a name.
			bare := four(json.RawMessage(`{"role":"user"}`))
			otherCounted = bare != four(json.RawMessage(`{"role":"a-much-longer-role"}`)) ||
				bare != four(json.RawMessage(`{"role":"user","name":"a-long-name"}`))
		}
		var clause, why string
		switch {
		case otherCounted:
			clause, why = "EST-5", fmt.Sprintf("members other than content are counted: without its content, four copies of it estimate %d, wanted 0", without)
		case m.Kind == "absent" || m.Kind == "null":
			clause, why = "EST-4", fmt.Sprintf("its content is %s and counts nothing", m.Kind)
		case m.Kind == "string":
			clause, why = "EST-2", fmt.Sprintf("its content is a string of %d UTF-16 code units: %q", m.Chars, m.Counted)
		default:
			clause, why = "EST-3", fmt.Sprintf("its content is %s %s whose JSON.stringify form %s has %d characters", article(m.Kind), m.Kind, m.Counted, m.Chars)
		}
		s.fail(clause, "%s\nthe first message counted wrong is input[%d] (role %s): four copies of it estimate %d tokens, so %d characters are counted for it, wanted %d; %s\n%s",
			head, i, m.Role, counted, counted, m.Chars, why, perMessage)
	}
	s.fail("EST-1", "%s\nfour copies of each message estimate its own character count, yet the list is estimated wrong\n%s", head, perMessage)
}
