package steps

// Steps of capability trimmer (features/trimmer): a conversation is given
// to every declared trimmer that claims a guarantee, and the Then steps
// check that guarantee on every output (ANY-1 – ANY-14).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoncmp"
	"github.com/convspec/convspec/internal/judgemsg"
	"github.com/convspec/convspec/internal/trimdecl"
	"github.com/convspec/convspec/internal/trimout"
)

// trimmerTable is the steps of the capability trimmer.
var trimmerTable = newTable([]def[trimWorld]{
	{given, `^an empty conversation$`, (*trimWorld).emptyConversation},
	{when, `^every trimmer that claims "([a-z_]+)" trims it to (\d+)$`, (*trimWorld).trim},
	{then, `^every declared trimmer names its bound, a counter for a token bound, and known guarantees$`, (*trimWorld).declared},
	{then, `^every output is a subsequence of the conversation$`, (*trimWorld).everySubsequence},
	{then, `^every output keeps tool-call units whole$`, (*trimWorld).everyUnits},
	{then, `^every output starts with messages? ([0-9, \-]+)$`, (*trimWorld).everyStartsWith},
	{then, `^every output holds message (\d+)$`, (*trimWorld).everyHolds},
	{then, `^every output ends with messages? ([0-9, \-]+)$`, (*trimWorld).everyEndsWith},
	{then, `^every output is within the limit, or exactly its floor$`, (*trimWorld).everyBound},
	{then, `^every output is the conversation unchanged$`, (*trimWorld).everyUnchanged},
	{then, `^trimming every output again changes nothing$`, (*trimWorld).everyIdempotent},
	{then, `^no trimmer failed$`, (*trimWorld).noneFailed},
	{then, `^every output of a message bound has at most (\d+) messages?$`, (*trimWorld).everyCountAtMost},
	{then, `^every output is empty$`, (*trimWorld).everyEmpty},
	{then, `^every output starts with the declared head$`, (*trimWorld).everyHead},
	{then, `^every output starts on a user prompt after what it always keeps$`, (*trimWorld).everyStart},
	{then, `^every native counter is sane on the conversation$`, (*trimWorld).everyCounter},
	{then, `^every output is what the trimmer always keeps and the last message$`, (*trimWorld).everyFallback},
})

// trimWorld is a scenario's trimmer state.
type trimWorld struct {
	w         *world
	guarantee string
	limit     int
	runs      []trimRun
}

// trimRun is one trimmer's answer.
type trimRun struct {
	decl protocol.TrimmerDecl
	out  []json.RawMessage
	err  error
}

func (tw *trimWorld) emptyConversation() error {
	tw.w.input = []json.RawMessage{}
	return nil
}

func (tw *trimWorld) everySubsequence() error           { return tw.each(tw.subsequence) }
func (tw *trimWorld) everyUnits() error                 { return tw.each(tw.units) }
func (tw *trimWorld) everyStartsWith(list string) error { return tw.each(tw.startsWith(list)) }
func (tw *trimWorld) everyHolds(pos int) error          { return tw.each(tw.holds(pos)) }
func (tw *trimWorld) everyEndsWith(list string) error   { return tw.each(tw.endsWith(list)) }
func (tw *trimWorld) everyBound() error                 { return tw.each(tw.bound) }
func (tw *trimWorld) everyUnchanged() error             { return tw.each(tw.unchanged) }
func (tw *trimWorld) everyIdempotent() error            { return tw.each(tw.idempotent) }
func (tw *trimWorld) noneFailed() error                 { return tw.each(func(trimRun) error { return nil }) }

func (tw *trimWorld) everyCountAtMost(n int) error {
	return tw.each(func(r trimRun) error {
		// Markers aside, and in the library's units where declared (ANY-6).
		if got := trimout.Count(r.decl, trimout.Strip(r.decl, r.out)); r.decl.Bound == protocol.BoundMessages && got > n {
			return fmt.Errorf("%d messages, wanted at most %d", got, n)
		}
		return nil
	})
}

func (tw *trimWorld) everyEmpty() error {
	return tw.each(func(r trimRun) error {
		if len(r.out) > 0 {
			return fmt.Errorf("%d messages, wanted none", len(r.out))
		}
		return nil
	})
}

// format is the tool-call format of the conversation, "" when it has no
// tool calls.
func format(msgs []json.RawMessage) string {
	for _, m := range msgs {
		s := string(m)
		switch {
		case strings.Contains(s, `"tool_use"`) || strings.Contains(s, `"tool_result"`):
			return protocol.FormatAnthropic
		case strings.Contains(s, `"tool_calls"`) || strings.Contains(s, `"tool_call_id"`):
			return protocol.FormatOpenAI
		}
	}
	return ""
}

