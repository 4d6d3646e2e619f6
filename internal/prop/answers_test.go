package prop

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An answer is kept and given again; an error is not kept; a nil store
// asks every time; past its bound a store keeps nothing more.
func TestAsk(t *testing.T) {
	asked := 0
	ask := func(v string, err error) func() (string, error) {
		return func() (string, error) { asked++; return v, err }
	}
	size := func(s string) int { return len(s) }

	a := NewAnswers()
	got, err := Ask(a, "q", size, ask("first", nil))
	require.NoError(t, err)
	got2, err := Ask(a, "q", size, ask("second", nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "first"}, []string{got, got2})
	assert.Equal(t, 1, asked)

	asked = 0
	_, err = Ask(a, "e", size, ask("", errors.New("crashed")))
	require.Error(t, err)
	got, err = Ask(a, "e", size, ask("answered", nil))
	require.NoError(t, err)
	assert.Equal(t, "answered", got)
	assert.Equal(t, 2, asked, "an error was kept as the answer")

	asked = 0
	for range 2 {
		_, _ = Ask[string](nil, "q", size, ask("x", nil))
	}
	assert.Equal(t, 2, asked)

	asked = 0
	full := NewAnswers()
	big := strings.Repeat("x", maxAnswerBytes/2)
	for _, q := range []string{"a", "b", "c", "c"} {
		_, _ = Ask(full, q, size, ask(big, nil))
	}
	assert.Equal(t, 4, asked, "a store past its bound kept an answer") // a is kept; b and c would pass the bound
	assert.LessOrEqual(t, full.store.bytes, maxAnswerBytes)
}

// asker is a worker running case, whose last call sent request id.
type asker struct {
	running string
	id      int64
}

func (a *asker) Asking() string    { return a.running }
func (a *asker) LastSent() Request { return Request{Worker: a, ID: a.id} }

// The store names, for the request that got a kept answer, every other
// case that took it, once each, in the order they took it; never its
// sender, never a question it did not keep.
func TestTakers(t *testing.T) {
	size := func(s string) int { return len(s) }
	answer := func() (string, error) { return "answer", nil }
	store := NewAnswers()
	w1 := &asker{running: "A", id: 7}
	w2 := &asker{running: "B"}
	a1, a2 := store.For(w1), store.For(w2)

	_, _ = Ask(a1, "q", size, answer) // A sends request 7
	_, _ = Ask(a1, "q", size, answer) // A again: its own answer
	_, _ = Ask(a2, "q", size, answer) // B takes it
	w2.running = "C"
	_, _ = Ask(a2, "q", size, answer) // C takes it
	w2.running = "B"
	_, _ = Ask(a2, "q", size, answer) // B again: named once
	_, _ = Ask(store, "q", size, answer)

	assert.Equal(t, []string{"B", "C"}, store.Takers(Request{Worker: w1, ID: 7}))
	assert.Empty(t, store.Takers(Request{Worker: w1, ID: 8}), "a request that got no kept answer")
	w2.id = 9
	_, _ = Ask(a2, "e", size, func() (string, error) { return "", errors.New("crashed") })
	assert.Empty(t, store.Takers(Request{Worker: w2, ID: 9}), "an error is kept for no one")
}
