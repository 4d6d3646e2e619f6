package properties

// Cases of capability trimmer: a declared trimmer, a well-formed
// conversation in the formats it takes, and a limit drawn around what the
// conversation counts by the trimmer's own counter (ANY-6, ANY-10).

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/judgemsg"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/trimout"
)

// trimCase is one generated request to trimmer.trim.
type trimCase struct {
	decl  protocol.TrimmerDecl
	h     gen.History
	limit int
	// read is h as the judge reads it, read once for every check of the
	// case that needs it, and only then: most checks never do.
	read *readInput
}

type readInput struct {
	done bool
	in   []judgemsg.Message
}

// newTrimCase is the case of d on h, its limit still to set.
func newTrimCase(d protocol.TrimmerDecl, h gen.History) trimCase {
	return trimCase{decl: d, h: h, read: &readInput{}}
}

// trimLen draws a conversation length: the empty one included, mostly
// short enough to read.
var trimLen = rapid.OneOf(rapid.IntRange(0, 8), rapid.IntRange(0, 20), rapid.IntRange(0, 40))

// checked is the declared trimmers a guarantee is checked on: those that
// claim it, and every trimmer for total, since a crash is never an answer
// (ANY-9, D-60).
func checked(tg target.Target, guarantee string) []protocol.TrimmerDecl {
	if guarantee == protocol.GuaranteeTotal {
		return tg.Info().Trimmers
	}
	return tg.Info().Claiming(guarantee)
}

// trimmerSubjects are the subjects of a guarantee's property: each
// trimmer it is checked on, seen as a target that declares that trimmer
// alone, so that every trimmer gets the property's examples and random
// checks of its own and its verdict does not depend on what else is
// declared (D-75).
func trimmerSubjects(guarantee string) func(target.Target) []prop.Subject {
	return func(tg target.Target) []prop.Subject {
		var out []prop.Subject
		for _, d := range checked(tg, guarantee) {
			info := tg.Info()
			info.Trimmers = []protocol.TrimmerDecl{d}
			out = append(out, prop.Subject{Name: fmt.Sprintf("trimmer %q", d.Name), Target: oneTrimmer{Target: tg, info: info}})
		}
		return out
	}
}

// oneTrimmer is a target whose handshake shows one of its trimmers.
type oneTrimmer struct {
	target.Target
	info target.Info
}

func (o oneTrimmer) Info() target.Info { return o.info }

// RunAnswers passes on the run's shared answers (D-97): a subject asks
// what the whole implementation would be asked.
func (o oneTrimmer) RunAnswers() *prop.Answers { return prop.AnswersOf(o.Target) }

// drawTrimmer draws one of the declared trimmers the guarantee is checked
// on: the subject's one, when the property runs per trimmer.
func drawTrimmer(t *rapid.T, tg target.Target, guarantee string) protocol.TrimmerDecl {
	decls := checked(tg, guarantee)
	switch len(decls) {
	case 0:
		t.Fatalf("no declared trimmer claims %q", guarantee)
	case 1:
		return decls[0] // nothing to draw: a counterexample shows no choice that was none
	}
	return decls[rapid.IntRange(0, len(decls)-1).Draw(t, "trimmer")]
}

// drawTrimCase draws a case for a trimmer claiming guarantee; limits is
// how the limit relates to what the conversation counts (after its start
// rule, ANY-12), and the limit is kept inside the declared domain.
func drawTrimCase(t *rapid.T, s trimSession, guarantee string, limits func(t *rapid.T, eff, total int) int) trimCase {
	d := drawTrimmer(t, s.tg, guarantee)
	format := ""
	if len(d.Formats) == 1 {
		format = d.Formats[0]
	}
	h := gen.Histories(gen.HistoryOpts{N: trimLen.Draw(t, "n"), Marked: true, Tools: -1, Runs: rapid.Bool().Draw(t, "orphan runs"), Format: format}).Draw(t, "conversation")
	c := newTrimCase(d, h)
	var eff, total int
	if d.Start == "" && d.Counter != protocol.CounterNative {
		// Without a start rule the effective input is the input: one count
		// (a native one is the implementation's to answer each time).
		total = s.count(d, gen.Raws(h.Msgs))
		eff = total
	} else {
		eff, total = s.count(d, c.effective()), s.count(d, gen.Raws(h.Msgs))
	}
	c.limit = max(d.LimitMin, limits(t, eff, total))
	return c
}