func (tw *trimWorld) trim(guarantee string, limit int) error {
	tw.guarantee, tw.limit = guarantee, limit
	f := format(tw.w.input)
	decls := tw.w.tg.Info().Claiming(guarantee)
	if guarantee == protocol.GuaranteeTotal {
		decls = tw.w.tg.Info().Trimmers // a crash is never an answer (ANY-9, D-60)
	}
	for _, d := range decls {
		if (f != "" && !d.Accepts(f)) || !d.InDomain(limit) {
			continue
		}
		out, err := target.TrimmerTrim(context.Background(), tw.w.tg, d.Name, tw.w.input, limit)
		var fl *target.Failure
		if errors.As(err, &fl) {
			return tw.w.need(err)
		}
		tw.runs = append(tw.runs, trimRun{decl: d, out: out, err: err})
	}
	if len(tw.runs) == 0 {
		return godog.ErrSkip // no trimmer claims it for this format
	}
	return nil
}

func (tw *trimWorld) declared() error {
	info := tw.w.tg.Info()
	if len(info.Trimmers) == 0 {
		return fmt.Errorf("capability trimmer is declared without trimmers")
	}
	return trimdecl.CheckTrimmers(info.Capabilities, info.Trimmers)
}

// each checks every trimmer's output, and reports every trimmer that
// fails, each as a deviation of its own whose text starts with what is
// wrong (the report groups causes by that text, so a trimmer's name
// must not lead it). An error answer fails the step under ANY-9 when it is
// a crash or the trimmer claims total, and declines the case otherwise.
func (tw *trimWorld) each(check func(trimRun) error) error {
	var fails []error
	for _, r := range tw.runs {
		var pe *protocol.Error
		switch {
		case r.err != nil && errors.As(r.err, &pe) && pe.Kind() != protocol.KindInternalError &&
			!r.decl.Claims(protocol.GuaranteeTotal) && tw.guarantee != protocol.GuaranteeTotal:
			continue
		case r.err != nil && errors.As(r.err, &pe) && pe.Kind() != protocol.KindInternalError && tw.refusalDeclared(r.decl):
			continue
		case r.err != nil && errors.As(r.err, &pe) && pe.Kind() == protocol.KindInternalError:
			fails = append(fails, &ClauseError{Clause: "ANY-9", Err: fmt.Errorf("the trimmer crashed on a valid conversation (trimmer %q, limit %d) — %v", r.decl.Name, tw.limit, r.err)})
		case r.err != nil:
			fails = append(fails, &ClauseError{Clause: "ANY-9", Err: fmt.Errorf("the trimmer refused a valid conversation of its domain (trimmer %q, limit %d) — %v", r.decl.Name, tw.limit, r.err)})
		default:
			if err := check(r); err != nil {
				fails = append(fails, fmt.Errorf("%w (trimmer %q, limit %d)\n  output: %s", err, r.decl.Name, tw.limit, mustList(r.out)))
			}
		}
	}
	return errors.Join(fails...)
}

// input is the conversation as the judge reads it (D-64).
func (tw *trimWorld) input() ([]judgemsg.Message, error) { return judgemsg.FromRaw(tw.w.input) }

// count is what msgs count by the trimmer's bound, natively through
// trimmer.count for a native counter (ANY-13).
func (tw *trimWorld) count(d protocol.TrimmerDecl, msgs []json.RawMessage) (int, error) {
	if d.Counter != protocol.CounterNative {
		return trimout.Count(d, msgs), nil
	}
	if msgs == nil {
		msgs = []json.RawMessage{}
	}
	raw, err := tw.w.tg.Call(context.Background(), protocol.MethodTrimmerCount, protocol.TrimmerCountParams{Trimmer: d.Name, Messages: msgs})
	if err != nil {
		return 0, fmt.Errorf("ANY-13: trimmer.count failed: %w", err)
	}
	n, err := protocol.DecodeTrimmerCount(raw)
	if err != nil {
		return 0, fmt.Errorf("ANY-13: %w", err)
	}
	return n, nil
}

func mustList(msgs []json.RawMessage) string {
	b, _ := json.Marshal(msgs)
	return clip(b)
}

