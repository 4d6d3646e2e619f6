package tokens

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer/codec"
)

// goldenTokens is testdata/golden/tokens/cl100k_base.json, written by
// testdata/golden/gen/tokens/gen.mjs with npm tiktoken as the oracle.
type goldenTokens struct {
	Description string            `json:"description"`
	GeneratedBy string            `json:"generated_by"`
	Encoding    string            `json:"encoding"`
	Cases       []goldenTokenCase `json:"cases"`
}

type goldenTokenCase struct {
	ID          string  `json:"id"`
	Description string  `json:"description"`
	Recipe      *recipe `json:"recipe"`
	Text        *string `json:"text"`
	Tokens      []int   `json:"tokens"`
	Count       *int    `json:"count"`
	SHA256      string  `json:"sha256"`
}

// recipe is a generated text; gen.mjs documents the kinds.
type recipe struct {
	Kind     string `json:"kind"`
	Unit     string `json:"unit"`
	Count    int    `json:"count"`
	Prefix   string `json:"prefix"`
	Suffix   string `json:"suffix"`
	Alphabet string `json:"alphabet"`
	Length   int    `json:"length"`
	Seed     uint32 `json:"seed"`
}

func (r recipe) text() (string, error) {
	switch r.Kind {
	case "repeat":
		return r.Prefix + strings.Repeat(r.Unit, r.Count) + r.Suffix, nil
	case "random":
		if r.Alphabet == "" || r.Seed == 0 {
			return "", fmt.Errorf("random recipe without alphabet or seed")
		}
		return xorshiftString(r.Alphabet, r.Length, r.Seed), nil
	}
	return "", fmt.Errorf("unknown recipe kind %q", r.Kind)
}

// xorshiftString draws length code points of alphabet with the 32-bit
// xorshift generator, exactly as gen.mjs does.
func xorshiftString(alphabet string, length int, seed uint32) string {
	points := []rune(alphabet)
	x := seed
	var b strings.Builder
	b.Grow(length)
	for range length {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteRune(points[uint64(x)*uint64(len(points))>>32])
	}
	return b.String()
}

// idsSHA256 is the digest of the golden file: the SHA-256, in lower-case
// hex, of the ids in decimal joined by ",".
func idsSHA256(ids []int) string {
	h := sha256.New()
	var buf []byte
	for i, id := range ids {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		h.Write(strconv.AppendInt(buf, int64(id), 10))
	}
	return hex.EncodeToString(h.Sum(nil))
}

const goldenTokensPath = "../../testdata/golden/tokens/cl100k_base.json"

// TestGoldenTokens checks every golden case exactly: all ids, or the count
// and the digest of the ids for a long generated text.
func TestGoldenTokens(t *testing.T) {
	golden := readGoldenTokens(t)
	for _, c := range golden.Cases {
		t.Run(c.ID, func(t *testing.T) {
			text, err := c.text()
			require.NoError(t, err, c.ID)
			require.NotNil(t, c.Count, "%s: the case has no count", c.ID)
			got := Encode(text)
			switch {
			case c.Tokens != nil || c.Text != nil:
				require.Equal(t, *c.Count, len(c.Tokens), "%s: the count of the case, and its tokens", c.ID)
				// slices.Equal, not assert.Equal: the empty text's golden
				// tokens are [] and Encode gives nil; and excerpts, for texts
				// and ids of thousands.
				if !slices.Equal(got, c.Tokens) {
					t.Errorf("%s: Encode(%s)\n  got:  %s\n  want: %s\n  %s",
						c.ID, excerpt(text), excerptIDs(got), excerptIDs(c.Tokens), firstDifference(got, c.Tokens))
				}
			case c.SHA256 != "":
				if len(got) != *c.Count || idsSHA256(got) != c.SHA256 {
					t.Errorf("%s: Encode(%s)\n  got:  %d tokens, SHA-256 %s\n  want: %d tokens, SHA-256 %s",
						c.ID, excerpt(text), len(got), idsSHA256(got), *c.Count, c.SHA256)
				}
			default:
				t.Fatalf("%s: the case has neither tokens nor sha256", c.ID)
			}
			assert.Equal(t, *c.Count, Count(text), "%s: Count(%s)", c.ID, excerpt(text))
		})
	}
}

// TestV070AgainstGolden records where tiktoken-go v0.7.0, whose vocabulary
// and pattern this package starts from, disagrees with npm tiktoken on the
// golden cases: exactly on the characters that Unicode 15.1 and 16.0 added.
func TestV070AgainstGolden(t *testing.T) {
	golden := readGoldenTokens(t)
	c := codec.NewCl100kBase()
	var disagree []string
	for _, gc := range golden.Cases {
		if gc.Text == nil || len(*gc.Text) > 20_000 { // v0.7.0 is quadratic on long pieces
			continue
		}
		ids, _, err := c.Encode(*gc.Text)
		require.NoError(t, err)
		got := make([]int, len(ids))
		for i, id := range ids {
			got[i] = int(id)
		}
		if !slices.Equal(got, gc.Tokens) {
			disagree = append(disagree, gc.ID)
		}
	}
	want := []string{"tok-unicode-16-garay", "tok-unicode-16-kirat-rai-digits", "tok-unicode-16-egyptian-hieroglyphs", "tok-unicode-15-1-cjk-extension-i", "tok-unicode-16-latin-extended-d"}
	assert.ElementsMatch(t, want, disagree, "the cases where v0.7.0 disagrees with npm tiktoken")
}

func readGoldenTokens(t *testing.T) goldenTokens {
	t.Helper()
	data, err := os.ReadFile(goldenTokensPath)
	require.NoError(t, err, "reading the golden file (regenerate it with node testdata/golden/gen/tokens/gen.mjs)")
	var golden goldenTokens
	require.NoError(t, json.Unmarshal(data, &golden), goldenTokensPath)
	require.Equal(t, "cl100k_base", golden.Encoding, "%s: encoding", goldenTokensPath)
	assert.GreaterOrEqual(t, len(golden.Cases), 60, "%s: cases", goldenTokensPath)
	seen := make(map[string]bool, len(golden.Cases))
	for _, c := range golden.Cases {
		assert.False(t, seen[c.ID], "%s: duplicate case id %q", goldenTokensPath, c.ID)
		seen[c.ID] = true
	}
	return golden
}

func (c goldenTokenCase) text() (string, error) {
	switch {
	case c.Text != nil:
		return *c.Text, nil
	case c.Recipe != nil:
		return c.Recipe.text()
	}
	return "", fmt.Errorf("the case has neither text nor recipe")
}

// excerpt quotes text, shortened to its first and last characters when long.
func excerpt(text string) string {
	if utf8.RuneCountInString(text) <= 80 {
		return strconv.Quote(text)
	}
	rs := []rune(text)
	return fmt.Sprintf("%s…%s (%d bytes)", strconv.Quote(string(rs[:50])), strconv.Quote(string(rs[len(rs)-20:])), len(text))
}

// excerptIDs prints ids, shortened when there are many.
func excerptIDs(ids []int) string {
	if len(ids) <= 40 {
		return fmt.Sprint(ids)
	}
	return fmt.Sprintf("%v … %v (%d ids)", ids[:30], ids[len(ids)-5:], len(ids))
}
