package budget

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/convspec/convspec/reference/message"
)

// words is a message of exactly n tokens: the role is one token and " the"
// repeated is one token each (TOK-2).
func words(t *testing.T, role string, n int) message.Message {
	t.Helper()
	m, err := message.New(role, strings.Repeat(" the", n-1))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestLimits(t *testing.T) {
	l, err := NewLimits(map[string]int{"local-model": 8192})
	if err != nil {
		t.Fatal(err)
	}
	for model, want := range map[string]int{"gemini-3-pro": 1_000_000, "claude-3.5-sonnet": 200_000, "gpt-4o": 128_000, "local-model": 8192} {
		if got, err := l.Of(model); err != nil || got != want {
			t.Errorf("Of(%q) = %d, %v; want %d", model, got, err, want)
		}
	}
	if _, err := l.Of("gpt-5"); !errors.Is(err, ErrUnknownModel) {
		t.Errorf("Of(unknown) = %v, want ErrUnknownModel (LIM-2: never a silent default)", err)
	}
	for _, bad := range []map[string]int{{"": 5}, {"m": 0}, {"m": -1}, {"m": 1 << 53}} {
		if _, err := NewLimits(bad); err == nil {
			t.Errorf("NewLimits(%v) accepted", bad)
		}
	}
}

func TestThresholds(t *testing.T) {
	for _, c := range []struct {
		count, limit      int
		approaching, atLn bool
	}{{80, 100, false, false}, {81, 100, true, false}, {95, 100, true, false}, {96, 100, true, true}, {102_400, 128_000, false, false}, {102_401, 128_000, true, false}, {121_600, 128_000, true, false}, {121_601, 128_000, true, true}} {
		if got := Approaching(c.count, c.limit); got != c.approaching {
			t.Errorf("Approaching(%d, %d) = %v", c.count, c.limit, got)
		}
		if got := AtLimit(c.count, c.limit); got != c.atLn {
			t.Errorf("AtLimit(%d, %d) = %v", c.count, c.limit, got)
		}
	}
}

func TestPrune(t *testing.T) {
	msgs := []message.Message{words(t, "system", 10), words(t, "user", 20), words(t, "assistant", 30), words(t, "user", 40)}
	if got := Count(msgs); got != 100 {
		t.Fatalf("Count = %d, want 100", got)
	}
	// Limit 100 at 80%: remove the oldest after the first until 100·c < 80·100.
	kept, removed, err := Prune(msgs, 100, 80)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(removed) != "[1 2]" || len(kept) != 2 || Count(kept) != 50 {
		t.Errorf("Prune removed %v, kept %d messages of %d tokens; want [1 2], 2, 50", removed, len(kept), Count(kept))
	}
	// Only first and final left even above the target (PRN-2).
	if _, removed, _ := Prune(msgs, 10, 80); fmt.Sprint(removed) != "[1 2]" {
		t.Errorf("Prune at a tiny limit removed %v, want [1 2]: first and final stay", removed)
	}
	// Below the target nothing changes (PRN-3).
	if _, removed, _ := Prune(msgs, 1000, 80); len(removed) != 0 {
		t.Errorf("Prune below the target removed %v", removed)
	}
	// Never empty (PRN-4).
	if _, _, err := Prune(nil, 100, 80); !errors.Is(err, ErrInvariant) {
		t.Errorf("Prune(empty) = %v, want ErrInvariant", err)
	}
}

type replies struct {
	reply string
	err   error
	calls int
}

func (r *replies) Summarize(context.Context, []message.Message) (string, error) {
	r.calls++
	return r.reply, r.err
}

func TestPrepare(t *testing.T) {
	limits, _ := NewLimits(map[string]int{"m": 100})
	ctx := context.Background()
	sys, u := words(t, "system", 10), words(t, "user", 5)

	// PREP-1: at or below 80% nothing happens.
	s := &replies{reply: "S"}
	out, events, err := Prepare(ctx, []message.Message{sys, u, words(t, "assistant", 65)}, "m", limits, s)
	if err != nil || len(out) != 3 || len(events) != 0 || s.calls != 0 {
		t.Errorf("80 tokens of 100: %d messages, events %v, %d calls, %v", len(out), events, s.calls, err)
	}
	// PREP-3 and PREP-4: a giant final message is compressed once, then exhausted.
	s = &replies{reply: "S"}
	_, _, err = Prepare(ctx, []message.Message{sys, words(t, "user", 200)}, "m", limits, s)
	var ex *ExhaustedError
	if !errors.As(err, &ex) || s.calls != 1 || ex.Limit != 100 || ex.Model != "m" {
		t.Errorf("giant message: err %v, %d calls; want ExhaustedError after one call", err, s.calls)
	}
	// Exactly 95% is approaching, not at the limit (THR-2 is strict): prune.
	s = &replies{reply: "S"}
	_, events, err = Prepare(ctx, []message.Message{sys, words(t, "assistant", 80), u}, "m", limits, s)
	if err != nil || s.calls != 0 || len(events) != 1 || events[0].Name != "context_window_approaching" || events[0].TokenCount != 95 {
		t.Errorf("95 tokens of 100: events %v, %d calls, %v; want one context_window_approaching at 95", events, s.calls, err)
	}
	// PREP-3: above 95% a failing summarizer falls back to pruning, with an event.
	s = &replies{err: errors.New("down")}
	out, events, err = Prepare(ctx, []message.Message{sys, words(t, "assistant", 85), u}, "m", limits, s)
	if err != nil || s.calls != 1 || len(events) == 0 || events[0].Name != "context_compression_failed" {
		t.Errorf("failing summarizer: %d messages, events %v, %d calls, %v", len(out), events, s.calls, err)
	}
}