func (tw *trimWorld) subsequence(r trimRun) error {
	next := 0
	for k, o := range trimout.Strip(r.decl, r.out) {
		found := false
		for i := next; i < len(tw.w.input); i++ {
			if jsoncmp.Equal(tw.w.input[i], o) {
				next, found = i+1, true
				break
			}
		}
		if !found {
			return fmt.Errorf("output message %d is not the next input message it could stand for: duplicated, reordered, invented or altered", k+1)
		}
	}
	return nil
}

func (tw *trimWorld) units(r trimRun) error {
	msgs := trimout.Read(r.out)
	if _, problems := judgemsg.Structure(msgs); len(problems) > 0 {
		return fmt.Errorf("the output splits a unit: %s at output message %d (%s)", problems[0].Code, problems[0].At+1, problems[0].Reason)
	}
	return nil
}

func (tw *trimWorld) messagesAt(list string) ([]json.RawMessage, error) {
	pos, err := parseList(list, len(tw.w.input))
	if err != nil {
		return nil, err
	}
	var out []json.RawMessage
	for _, p := range pos {
		out = append(out, tw.w.input[p-1])
	}
	return out, nil
}

func (tw *trimWorld) startsWith(list string) func(trimRun) error {
	return func(r trimRun) error {
		want, err := tw.messagesAt(list)
		if err != nil {
			return err
		}
		if tw.guarantee == protocol.GuaranteeSystem {
			// The listed system messages, as far as the declaration keeps
			// them (ANY-3: leading, or only the first).
			in, err := tw.input()
			if err != nil {
				return err
			}
			kept := trimout.SystemKept(r.decl, in)
			want = want[:min(len(want), len(kept))]
		}
		out := trimout.Strip(r.decl, r.out)
		if len(out) < len(want) || !equalRaw(out[:len(want)], want) {
			return fmt.Errorf("the output does not start with messages %s", list)
		}
		return nil
	}
}

func (tw *trimWorld) holds(pos int) func(trimRun) error {
	return func(r trimRun) error {
		want, err := tw.messagesAt(strconv.Itoa(pos))
		if err != nil {
			return err
		}
		for _, o := range trimout.Strip(r.decl, r.out) {
			if jsoncmp.Equal(o, want[0]) {
				return nil
			}
		}
		return fmt.Errorf("message %d is not in the output", pos)
	}
}

func (tw *trimWorld) endsWith(list string) func(trimRun) error {
	return func(r trimRun) error {
		want, err := tw.messagesAt(list)
		if err != nil {
			return err
		}
		out := trimout.Strip(r.decl, r.out)
		if len(out) < len(want) || !equalRaw(out[len(out)-len(want):], want) {
			return fmt.Errorf("the output does not end with messages %s", list)
		}
		return nil
	}
}

// floor is what the trimmer's claimed guarantees keep (ANY-6).
func (tw *trimWorld) floor(d protocol.TrimmerDecl) ([]json.RawMessage, error) {
	msgs, err := tw.input()
	if err != nil {
		return nil, err
	}
	out := []json.RawMessage{}
	for _, i := range trimout.Floor(d, msgs) {
		out = append(out, tw.w.input[i])
	}
	return out, nil
}

func (tw *trimWorld) bound(r trimRun) error {
	if _, applies, err := tw.fallback(r.decl); err != nil || applies {
		return err // nothing fits: the output is ANY-14's to judge
	}
	fl, err := tw.floor(r.decl)
	if err != nil {
		return err
	}
	out := trimout.Strip(r.decl, r.out)
	got, err := tw.count(r.decl, out)
	if err != nil {
		return err
	}
	need, err := tw.count(r.decl, fl)
	if err != nil {
		return err
	}
	switch {
	case need <= tw.limit && got > tw.limit && r.decl.Slack == protocol.SlackUnit:
		in, err := tw.input()
		if err != nil {
			return err
		}
		rest, ok := trimout.WithoutStraddling(in, out, trimout.Floor(r.decl, in))
		if !ok {
			return fmt.Errorf("the output counts %d (%s), above the limit, and has no unit outside the floor to be its slack", got, r.decl.Bound)
		}
		n, err := tw.count(r.decl, rest)
		if err != nil {
			return err
		}
		if n > tw.limit {
			return fmt.Errorf("the output counts %d (%s), above the limit by more than the one unit that straddles the cut (%d without it)", got, r.decl.Bound, n)
		}
	case need <= tw.limit && got > tw.limit:
		return fmt.Errorf("the output counts %d (%s), above the limit", got, r.decl.Bound)
	case need > tw.limit && !equalRaw(out, fl):
		return fmt.Errorf("the floor alone counts %d, above the limit, so the output must be the floor: %s", need, mustList(fl))
	}
	return nil
}

