package tokenvectors

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/tokens"
)

// TestCorpusHoldsTheGoldenCases: every golden case with a text is in the
// corpus with the same ids, so that conform checks them.
func TestCorpusHoldsTheGoldenCases(t *testing.T) {
	c, err := Load()
	require.NoError(t, err)
	raw, err := os.ReadFile("../../testdata/golden/tokens/cl100k_base.json")
	require.NoError(t, err)
	var golden struct {
		Cases []struct {
			ID     string  `json:"id"`
			Text   *string `json:"text"`
			Tokens []int   `json:"tokens"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &golden))
	byID := map[string]Case{}
	for _, k := range c.Cases {
		byID[k.ID] = k
	}
	n := 0
	for _, g := range golden.Cases {
		if g.Text == nil {
			continue
		}
		n++
		k, ok := byID[g.ID]
		require.True(t, ok, "golden case %s is not in the corpus: run make token-vectors", g.ID)
		require.Equal(t, *g.Text, k.Text, g.ID)
		require.Equal(t, g.Tokens, k.Tokens, g.ID)
	}
	require.Greater(t, len(c.Cases), n+2000, "the corpus holds the golden cases and a few thousand generated texts")
}

// TestReferenceAgrees: the reference tokenizer gives every text its ids
// (what conform checks of an implementation, here of the reference).
func TestReferenceAgrees(t *testing.T) {
	c, err := Load()
	require.NoError(t, err)
	bad := 0
	for _, k := range c.Cases {
		if got := tokens.Encode(k.Text); !slices.Equal(got, k.Tokens) {
			bad++
			if bad < 5 {
				t.Errorf("%s %q: got %v, want %v", k.ID, k.Text, got, k.Tokens)
			}
		}
	}
	require.Zero(t, bad, "texts whose ids differ")
	require.Equal(t, c.RoleUserTokens, len(tokens.Encode("user")))
}
