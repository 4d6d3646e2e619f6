package steps

// Steps of capability trimmer (features/trimmer): a conversation is given
// to every declared trimmer that claims a guarantee, and the Then steps
// check that guarantee on every output (ANY-1 – ANY-10).

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
	"github.com/convspec/convspec/internal/trimout"
	"github.com/convspec/convspec/reference/message"
)

// trimmerTable is the steps of the capability trimmer.
var trimmerTable = newTable([]def[trimWorld]{
	{given, `^an empty conversation$`, (*trimWorld).emptyConversation},
	{when, `^every trimmer that claims "([a-z_]+)" trims it to (\d+)$`, (*trimWorld).trim},
	{thenEnds, `^every declared trimmer names its bound, a counter for a token bound, and known guarantees$`, (*trimWorld).declared},
	{thenEnds, `^every output is a subsequence of the conversation$`, (*trimWorld).everySubsequence},
	{thenEnds, `^every output keeps tool-call units whole$`, (*trimWorld).everyUnits},
	{thenEnds, `^every output starts with messages? ([0-9, \-]+)$`, (*trimWorld).everyStartsWith},
	{thenEnds, `^every output holds message (\d+)$`, (*trimWorld).everyHolds},
	{thenEnds, `^every output ends with messages? ([0-9, \-]+)$`, (*trimWorld).everyEndsWith},
	{thenEnds, `^every output is within the limit, or exactly its floor$`, (*trimWorld).everyBound},
	{thenEnds, `^every output is the conversation unchanged$`, (*trimWorld).everyUnchanged},
	{thenEnds, `^trimming every output again changes nothing$`, (*trimWorld).everyIdempotent},
	{thenEnds, `^no trimmer failed$`, (*trimWorld).noneFailed},
	{thenEnds, `^every output of a message bound has at most (\d+) messages?$`, (*trimWorld).everyCountAtMost},
	{thenEnds, `^every output is empty$`, (*trimWorld).everyEmpty},
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
		if r.decl.Bound == protocol.BoundMessages && len(r.out) > n {
			return fmt.Errorf("%d messages, wanted at most %d", len(r.out), n)
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
	for _, d := range tw.w.tg.Info().Claiming(guarantee) {
		if f != "" && !d.Accepts(f) {
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
	return protocol.CheckTrimmers(info.Capabilities, info.Trimmers)
}

// each checks every trimmer's output; an error answer fails the step
// (ANY-9) unless the trimmer does not claim total.
func (tw *trimWorld) each(check func(trimRun) error) error {
	for _, r := range tw.runs {
		if r.err != nil {
			if r.decl.Claims(protocol.GuaranteeTotal) || tw.guarantee == protocol.GuaranteeTotal {
				return fmt.Errorf("trimmer %q failed on a valid conversation with limit %d: %v", r.decl.Name, tw.limit, r.err)
			}
			continue
		}
		if err := check(r); err != nil {
			return fmt.Errorf("trimmer %q, limit %d: %w\n  output: %s", r.decl.Name, tw.limit, err, mustList(r.out))
		}
	}
	return nil
}

func mustList(msgs []json.RawMessage) string {
	b, _ := json.Marshal(msgs)
	return clip(b)
}

func (tw *trimWorld) subsequence(r trimRun) error {
	next := 0
	for k, o := range r.out {
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
	msgs := trimout.Messages(r.out)
	if _, problems := message.Structure(msgs); len(problems) > 0 {
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
		if len(r.out) < len(want) || !equalRaw(r.out[:len(want)], want) {
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
		for _, o := range r.out {
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
		if len(r.out) < len(want) || !equalRaw(r.out[len(r.out)-len(want):], want) {
			return fmt.Errorf("the output does not end with messages %s", list)
		}
		return nil
	}
}

// floor is what the trimmer's claimed guarantees keep (ANY-6).
func (tw *trimWorld) floor(d protocol.TrimmerDecl) ([]json.RawMessage, error) {
	msgs, err := message.FromRaw(tw.w.input)
	if err != nil {
		return nil, err
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, err
	}
	keep := make([]bool, len(msgs))
	for i := 0; i < len(msgs) && msgs[i].Class() == message.System && d.Claims(protocol.GuaranteeSystem); i++ {
		keep[i] = true
	}
	for i := len(msgs) - 1; i >= 0 && d.Claims(protocol.GuaranteeLastPrompt); i-- {
		if msgs[i].Class() == message.UserPrompt {
			keep[i] = true
			break
		}
	}
	if len(units) > 0 && d.Claims(protocol.GuaranteeLastUnit) {
		for i := units[len(units)-1].Start; i < len(msgs); i++ {
			keep[i] = true
		}
	}
	var out []json.RawMessage
	for i, k := range keep {
		if k {
			out = append(out, tw.w.input[i])
		}
	}
	return out, nil
}

func (tw *trimWorld) bound(r trimRun) error {
	fl, err := tw.floor(r.decl)
	if err != nil {
		return err
	}
	got, need := trimout.Count(r.decl, r.out), trimout.Count(r.decl, fl)
	switch {
	case need <= tw.limit && got > tw.limit:
		return fmt.Errorf("the output counts %d (%s), above the limit", got, r.decl.Bound)
	case need > tw.limit && !equalRaw(r.out, fl):
		return fmt.Errorf("the floor alone counts %d, above the limit, so the output must be the floor: %s", need, mustList(fl))
	}
	return nil
}

func (tw *trimWorld) unchanged(r trimRun) error {
	if !equalRaw(r.out, tw.w.input) {
		return fmt.Errorf("the conversation fits, yet it was changed")
	}
	return nil
}

func (tw *trimWorld) idempotent(r trimRun) error {
	if len(trimout.Messages(r.out)) < len(r.out) {
		return nil // not all messages: it cannot be trimmed again; ANY-1 reports it
	}
	again, err := target.TrimmerTrim(context.Background(), tw.w.tg, r.decl.Name, r.out, tw.limit)
	if err != nil {
		return fmt.Errorf("trimming the output again failed: %v", err)
	}
	if !equalRaw(again, r.out) {
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