func (tw *trimWorld) unchanged(r trimRun) error {
	in, err := tw.input()
	if err != nil {
		return err
	}
	if !equalRaw(trimout.Strip(r.decl, r.out), trimout.Pick(in, trimout.Effective(r.decl, in))) {
		return fmt.Errorf("the conversation fits, yet it was changed")
	}
	return nil
}

func (tw *trimWorld) idempotent(r trimRun) error {
	if len(trimout.Read(r.out)) < len(r.out) {
		return nil // not all messages: it cannot be trimmed again; ANY-1 reports it
	}
	again, err := target.TrimmerTrim(context.Background(), tw.w.tg, r.decl.Name, r.out, tw.limit)
	if err != nil {
		return fmt.Errorf("trimming the output again failed: %v", err)
	}
	if !equalRaw(trimout.Strip(r.decl, again), trimout.Strip(r.decl, r.out)) {
		return fmt.Errorf("trimming the output again changed it: %s", mustList(again))
	}
	return nil
}

func equalRaw(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !jsoncmp.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func (tw *trimWorld) everyHead() error {
	return tw.each(func(r trimRun) error {
		n := min(r.decl.Head, len(tw.w.input))
		out := trimout.Strip(r.decl, r.out)
		if len(out) < n || !equalRaw(out[:n], tw.w.input[:n]) {
			return fmt.Errorf("ANY-11: the output does not start with the declared head of %d message(s)", r.decl.Head)
		}
		return nil
	})
}

func (tw *trimWorld) everyStart() error {
	return tw.each(func(r trimRun) error {
		in, err := tw.input()
		if err != nil {
			return err
		}
		kept := trimout.Kept(r.decl, in)
		for k, p := range trimout.Match(tw.w.input, trimout.Strip(r.decl, r.out)) {
			if p < 0 || kept[p] {
				continue
			}
			if in[p].Class() != judgemsg.UserPrompt {
				return fmt.Errorf("ANY-12: after what it always keeps, the output starts on output message %d, a %s message", k+1, in[p].Class())
			}
			return nil
		}
		return nil
	})
}

// everyCounter checks each native counter on the conversation's prefixes
// (ANY-13): never negative, never smaller as messages are added.
func (tw *trimWorld) everyCounter() error {
	return tw.each(func(r trimRun) error {
		if r.decl.Counter != protocol.CounterNative {
			return nil
		}
		last := 0
		for i := 0; i <= len(tw.w.input); i++ {
			n, err := tw.count(r.decl, tw.w.input[:i])
			if err != nil {
				return err
			}
			if n < 0 || (i > 0 && n < last) {
				return fmt.Errorf("ANY-13: the native counter counts the first %d message(s) as %d (the first %d: %d)", i, n, max(i-1, 0), last)
			}
			last = n
		}
		return nil
	})
}

// fallback is the answer a declared fallback requires (ANY-14) and
// whether it applies: the kept messages with the last message count more
// than the limit.
func (tw *trimWorld) fallback(d protocol.TrimmerDecl) ([]json.RawMessage, bool, error) {
	in, err := tw.input()
	if err != nil {
		return nil, false, err
	}
	sel, ok := trimout.Fallback(d, in)
	if !ok {
		return nil, false, nil
	}
	want := trimout.Pick(in, sel)
	n, err := tw.count(d, want)
	return want, n > tw.limit, err
}

func (tw *trimWorld) everyFallback() error {
	return tw.each(func(r trimRun) error {
		want, applies, err := tw.fallback(r.decl)
		if err != nil || !applies {
			return err
		}
		if !equalRaw(trimout.Strip(r.decl, r.out), want) {
			return fmt.Errorf("ANY-14: the last message does not fit with what the trimmer always keeps, so the output must be exactly them: %s", mustList(want))
		}
		return nil
	})
}

// refusalDeclared reports whether the trimmer declares refuses
// "nothing_fits" and nothing beyond its kept messages fits (ANY-9).
func (tw *trimWorld) refusalDeclared(d protocol.TrimmerDecl) bool {
	if d.Refuses != protocol.RefusesNothingFits {
		return false
	}
	in, err := tw.input()
	if err != nil {
		return false
	}
	failed := false
	fits := trimout.NothingFits(d, in, tw.limit, func(m []json.RawMessage) int {
		n, err := tw.count(d, m)
		failed = failed || err != nil
		return n
	})
	return fits && !failed
}
