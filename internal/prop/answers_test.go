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
	assert.LessOrEqual(t, full.bytes, maxAnswerBytes)
}