// input is the case's conversation as the judge reads it.
func (c trimCase) input() []judgemsg.Message {
	if !c.read.done {
		c.read.in, _ = judgemsg.FromRaw(gen.Raws(c.h.Msgs)) // generated, so well-formed
		c.read.done = true
	}
	return c.read.in
}

// effective is the conversation as the start rule leaves it (ANY-12):
// without one, the whole input (trimout.Effective), read or not.
func (c trimCase) effective() []json.RawMessage {
	if c.decl.Start == "" {
		return gen.Raws(c.h.Msgs)
	}
	in := c.input()
	return trimout.Pick(in, trimout.Effective(c.decl, in))
}

// anyLimit draws small limits, limits around the conversation's count and
// anything in between.
func anyLimit(t *rapid.T, _, total int) int {
	return rapid.OneOf(rapid.IntRange(0, 3), rapid.IntRange(0, total+2), rapid.IntRange(max(0, total-2), total+1)).Draw(t, "limit")
}

// fittingLimit draws a limit the effective conversation fits in (ANY-7):
// just above its count, or up to the whole input's, which a start rule
// must still reduce (ANY-12).
func fittingLimit(t *rapid.T, eff, total int) int {
	return rapid.OneOf(rapid.IntRange(eff, eff+3), rapid.IntRange(eff, max(eff, total)+1)).Draw(t, "limit the effective input fits")
}

// unit says what a count is.
func unit(d protocol.TrimmerDecl) string {
	if d.Bound == protocol.BoundMessages {
		return "messages"
	}
	return d.Counter + " tokens"
}

// leadingSystem is the number of system messages the conversation starts
// with (ANY-3).
func leadingSystem(h gen.History) int {
	n := 0
	for n < len(h.Msgs) && h.Msgs[n].Class == gen.ClassSystem {
		n++
	}
	return n
}

// lastPrompt is the position of the latest user prompt, -1 when there is
// none (ANY-4).
func lastPrompt(h gen.History) int {
	for i := len(h.Msgs) - 1; i >= 0; i-- {
		if h.Msgs[i].Class == gen.ClassUserPrompt {
			return i
		}
	}
	return -1
}

// trimSession sends trimmer.trim requests and reports failures with every
// request sent.
type trimSession struct {
	*session
	// counts keeps what each message counts alone by a declared counter
	// that sums its messages (see count): a case counts its input, its
	// floor and its output, which hold the same messages.
	counts map[string]int
}

func newTrimSession(s *session) trimSession { return trimSession{s, map[string]int{}} }

// errDeclined is an error answer a trimmer may give (ANY-9): a refusal,
// not a crash, from a first declaration that does not claim total, or a
// limit outside a declared domain. Its other guarantees are not judged on
// that input.
var errDeclined = errors.New("declined")

// trim sends one request. A crash (internal_error) inside the declared
// domain always fails the case under ANY-9, and so does any error from a
// trimmer that claims total (every second declaration does, D-60); other
// errors are errDeclined. A failure to answer at all fails the case under
// ANY-9 too: a crash or a hang is never an answer, and it is its own
// cause in the report.
func (s trimSession) trim(d protocol.TrimmerDecl, msgs []json.RawMessage, limit int) ([]json.RawMessage, error) {
	s.t.Helper()
	return s.trimAsking(d, msgs, limit, func() ([]json.RawMessage, error) { return target.TrimmerTrim(s.ctx, s.tg, d.Name, msgs, limit) })
}

