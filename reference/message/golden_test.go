package message_test

import (
	"encoding/json"
	"os"
	"testing"

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
	if err != nil {
		t.Fatalf("reading the golden file (regenerate it with node testdata/golden/gen/characters.mjs): %v", err)
	}
	var golden goldenCharacters
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatalf("%s: %v", goldenCharactersPath, err)
	}
	if len(golden.Cases) < 40 {
		t.Errorf("%s has %d cases, want at least 40", goldenCharactersPath, len(golden.Cases))
	}
	seen := make(map[string]bool, len(golden.Cases))
	for _, c := range golden.Cases {
		if seen[c.ID] {
			t.Errorf("%s: duplicate case id %q", goldenCharactersPath, c.ID)
		}
		seen[c.ID] = true
	}

	for _, c := range golden.Cases {
		t.Run(c.ID, func(t *testing.T) {
			if c.Length == nil {
				t.Fatalf("%s: the case has no length", c.ID)
			}
			want := *c.Length
			var content []byte // nil: absent
			input := "(absent)"
			if c.ContentJSON != nil {
				content = []byte(*c.ContentJSON)
				input = "content_json " + *c.ContentJSON
			}

			switch c.Kind {
			case "absent_or_null", "string":
				if c.Serialized != nil {
					t.Errorf("%s: kind %q must not carry serialized", c.ID, c.Kind)
				}
			case "serialized":
				if c.Serialized == nil {
					t.Fatalf("%s: kind serialized without serialized", c.ID)
				}
				got, err := message.Compact(content)
				if err != nil {
					t.Errorf("%s: Compact(%s)\n  returned error: %v\n  want: %s", c.ID, input, err, *c.Serialized)
				} else if got != *c.Serialized {
					t.Errorf("%s: Compact(%s)\n  got:  %s\n  want: %s", c.ID, input, got, *c.Serialized)
				}
			default:
				t.Fatalf("%s: unknown kind %q", c.ID, c.Kind)
			}

			got, err := message.ContentLength(content)
			if err != nil {
				t.Errorf("%s: ContentLength(%s)\n  returned error: %v\n  want: %d", c.ID, input, err, want)
			} else if got != want {
				t.Errorf("%s: ContentLength(%s)\n  got:  %d\n  want: %d", c.ID, input, got, want)
			}

			// The same content inside a message, through Parse and the
			// method that the window uses.
			raw := `{"role":"user"}`
			if c.ContentJSON != nil {
				raw = `{"role":"user","content":` + *c.ContentJSON + `}`
			}
			m, err := message.Parse([]byte(raw))
			if err != nil {
				t.Fatalf("%s: Parse(%s) returned error: %v", c.ID, raw, err)
			}
			if got := m.ContentLength(); got != want {
				t.Errorf("%s: Parse(%s).ContentLength()\n  got:  %d\n  want: %d", c.ID, raw, got, want)
			}
		})
	}
}
