package message_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
)

// goldenCharacters is testdata/golden/characters.json, written by
// testdata/golden/gen/characters.mjs with ECMAScript as the oracle.
type goldenCharacters struct {
	Description string       `json:"description"`
	GeneratedBy string       `json:"generated_by"`
	Cases       []goldenCase `json:"cases"`
}

type goldenCase struct {
	ID          string  `json:"id"`
	Clause      string  `json:"clause"`
	Description string  `json:"description"`
	ContentJSON *string `json:"content_json"` // nil: the content member is absent
	Kind        string  `json:"kind"`
	Serialized  *string `json:"serialized"`
	Length      *int    `json:"length"`
}

const goldenCharactersPath = "../../testdata/golden/characters.json"

// TestGoldenCharacters checks that the Go counting agrees, case by case, with
// the counts ECMAScript computed (EST-2, EST-3, EST-4).
func TestGoldenCharacters(t *testing.T) {
	data, err := os.ReadFile(goldenCharactersPath)
	require.NoError(t, err, "reading the golden file (regenerate it with node testdata/golden/gen/characters.mjs)")
	var golden goldenCharacters
	require.NoError(t, json.Unmarshal(data, &golden), goldenCharactersPath)
	assert.GreaterOrEqual(t, len(golden.Cases), 40, "%s: cases", goldenCharactersPath)
	seen := make(map[string]bool, len(golden.Cases))
	for _, c := range golden.Cases {
		assert.False(t, seen[c.ID], "%s: duplicate case id %q", goldenCharactersPath, c.ID)
		seen[c.ID] = true
	}

	for _, c := range golden.Cases {
		t.Run(c.ID, func(t *testing.T) {
			require.NotNil(t, c.Length, "%s: the case has no length", c.ID)
			want := *c.Length
			var content []byte // nil: absent
			input := "(absent)"
			if c.ContentJSON != nil {
				content = []byte(*c.ContentJSON)
				input = "content_json " + *c.ContentJSON
			}

			switch c.Kind {
			case "absent_or_null", "string":
				assert.Nil(t, c.Serialized, "%s: kind %q must not carry serialized", c.ID, c.Kind)
			case "serialized":
				require.NotNil(t, c.Serialized, "%s: kind serialized without serialized", c.ID)
				got, err := message.Compact(content)
				if assert.NoError(t, err, "%s: Compact(%s)", c.ID, input) {
					assert.Equal(t, *c.Serialized, got, "%s: Compact(%s)", c.ID, input)
				}
			default:
				t.Fatalf("%s: unknown kind %q", c.ID, c.Kind)
			}

			got, err := message.ContentLength(content)
			if assert.NoError(t, err, "%s: ContentLength(%s)", c.ID, input) {
				assert.Equal(t, want, got, "%s: ContentLength(%s)", c.ID, input)
			}

			// The same content inside a message, through Parse and the
			// method that the window uses.
			raw := `{"role":"user"}`
			if c.ContentJSON != nil {
				raw = `{"role":"user","content":` + *c.ContentJSON + `}`
			}
			m, err := message.Parse([]byte(raw))
			require.NoError(t, err, "%s: Parse(%s)", c.ID, raw)
			assert.Equal(t, want, m.ContentLength(), "%s: Parse(%s).ContentLength()", c.ID, raw)
		})
	}
}