// trimShared is trim, with the answer shared by every property of the run
// that asks the same trimmer the same question (D-97).
func (s trimSession) trimShared(d protocol.TrimmerDecl, msgs []json.RawMessage, limit int) ([]json.RawMessage, error) {
	s.t.Helper()
	return s.trimAsking(d, msgs, limit, func() ([]json.RawMessage, error) {
		out, err := prop.Ask(prop.AnswersOf(s.tg), question(protocol.MethodTrimmerTrim, d.Name, limit, msgs), rawsSize, func() ([]json.RawMessage, error) {
			return target.TrimmerTrim(s.ctx, s.tg, d.Name, msgs, limit)
		})
		return slices.Clone(out), err // a check may append to its copy
	})
}

// trimAsking is trim with the request asked by ask.
func (s trimSession) trimAsking(d protocol.TrimmerDecl, msgs []json.RawMessage, limit int, ask func() ([]json.RawMessage, error)) ([]json.RawMessage, error) {
	s.t.Helper()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	lim, _ := json.Marshal(limit)
	s.record(protocol.MethodTrimmerTrim, protocol.TrimmerTrimParams{Trimmer: d.Name, Messages: msgs, Limit: lim})
	out, err := ask()
	var pe *protocol.Error
	switch {
	case err == nil:
		return out, nil
	case !d.InDomain(limit):
		return nil, errDeclined
	case errors.As(err, &pe) && pe.Kind() == protocol.KindInternalError:
		s.fail("ANY-9", "trimmer %q crashed on a valid conversation (limit %d, inside its domain): %v", d.Name, limit, err)
	case errors.As(err, &pe) && d.Refuses == protocol.RefusesNothingFits && s.nothingFits(d, msgs, limit):
		return nil, errDeclined // a refusal it declares: nothing beyond the kept messages fits
	case errors.As(err, &pe) && !d.Claims(protocol.GuaranteeTotal):
		return nil, errDeclined
	case errors.As(err, &pe):
		s.fail("ANY-9", "trimmer %q must answer every valid conversation of its domain but failed (limit %d): %v", d.Name, limit, err)
	default:
		s.fail("ANY-9", "trimmer %q did not answer (limit %d): %v", d.Name, limit, err)
	}
	return nil, err
}

// nothingFits reports whether the declared refusal applies (ANY-9).
func (s trimSession) nothingFits(d protocol.TrimmerDecl, msgs []json.RawMessage, limit int) bool {
	in, err := judgemsg.FromRaw(msgs)
	if err != nil {
		return false
	}
	return trimout.NothingFits(d, in, limit, func(m []json.RawMessage) int { return s.count(d, m) })
}

// count is what msgs count by d's bound: the declared counter, or the
// implementation's own through trimmer.count (D-60), which must answer.
func (s trimSession) count(d protocol.TrimmerDecl, msgs []json.RawMessage) int {
	s.t.Helper()
	if d.Counter != protocol.CounterNative {
		if joined, _ := d.Count.Joined(); d.Bound != protocol.BoundTokens || joined {
			return trimout.Count(d, msgs) // not a sum over the messages
		}
		// A token count is the sum of what each message counts alone, a
		// message that is none counting 0 (trimout.Count).
		n := 0
		for _, m := range msgs {
			key := d.Name + "\x00" + string(m)
			c, ok := s.counts[key]
			if !ok {
				c = trimout.Count(d, []json.RawMessage{m})
				s.counts[key] = c
			}
			n += c
		}
		return n
	}
	n, err := s.nativeCount(d, msgs)
	if err != nil {
		s.fail("ANY-13", "trimmer %q declares a native counter, but trimmer.count failed on a valid conversation: %v\n%s", d.Name, err, describeList("the messages counted", msgs))
	}
	if n < 0 {
		// Every limit a case draws is made from counts: one below zero is
		// the counter's deviation, said here, not a range the generator
		// cannot draw from.
		s.fail("ANY-13", "trimmer %q's native counter counts %d message(s) as %d, below zero\n%s", d.Name, len(msgs), n, describeList("the messages counted", msgs))
	}
	return n
}

