package properties

// Cases of capability trimmer: a declared trimmer, a well-formed
// conversation in the formats it takes, and a limit drawn around what the
// conversation counts by the trimmer's own counter (ANY-6, ANY-10).

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/trimout"
)

// trimCase is one generated request to trimmer.trim.
type trimCase struct {
	decl  protocol.TrimmerDecl
	h     history
	limit int
}

// trimLen draws a conversation length: the empty one included, mostly
// short enough to read.
var trimLen = rapid.OneOf(rapid.IntRange(0, 8), rapid.IntRange(0, 20), rapid.IntRange(0, 40))

// drawTrimmer draws one of the declared trimmers that claim guarantee.
func drawTrimmer(t *rapid.T, tg target.Target, guarantee string) protocol.TrimmerDecl {
	decls := tg.Info().Claiming(guarantee)
	if len(decls) == 0 {
		t.Fatalf("no declared trimmer claims %q", guarantee)
	}
	return decls[rapid.IntRange(0, len(decls)-1).Draw(t, "trimmer")]
}

// drawTrimCase draws a case for a trimmer claiming guarantee; limits is
// how the limit relates to the conversation's count.
func drawTrimCase(t *rapid.T, tg target.Target, guarantee string, limits func(t *rapid.T, total int) int) trimCase {
	d := drawTrimmer(t, tg, guarantee)
	format := ""
	if len(d.Formats) == 1 {
		format = d.Formats[0]
	}
	h := historyGen(genOpts{n: trimLen.Draw(t, "n"), marked: true, tools: -1, runs: rapid.Bool().Draw(t, "orphan runs"), format: format}).Draw(t, "conversation")
	total := trimout.Count(d, raws(h.msgs))
	return trimCase{decl: d, h: h, limit: limits(t, total)}
}

// anyLimit draws small limits, limits around the conversation's count and
// anything in between.
func anyLimit(t *rapid.T, total int) int {
	return rapid.OneOf(rapid.IntRange(0, 3), rapid.IntRange(0, total+2), rapid.IntRange(max(0, total-2), total+1)).Draw(t, "limit")
}

// fittingLimit draws a limit the conversation fits in (ANY-7).
func fittingLimit(t *rapid.T, total int) int {
	return total + rapid.IntRange(0, 3).Draw(t, "limit above the count")
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
func leadingSystem(h history) int {
	n := 0
	for n < len(h.msgs) && h.msgs[n].Class == clsSystem {
		n++
	}
	return n
}

// lastPrompt is the position of the latest user prompt, -1 when there is
// none (ANY-4).
func lastPrompt(h history) int {
	for i := len(h.msgs) - 1; i >= 0; i-- {
		if h.msgs[i].Class == clsUserPrompt {
			return i
		}
	}
	return -1
}

// floor is the smallest acceptable output (ANY-6): the positions the
// trimmer's claimed guarantees keep, in order.
func floor(d protocol.TrimmerDecl, h history) []int {
	keep := map[int]bool{}
	if d.Claims(protocol.GuaranteeSystem) {
		for i := range leadingSystem(h) {
			keep[i] = true
		}
	}
	if i := lastPrompt(h); i >= 0 && d.Claims(protocol.GuaranteeLastPrompt) {
		keep[i] = true
	}
	if n := len(h.msgs); n > 0 && d.Claims(protocol.GuaranteeLastUnit) {
		for i := h.msgs[n-1].Unit[0]; i < n; i++ {
			keep[i] = true
		}
	}
	var out []int
	for i := range h.msgs {
		if keep[i] {
			out = append(out, i)
		}
	}
	return out
}

// trimSession sends trimmer.trim requests and reports failures with every
// request sent.
type trimSession struct{ *session }

// errDeclined is an error answer from a trimmer that does not claim total
// (ANY-9): its other guarantees are not judged on that input.
var errDeclined = errors.New("declined")

// trim sends one request. An error answer fails the case under ANY-9 when
// the trimmer claims total, and is errDeclined otherwise; a failure to
// answer at all always fails it.
func (s trimSession) trim(d protocol.TrimmerDecl, msgs []json.RawMessage, limit int) ([]json.RawMessage, error) {
	s.t.Helper()
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	lim, _ := json.Marshal(limit)
	s.record(protocol.MethodTrimmerTrim, protocol.TrimmerTrimParams{Trimmer: d.Name, Messages: msgs, Limit: lim})
	out, err := target.TrimmerTrim(s.ctx, s.tg, d.Name, msgs, limit)
	var pe *protocol.Error
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &pe) && !d.Claims(protocol.GuaranteeTotal):
		return nil, errDeclined
	case errors.As(err, &pe):
		s.fail("ANY-9", "trimmer %q claims total but failed on a valid conversation (limit %d): %v", d.Name, limit, err)
	default:
		s.fail(s.clause, "trimmer %q: %v", d.Name, err)
	}
	return nil, err
}

// match maps each output message to the input position it is JSON-equal
// to, in order (ANY-1): -1 for an output message with no input message
// left to stand for.
func match(in []msg, out []json.RawMessage) []int {
	pos := make([]int, len(out))
	next := 0
	for k, o := range out {
		pos[k] = -1
		for i := next; i < len(in); i++ {
			if jsoncmp.Equal(in[i].Raw, o) {
				pos[k], next = i, i+1
				break
			}
		}
	}
	return pos
}

// describeCase shows the trimmer, the limit and the input with each
// message's position, class and count.
func (c trimCase) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trimmer %q (bound %s), limit %d; the input counts %d %s:\n", c.decl.Name, unit(c.decl), c.limit, trimout.Count(c.decl, raws(c.h.msgs)), unit(c.decl))
	for i, m := range c.h.msgs {
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
