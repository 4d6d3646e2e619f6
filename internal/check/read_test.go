package check

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// records reads text as the file f and returns each record as
// "WHERE BODY" or "WHERE error: ERR".
func records(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	require.NoError(t, Read("f", strings.NewReader(text), func(r Record) {
		if r.Err != nil {
			out = append(out, r.Where()+" error: "+r.Err.Error())
			return
		}
		out = append(out, r.Where()+" "+string(r.Body))
	}))
	return out
}

// TestReadLayouts: each layout of D-57 is told from the text, and a
// record that cannot be read is reported in its place without ending the
// file where the layout allows going on.
func TestReadLayouts(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"json lines, blank lines and a last line without newline", "{\"a\":1}\n\n  \n{\"b\":2}",
			[]string{`f:1 {"a":1}`, `f:4 {"b":2}`}},
		{"a bad line in the middle", "{\"a\":1}\n{\"a\":\n{\"c\":3}\n",
			[]string{`f:1 {"a":1}`, `f:2 error: not valid JSON: unexpected end of JSON input (at byte 5)`, `f:3 {"c":3}`}},
		{"a byte order mark", "\xef\xbb\xbf{\"a\":1}\n", []string{`f:1 {"a":1}`}},
		{"an array", `[{"a":1}, {"b":2}]`, []string{`f [0] {"a":1}`, `f [1] {"b":2}`}},
		{"an array cut short", `[{"a":1}, {"b":`, []string{`f [0] {"a":1}`, `f [1] error: not valid JSON, the rest of the file is skipped: unexpected EOF`}},
		{"a pretty-printed body", "{\n  \"model\": \"m\",\n  \"messages\": []\n}\n", []string{`f {"model":"m","messages":[]}`}},
		{"a HAR file", "{\n\"log\": {\"version\": \"1.2\", \"entries\": [\n" +
			`{"request": {"method": "GET", "url": "u"}},` +
			`{"request": {"method": "POST", "postData": {"text": "not json"}}},` +
			`{"request": {"method": "POST", "postData": {"text": "{\"messages\":[]}"}}}` + "]}}",
			[]string{`f entries[2] {"messages":[]}`}},
		{"a HAR file with entries of the wrong shape", "{\n\"log\": {\"entries\": [1, {\"request\": {\"postData\": {\"text\": 5}}}, {\"request\": {\"postData\": {\"text\": \"{}\"}}}]}}",
			[]string{`f entries[0] error: not a HAR entry: the entry is a JSON number, not an object`,
				`f entries[1] error: not a HAR entry: the entry's request.postData.text is a JSON number`,
				`f entries[2] {}`}},
		{"an empty file", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, records(t, tc.text))
		})
	}
}

// TestDetectFormat: the format is read from the markers of D-57, and a
// declared format makes the other's tool members a mixed request (ACC-8).
func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		body, declared, want string
		mixedAt              int
	}{
		{`{"messages":[{"role":"user","content":"hi"}]}`, "", FormatEither, -1},
		{`{"messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}]}`, "", FormatOpenAI, -1},
		{`{"system":"s","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi"}]}`, "", FormatAnthropic, -1},
		{`{"system":[],"messages":[{"role":"user","content":"hi"}]}`, "", FormatEither, -1},
		{`{"messages":[{"role":"tool","tool_call_id":"a","content":"x"}]}`, "", FormatOpenAI, -1},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]}`, "", FormatAnthropic, -1},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]},{"role":"tool","tool_call_id":"a"}]}`, "", formatMixed, 1},
		{`{"messages":[{"role":"developer","content":"d"}]}`, FormatAnthropic, formatMixed, 0},
		{`{"messages":[{"role":"user","content":[{"type":"tool_use","id":"a"}]}]}`, FormatOpenAI, formatMixed, 0},
		{`{"messages":[{"role":"user","content":"hi"}]}`, FormatAnthropic, FormatAnthropic, -1},
	} {
		r, err := parseRequest([]byte(tc.body), tc.declared)
		require.NoError(t, err, tc.body)
		assert.Equal(t, tc.want, r.format, "%s declared %q", tc.body, tc.declared)
		assert.Equal(t, tc.mixedAt, r.mixedAt, "%s declared %q", tc.body, tc.declared)
	}
}

// TestBodyPointer: -body picks the body out of a log record, and a string
// there is the body's JSON text.
func TestBodyPointer(t *testing.T) {
	c := New(Options{Body: Pointer{"request", "body"}})
	got := c.Add(Record{File: "log", Line: 1, Element: -1, Body: []byte(`{"request":{"body":"{\"messages\":[]}"}}`)})
	require.Len(t, got, 1)
	assert.Equal(t, "ACC-9", got[0].Clause)
	got = c.Add(Record{File: "log", Line: 2, Element: -1, Body: []byte(`{"request":{}}`)})
	require.Len(t, got, 1)
	assert.Equal(t, "log:2: -body: the record has no value at /request/body", got[0].String())
	p, err := ParsePointer("/a~1b/~0c/0")
	require.NoError(t, err)
	assert.Equal(t, Pointer{"a/b", "~c", "0"}, p)
	v, ok := p.Get([]byte(`{"a/b":{"~c":[7]}}`))
	assert.True(t, ok)
	assert.Equal(t, "7", string(v))
}

// TestResults: one result a case, every case every time; a failed one
// counts its requests and findings and lists at most Examples of them.
func TestResults(t *testing.T) {
	c := New(Options{Examples: 2})
	for i := 1; i <= 3; i++ {
		c.Add(Record{File: "log", Line: i, Element: -1, Body: []byte(`{"messages":[]}`)})
	}
	c.Add(Record{File: "log", Line: 4, Element: -1, Err: assert.AnError})
	rs := c.Results()
	require.Len(t, rs, len(Clauses())+1)
	byID := map[string]string{}
	for _, r := range rs {
		byID[r.ID] = string(r.Outcome) + " " + r.Detail
	}
	assert.Equal(t, "failed 3 requests break ACC-9 (3 findings); the first 2:\n"+
		"log:1 request: \"messages\" is empty (ACC-9) — fix: send at least one message: a trim to nothing cannot be sent\n"+
		"log:2 request: \"messages\" is empty (ACC-9) — fix: send at least one message: a trim to nothing cannot be sent", byID["check/ACC-9"])
	assert.Equal(t, "failed 1 record could not be read as a request:\nlog:4: "+assert.AnError.Error(), byID[ReadCaseID])
	assert.Equal(t, "passed ", byID["check/ACC-1"])
	assert.Equal(t, 3, c.Requests)
	assert.Equal(t, 1, c.Unreadable)
}