// nativeCount asks trimmer.count.
func (s trimSession) nativeCount(d protocol.TrimmerDecl, msgs []json.RawMessage) (int, error) {
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	params := protocol.TrimmerCountParams{Trimmer: d.Name, Messages: msgs}
	s.record(protocol.MethodTrimmerCount, params)
	// A count is shared by the run's properties (D-97): the same lists
	// are counted by every property that draws the same case.
	return prop.Ask(prop.AnswersOf(s.tg), question(protocol.MethodTrimmerCount, d.Name, 0, msgs), func(int) int { return 8 }, func() (int, error) {
		raw, err := s.tg.Call(s.ctx, protocol.MethodTrimmerCount, params)
		if err != nil {
			return 0, err
		}
		return protocol.DecodeTrimmerCount(raw)
	})
}

// question names a request to a trimmer for the run's shared answers
// (D-97): the method, the trimmer (its length first: a name is the
// implementation's, and may hold any byte), the limit and the messages as
// sent, which are JSON texts and hold no byte 0.
func question(method, trimmer string, limit int, msgs []json.RawMessage) string {
	n := len(method) + len(trimmer) + 48
	for _, m := range msgs {
		n += len(m) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, method...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(len(trimmer)), 10)
	b = append(b, 0)
	b = append(b, trimmer...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(limit), 10)
	for _, m := range msgs {
		b = append(b, 0)
		b = append(b, m...)
	}
	return string(b)
}

// rawsSize is the bytes an answer of messages holds.
func rawsSize(msgs []json.RawMessage) int {
	n := 24 * len(msgs)
	for _, m := range msgs {
		n += len(m)
	}
	return n
}

// match maps each output message to the input position it is JSON-equal
// to, in order (ANY-1): -1 for an output message with no input message
// left to stand for. It is the judge's own mapping (trimout.Match), so the
// properties and the scenario steps read an output alike.
func match(in []gen.Message, out []json.RawMessage) []int {
	return trimout.Match(gen.Raws(in), out)
}

// describeCase shows the trimmer, the limit and the input with each
// message's position, class and count.
func (c trimCase) describe() string {
	var b strings.Builder
	if c.decl.Counter == protocol.CounterNative {
		fmt.Fprintf(&b, "trimmer %q (bound %s), limit %d; the input:\n", c.decl.Name, unit(c.decl), c.limit)
	} else {
		fmt.Fprintf(&b, "trimmer %q (bound %s), limit %d; the input counts %d %s:\n", c.decl.Name, unit(c.decl), c.limit, trimout.Count(c.decl, gen.Raws(c.h.Msgs)), unit(c.decl))
	}
	for i, m := range c.h.Msgs {
		fmt.Fprintf(&b, "  in[%d] %-14s unit %v  %s\n", i, m.Class, m.Unit, abbreviate(m.Raw, 160))
	}
	return strings.TrimRight(b.String(), "\n")
}

// describeOut shows an output.
func describeOut(out []json.RawMessage) string { return describeList("the output", out) }

func describeList(what string, out []json.RawMessage) string {
	if len(out) == 0 {
		return what + " is empty"
	}
	var b strings.Builder
	b.WriteString(what + ":")
	for k, o := range out {
		fmt.Fprintf(&b, "\n  out[%d] %s", k, abbreviate(o, 160))
	}
	return b.String()
}

func positions(idx []int) string {
	if len(idx) == 0 {
		return "nothing"
	}
	parts := make([]string, len(idx))
	for i, x := range idx {
		parts[i] = fmt.Sprintf("in[%d]", x)
	}
	return strings.Join(parts, ", ")
}

func equalLists(a, b []json.RawMessage) bool {
	return slices.EqualFunc(a, b, func(x, y json.RawMessage) bool { return jsoncmp.Equal(x, y) })
}
