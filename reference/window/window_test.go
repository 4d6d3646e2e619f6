package window_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

func conversation(t *testing.T, n int) []message.Message {
	t.Helper()
	msgs := make([]message.Message, n)
	for i := range msgs {
		m, err := message.New("user", fmt.Sprintf("m%d", i+1))
		require.NoError(t, err)
		msgs[i] = m
	}
	return msgs
}

// Trim must not modify its input or share its backing array (MSG-3).
func TestTrimIsPure(t *testing.T) {
	w, err := window.New(window.Config{MaxMessages: 5, PreserveFirstN: 1, PreserveLastN: 2})
	require.NoError(t, err)
	in := conversation(t, 12)
	before, _ := json.Marshal(in)
	res, err := w.Trim(in)
	require.NoError(t, err)
	after, _ := json.Marshal(in)
	require.JSONEq(t, string(before), string(after))

	res.Trimmed[0] = in[5]
	res.Evicted[0] = in[9]
	again, _ := json.Marshal(in)
	require.JSONEq(t, string(before), string(again), "the result shares memory with the input")
}

func TestPlan(t *testing.T) {
	for _, c := range []struct {
		cfg  window.Config
		n    int
		want window.Plan
	}{
		{window.Config{MaxMessages: 5, PreserveFirstN: 1, PreserveLastN: 2}, 8, window.Plan{N: 8, HeadEnd: 1, KeepFrom: 4, TailStart: 6}},
		{window.Config{MaxMessages: 5, PreserveFirstN: 1, PreserveLastN: 2}, 5, window.Plan{N: 5, HeadEnd: 5, KeepFrom: 5, TailStart: 5}},
		{window.Config{MaxMessages: 0, PreserveFirstN: 1, PreserveLastN: 2}, 50, window.Plan{N: 50, HeadEnd: 50, KeepFrom: 50, TailStart: 50}},
		{window.Config{MaxMessages: 5, PreserveFirstN: 3, PreserveLastN: 4}, 6, window.Plan{N: 6, HeadEnd: 3, KeepFrom: 3, TailStart: 3, HeadOnly: true}},
		{window.Config{MaxMessages: 4, PreserveFirstN: 1, PreserveLastN: 0}, 10, window.Plan{N: 10, HeadEnd: 1, KeepFrom: 7, TailStart: 10}},
	} {
		require.Equal(t, c.want, c.cfg.Plan(singles(c.n)), "%+v n=%d", c.cfg, c.n)
	}
}

func TestParseConfig(t *testing.T) {
	cfg, err := window.ParseConfig([]byte(`{"max_messages": 3.0, "preserve_last_n": null}`))
	require.NoError(t, err)
	require.Equal(t, window.Config{MaxMessages: 3, PreserveFirstN: 1, PreserveLastN: 20}, cfg)

	for doc, field := range map[string]string{
		`{"max_messages": -1}`:        "max_messages",
		`{"preserve_first_n": 1.5}`:   "preserve_first_n",
		`{"summarize_on_trim": "no"}`: "summarize_on_trim",
		`{"preserve_last": 5}`:        "preserve_last",
		`[1]`:                         "",
	} {
		_, err := window.ParseConfig([]byte(doc))
		require.Error(t, err, doc)
		require.True(t, errors.Is(err, window.ErrInvalidConfig), doc)
		var ce *window.ConfigError
		require.True(t, errors.As(err, &ce), doc)
		require.Equal(t, field, ce.Field, doc)
	}
	_, err = window.New(window.Config{MaxMessages: 10, PreserveLastN: -1})
	require.ErrorIs(t, err, window.ErrInvalidConfig)
}

func TestDefaultsAndWarnings(t *testing.T) {
	require.Equal(t, window.Config{MaxMessages: 100, PreserveFirstN: 1, PreserveLastN: 20}, window.DefaultConfig())
	require.Empty(t, window.DefaultConfig().Warnings())
	w := window.Config{MaxMessages: 10, PreserveFirstN: 3, PreserveLastN: 7}.Warnings()
	require.Len(t, w, 1)
	require.Equal(t, window.CodePreserveExceedsMax, w[0].Code)
	require.Empty(t, window.Config{MaxMessages: 0, PreserveFirstN: 3, PreserveLastN: 7}.Warnings())
}

func singles(n int) []message.Unit {
	us := make([]message.Unit, n)
	for i := range us {
		us[i] = message.Unit{Start: i, End: i + 1}
	}
	return us
}

// With tool-call units, every cut moves to a unit boundary (WIN-9).
func TestPlanKeepsUnitsWhole(t *testing.T) {
	// units: [0] [1 2 3] [4] [5 6] [7] [8 9 10] [11]
	units := []message.Unit{{Start: 0, End: 1}, {Start: 1, End: 4}, {Start: 4, End: 5}, {Start: 5, End: 7}, {Start: 7, End: 8}, {Start: 8, End: 11}, {Start: 11, End: 12}}
	for _, c := range []struct {
		cfg  window.Config
		want window.Plan
	}{
		// head of 2 ends inside [1 2 3]: it grows to 4; tail of 3 starts inside [8 9 10]: it grows to 8.
		{window.Config{MaxMessages: 10, PreserveFirstN: 2, PreserveLastN: 3}, window.Plan{N: 12, HeadEnd: 4, KeepFrom: 7, TailStart: 8}},
		// keep_middle 2 would start inside [5 6]: only [7] is kept.
		{window.Config{MaxMessages: 7, PreserveFirstN: 1, PreserveLastN: 4}, window.Plan{N: 12, HeadEnd: 1, KeepFrom: 7, TailStart: 8}},
		// the grown head and tail fill the cap: WIN-3.
		{window.Config{MaxMessages: 8, PreserveFirstN: 2, PreserveLastN: 3}, window.Plan{N: 12, HeadEnd: 4, KeepFrom: 8, TailStart: 8, HeadOnly: true}},
	} {
		require.Equal(t, c.want, c.cfg.Plan(units), "%+v", c.cfg)
	}
}

func BenchmarkTrim(b *testing.B) {
	for _, n := range []int{100, 1_000, 10_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			msgs := make([]message.Message, n)
			for i := range msgs {
				msgs[i], _ = message.New("user", fmt.Sprintf("message number %d with some text", i))
			}
			w, _ := window.New(window.DefaultConfig())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := w.Trim(msgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
