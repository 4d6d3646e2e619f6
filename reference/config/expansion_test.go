package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExpansionLimitIsByteExact: the 16 MiB of CONF-6 are bytes of the
// document's compact JSON (EST-3), counted as they are written, and the
// error names the value being written when the count passes the limit
// (D-48): the string's member while its text crosses it, the mapping when
// only its closing brace does.
func TestExpansionLimitIsByteExact(t *testing.T) {
	const frame = len(`{"a":""}`)
	for _, c := range []struct {
		extra int // bytes beyond 16 MiB
		path  string
		ok    bool
	}{{0, "", true}, {1, "", false}, {2, "a", false}} {
		text := "a: " + strings.Repeat("x", maxExpanded-frame+c.extra) + "\n"
		_, err := Resolve([]byte(text), YAML)
		if c.ok {
			assert.NoError(t, err, "extra %d", c.extra)
			continue
		}
		var e *Error
		if assert.True(t, errors.As(err, &e), "extra %d: want a refusal, got %v", c.extra, err) {
			assert.Equal(t, c.path, e.Path, "extra %d", c.extra)
		}
	}
}

// TestExpansionPathOfMultiplyingAliases: the "billion laughs" fails at the
// element where the exact count passes 16 MiB, the path an implementation
// written from spec/ alone found too (D-48).
func TestExpansionPathOfMultiplyingAliases(t *testing.T) {
	lines := []string{"a: &a [1,2,3,4,5,6,7,8,9,10]"}
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g"} {
		lines = append(lines, name+": &"+name+" ["+strings.TrimSuffix(strings.Repeat("*"+prev+",", 10), ",")+"]")
		prev = name
	}
	lines = append(lines, "h: ["+strings.TrimSuffix(strings.Repeat("*g,", 10), ",")+"]")
	_, err := Resolve([]byte(strings.Join(lines, "\n")), YAML)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "g[6][1][1][3][5][1][6]", e.Path)
}

// TestNonSpecificTagPlaces: the places of the non-specific tag are found as
// the parser counts lines and columns (characters, CR LF as one break, a
// leading byte-order mark not counted), before an anchor or after one, and a
// "!" that begins another tag is not one.
func TestNonSpecificTagPlaces(t *testing.T) {
	for _, c := range []struct {
		text string
		want []position
	}{
		{"a: ! 5", []position{{1, 4}}},
		{"\ufeffé: {b: ! 5}", []position{{1, 8}}},
		{"x: &a ! 5", []position{{1, 4}, {1, 7}}},
		{"x:\r\n  - ! 7\r\n  - !!int 8", []position{{2, 5}}},
		{"x: !!str 5\ny: !foo 6\nz: [!, 1]", []position{{3, 5}}},
	} {
		got := nonSpecificTags([]byte(c.text))
		assert.Len(t, got, len(c.want), "%q: %v", c.text, got)
		for _, p := range c.want {
			assert.True(t, got[p], "%q: %v not found in %v", c.text, p, got)
		}
	}
}
