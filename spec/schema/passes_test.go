package schema

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/internal/jsonscan"
)

// TestSamplesPass: every sample result (testdata/results.json) is valid,
// and judged valid as written.
func TestSamplesPass(t *testing.T) {
	b, err := os.ReadFile("testdata/results.json")
	require.NoError(t, err)
	members, _ := jsonscan.SplitObject(b)
	methods, err := Methods()
	require.NoError(t, err)
	assert.Len(t, members, len(methods), "a sample of every method")
	for _, m := range members {
		method := string(m.Name)
		assert.NoError(t, Result(method, m.Value), method)
		assert.True(t, quick(method), "%s: a keyword ResultPasses does not know", method)
		assert.True(t, ResultPasses(method, m.Value), method)
	}
}

// TestResultPassesKnowsItsKeywords: a schema with a keyword ResultPasses
// does not read is never judged by it, so that a keyword added to
// protocol.schema.json cannot be passed over (D-89); the ones it reads are.
func TestResultPassesKnowsItsKeywords(t *testing.T) {
	for _, tc := range []struct {
		schema string
		known  bool
		doc    string
		passes bool
	}{
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","minimum":0,"maximum":3}}}`, true, `{"a":3}`, true},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","minimum":0,"maximum":3}}}`, true, `{"a":4}`, false},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"integer","minimum":0,"maximum":3}}}`, true, `{"b":1}`, false},
		{`{"type":"array","items":{"type":"string"}}`, true, `["x",1]`, false},
		{`{"type":"array","items":{"type":"string"}}`, true, `["x"]`, true},
		{`{"type":"string","minLength":1}`, false, `"x"`, false},
		{`{"type":"object","additionalProperties":false}`, false, `{}`, false},
		{`{"const":"2.0"}`, false, `"2.0"`, false},
		{`{"enum":["a"]}`, false, `"a"`, false},
		{`{"type":"array","items":{"pattern":"^a"}}`, false, `[]`, true},
		{`{"type":"array","items":{"pattern":"^a"}}`, false, `["b"]`, false},
		{`{"type":"integer","multipleOf":2}`, false, `2`, false},
		{`{"type":"number","minimum":0.5}`, false, `1`, false},
		{`{"oneOf":[{"type":"string"}]}`, false, `"a"`, false},
	} {
		c := jsonschema.NewCompiler()
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.schema))
		require.NoError(t, err)
		require.NoError(t, c.AddResource("s.json", doc))
		sch, err := c.Compile("s.json")
		require.NoError(t, err)
		q := quickOf(sch, map[*jsonschema.Schema]*quickSchema{}, nil)
		assert.Equal(t, tc.known, q.known(), tc.schema)
		assert.Equal(t, tc.passes, q.passes([]byte(tc.doc)), "%s on %s", tc.schema, tc.doc)
	}
}

// FuzzResultPasses: of a valid JSON text, ResultPasses says true only
// where ResultValue accepts its tree, for every method (D-89); it never
// panics.
func FuzzResultPasses(f *testing.F) {
	b, err := os.ReadFile("testdata/results.json")
	if err != nil {
		f.Fatal(err)
	}
	members, _ := jsonscan.SplitObject(b)
	for _, m := range members {
		f.Add(m.Value)
	}
	for _, seed := range []string{`{"tokens":3.0}`, `{"tokens":-0}`, `{"count":1,"count":"x"}`, `{"\u0074okens":"x"}`, `{"tokens":9007199254740992}`} {
		f.Add([]byte(seed))
	}
	methods, err := Methods()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, m := range methods {
			if !ResultPasses(m, raw) || !json.Valid(raw) {
				continue
			}
			if err := ResultValue(m, jsonscan.Value(raw)); err != nil {
				t.Fatalf("%q as %s: ResultPasses, but ResultValue says %v", raw, m, err)
			}
		}
	})
}
