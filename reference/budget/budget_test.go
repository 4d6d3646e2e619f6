package budget

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
)

// words is a message of exactly n tokens: the role is one token and " the"
// repeated is one token each (TOK-2).
func words(t *testing.T, role string, n int) message.Message {
	t.Helper()
	m, err := message.New(role, strings.Repeat(" the", n-1))
	require.NoError(t, err)
	return m
}

func TestLimits(t *testing.T) {
	l, err := NewLimits(map[string]int{"local-model": 8192})
	require.NoError(t, err)
	for model, want := range map[string]int{"gemini-3-pro": 1_000_000, "claude-3.5-sonnet": 200_000, "gpt-4o": 128_000, "local-model": 8192} {
		got, err := l.Of(model)
		assert.NoError(t, err, "Of(%q)", model)
		assert.Equal(t, want, got, "Of(%q)", model)
	}
	_, err = l.Of("gpt-5")
	assert.ErrorIs(t, err, ErrUnknownModel, "Of(unknown): LIM-2, never a silent default")
	for _, bad := range []map[string]int{{"": 5}, {"m": 0}, {"m": -1}, {"m": 1 << 53}} {
		_, err := NewLimits(bad)
		assert.Error(t, err, "NewLimits(%v) accepted", bad)
	}
}

func TestThresholds(t *testing.T) {
	for _, c := range []struct {
		count, limit      int
		approaching, atLn bool
	}{{80, 100, false, false}, {81, 100, true, false}, {95, 100, true, false}, {96, 100, true, true}, {102_400, 128_000, false, false}, {102_401, 128_000, true, false}, {121_600, 128_000, true, false}, {121_601, 128_000, true, true}} {
		assert.Equal(t, c.approaching, Approaching(c.count, c.limit), "Approaching(%d, %d)", c.count, c.limit)
		assert.Equal(t, c.atLn, AtLimit(c.count, c.limit), "AtLimit(%d, %d)", c.count, c.limit)
	}
}

func TestPrune(t *testing.T) {
	msgs := []message.Message{words(t, "system", 10), words(t, "user", 20), words(t, "assistant", 30), words(t, "user", 40)}
	require.Equal(t, 100, Count(msgs))
	// Limit 100 at 80%: remove the oldest after the first until 100·c < 80·100.
	kept, removed, err := Prune(msgs, 100, 80)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, removed, "Prune removed")
	assert.Len(t, kept, 2, "Prune kept")
	assert.Equal(t, 50, Count(kept), "tokens Prune kept")
	// Only first and final left even above the target (PRN-2).
	_, removed, _ = Prune(msgs, 10, 80)
	assert.Equal(t, []int{1, 2}, removed, "Prune at a tiny limit: first and final stay")
	// Below the target nothing changes (PRN-3).
	_, removed, _ = Prune(msgs, 1000, 80)
	assert.Empty(t, removed, "Prune below the target")
	// Never empty (PRN-4).
	_, _, err = Prune(nil, 100, 80)
	assert.ErrorIs(t, err, ErrInvariant, "Prune(empty)")
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
	assert.NoError(t, err, "80 tokens of 100")
	assert.Len(t, out, 3, "80 tokens of 100: messages")
	assert.Empty(t, events, "80 tokens of 100: events")
	assert.Zero(t, s.calls, "80 tokens of 100: summarizer calls")
	// PREP-3 and PREP-4: a giant final message is compressed once, then exhausted.
	s = &replies{reply: "S"}
	_, _, err = Prepare(ctx, []message.Message{sys, words(t, "user", 200)}, "m", limits, s)
	var ex *ExhaustedError
	if assert.ErrorAs(t, err, &ex, "giant message") {
		assert.Equal(t, 100, ex.Limit, "giant message: limit")
		assert.Equal(t, "m", ex.Model, "giant message: model")
	}
	assert.Equal(t, 1, s.calls, "giant message: summarizer calls before ExhaustedError")
	// Exactly 95% is approaching, not at the limit (THR-2 is strict): prune.
	s = &replies{reply: "S"}
	_, events, err = Prepare(ctx, []message.Message{sys, words(t, "assistant", 80), u}, "m", limits, s)
	assert.NoError(t, err, "95 tokens of 100")
	assert.Zero(t, s.calls, "95 tokens of 100: summarizer calls")
	if assert.Len(t, events, 1, "95 tokens of 100: want one context_window_approaching at 95") {
		assert.Equal(t, "context_window_approaching", events[0].Name, "95 tokens of 100")
		assert.Equal(t, 95, events[0].TokenCount, "95 tokens of 100")
	}
	// PREP-3: above 95% a failing summarizer falls back to pruning, with an event.
	s = &replies{err: errors.New("down")}
	_, events, err = Prepare(ctx, []message.Message{sys, words(t, "assistant", 85), u}, "m", limits, s)
	assert.NoError(t, err, "failing summarizer")
	assert.Equal(t, 1, s.calls, "failing summarizer: calls")
	if assert.NotEmpty(t, events, "failing summarizer: events") {
		assert.Equal(t, "context_compression_failed", events[0].Name, "failing summarizer: first event")
	}
}

// TestPrepareRefusesMalformedStructure: UNIT-2 names budget.prepare among
// the operations that MUST refuse a malformed tool structure, on every path
// — under 80 % (not passed on unchanged), between 80 % and 95 % and above
// 95 % (the summarizer is never called on it).
func TestPrepareRefusesMalformedStructure(t *testing.T) {
	orphan, err := message.Parse([]byte(`{"role":"tool","tool_call_id":"c1","content":"r"}`))
	require.NoError(t, err)
	for _, c := range []struct {
		name  string
		limit int
	}{{"under 80%", 1_000}, {"80% to 95%", 40}, {"above 95%", 10}} {
		limits, _ := NewLimits(map[string]int{"m": c.limit})
		s := &replies{reply: "S"}
		msgs := []message.Message{orphan, words(t, "user", 15), words(t, "user", 20)}
		require.Equal(t, 37, Count(msgs))
		out, events, err := Prepare(context.Background(), msgs, "m", limits, s)
		assert.ErrorIs(t, err, message.ErrInvalid, "%s: a tool result without its call", c.name)
		assert.Nil(t, out, "%s: messages", c.name)
		assert.Empty(t, events, "%s: events", c.name)
		assert.Zero(t, s.calls, "%s: summarizer calls", c.name)
	}
}
