package message_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/message"
)

func TestParseAccepts(t *testing.T) {
	tests := []struct {
		name        string
		input       string
		wantRaw     string // MarshalJSON: the input, trimmed of surrounding white space
		wantRole    string
		wantContent *string // nil: content absent
	}{
		{
			name:        "minimal user message",
			input:       `{"role":"user","content":"hi"}`,
			wantRaw:     `{"role":"user","content":"hi"}`,
			wantRole:    "user",
			wantContent: ptr(`"hi"`),
		},
		{
			name:     "content absent",
			input:    `{"role":"user"}`,
			wantRaw:  `{"role":"user"}`,
			wantRole: "user",
		},
		{
			name:        "content null and unknown members kept",
			input:       `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}],"x-extra":{"k":[1,2]}}`,
			wantRaw:     `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}],"x-extra":{"k":[1,2]}}`,
			wantRole:    "assistant",
			wantContent: ptr(`null`),
		},
		{
			name:        "exact bytes kept: inner white space, escapes, number spelling, member order",
			input:       " \n\t{ \"z\" : 1.0 , \"role\" : \"us\\u0065r\", \"content\" : [ {\"type\": \"text\", \"text\": \"caf\\u00e9 \\ud83d\\ude00\"} ] }\r\n",
			wantRaw:     "{ \"z\" : 1.0 , \"role\" : \"us\\u0065r\", \"content\" : [ {\"type\": \"text\", \"text\": \"caf\\u00e9 \\ud83d\\ude00\"} ] }",
			wantRole:    "user",
			wantContent: ptr("[ {\"type\": \"text\", \"text\": \"caf\\u00e9 \\ud83d\\ude00\"} ]"),
		},
		{
			name:        "raw non-ASCII and a surrogate pair escape",
			input:       `{"role":"tool","content":"你好 😀 \ud83d\ude00","tool_call_id":"c1"}`,
			wantRaw:     `{"role":"tool","content":"你好 😀 \ud83d\ude00","tool_call_id":"c1"}`,
			wantRole:    "tool",
			wantContent: ptr(`"你好 😀 \ud83d\ude00"`),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := message.Parse([]byte(tt.input))
			require.NoError(t, err)
			assert.Equal(t, tt.wantRole, m.Role())
			raw, err := m.MarshalJSON()
			require.NoError(t, err)
			assert.Equal(t, tt.wantRaw, string(raw), "MarshalJSON must return the input bytes")
			assert.Equal(t, tt.wantRaw, string(m.Raw()))
			if tt.wantContent == nil {
				assert.Nil(t, m.Content(), "absent content")
			} else {
				require.NotNil(t, m.Content())
				assert.Equal(t, *tt.wantContent, string(m.Content()))
			}

			// UnmarshalJSON parses the same way.
			var u message.Message
			require.NoError(t, json.Unmarshal([]byte(tt.input), &u))
			assert.Equal(t, m, u)
		})
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		wantText string // a part of the error text that names the problem
	}{
		{"not JSON", `{"role":`, "not valid JSON"},
		{"not JSON: empty input", ``, "not valid JSON"},
		{"not JSON: trailing garbage", `{"role":"user"} x`, "not valid JSON"},
		{"an array", `[{"role":"user"}]`, "must be a JSON object, got an array"},
		{"a string", `"hi"`, "must be a JSON object, got a string"},
		{"null", `null`, "must be a JSON object, got null"},
		{"missing role", `{"content":"hi"}`, `"role" is missing`},
		{"role a number", `{"role":7}`, `"role" must be a string, got a number`},
		{"role null", `{"role":null}`, `"role" must be a string, got null`},
		{"role a boolean", `{"role":true}`, `"role" must be a string, got a boolean`},
		{"role an object", `{"role":{"name":"user"}}`, `"role" must be a string, got an object`},
		{"empty role", `{"role":""}`, `"role" must not be empty`},
		{"unpaired high surrogate in content", `{"role":"user","content":"a\ud800b"}`, `unpaired surrogate \uD800`},
		{"unpaired high surrogate at the end of content", `{"role":"user","content":"\ud800"}`, `unpaired surrogate \uD800`},
		{"high surrogate followed by a non-surrogate escape", `{"role":"user","content":"\ud800\u0041"}`, `unpaired surrogate \uD800`},
		{"unpaired surrogate in an unknown member", `{"role":"user","meta":{"note":"\ud800"}}`, `unpaired surrogate \uD800`},
		{"unpaired surrogate in a member name", `{"role":"user","\ud800":1}`, `unpaired surrogate \uD800`},
		{"low surrogate alone", `{"role":"user","content":"\udc00"}`, `unpaired surrogate \uDC00`},
		{"surrogates in the wrong order", `{"role":"user","content":"\ude00\ud83d"}`, `unpaired surrogate \uDE00`},
		{"invalid UTF-8 in content", "{\"role\":\"user\",\"content\":\"a\xffb\"}", "invalid UTF-8"},
		{"UTF-8-encoded surrogate", "{\"role\":\"user\",\"content\":\"\xed\xa0\x80\"}", "invalid UTF-8"},
		{"invalid UTF-8 in an unknown member", "{\"role\":\"user\",\"x\":\"\xc3\"}", "invalid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := message.Parse([]byte(tt.input))
			require.Error(t, err, "input %q", tt.input)
			assert.True(t, errors.Is(err, message.ErrInvalid), "errors.Is(%v, ErrInvalid)", err)
			var e *message.Error
			require.True(t, errors.As(err, &e), "error %v is not a *message.Error", err)
			assert.Equal(t, -1, e.Index)
			assert.Contains(t, err.Error(), tt.wantText)
			assert.Contains(t, err.Error(), "message: ")
		})
	}
}

func TestParseListReportsTheFailingIndex(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		wantErr string
	}{
		{
			name:    "missing role at index 2",
			input:   `[{"role":"system","content":"s"},{"role":"user","content":"hi"},{"content":"no role"},{"role":""}]`,
			wantErr: `messages[2]: "role" is missing`,
		},
		{
			name:    "unpaired surrogate at index 2",
			input:   `[{"role":"user"},{"role":"assistant"},{"role":"user","content":"\ud800"}]`,
			wantErr: `messages[2]: unpaired surrogate \uD800`,
		},
		{
			name:    "not an object at index 2",
			input:   `[{"role":"user"},{"role":"assistant"},7]`,
			wantErr: `messages[2]: must be a JSON object, got a number`,
		},
		{
			name:    "the first invalid message is named",
			input:   `[{"role":"user"},{"role":7},{"content":"x"}]`,
			wantErr: `messages[1]: "role" must be a string, got a number`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, err := message.ParseList([]byte(tt.input))
			require.Error(t, err)
			assert.Nil(t, msgs, "no partial result")
			assert.True(t, errors.Is(err, message.ErrInvalid))
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}

	t.Run("not an array", func(t *testing.T) {
		_, err := message.ParseList([]byte(`{"role":"user"}`))
		require.Error(t, err)
		assert.True(t, errors.Is(err, message.ErrInvalid))
		assert.Contains(t, err.Error(), "must be a JSON array")
	})

	t.Run("valid list", func(t *testing.T) {
		msgs, err := message.ParseList([]byte(` [ {"role":"user","content":"hi"} , {"role":"assistant"} ] `))
		require.NoError(t, err)
		require.Len(t, msgs, 2)
		assert.Equal(t, "user", msgs[0].Role())
		assert.Equal(t, `{"role":"assistant"}`, string(msgs[1].Raw()))
		assert.Nil(t, msgs[1].Content())
	})

	t.Run("empty list", func(t *testing.T) {
		msgs, err := message.ParseList([]byte(`[]`))
		require.NoError(t, err)
		assert.Empty(t, msgs)
	})
}

func TestNew(t *testing.T) {
	tests := []struct {
		name        string
		role        string
		content     any
		wantContent *string // nil: absent
		wantLength  int
	}{
		{"string content", "user", "hi", ptr(`"hi"`), 2},
		{"HTML characters are not escaped", "user", "a<b>&c", ptr(`"a<b>&c"`), 6},
		{"nil content is left out", "assistant", nil, nil, 0},
		{"non-BMP content", "user", "😀", ptr(`"😀"`), 2},
		{"block content", "user", []any{map[string]any{"type": "text", "text": "x<y"}}, ptr(`[{"text":"x<y","type":"text"}]`), 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := message.New(tt.role, tt.content)
			require.NoError(t, err)
			assert.Equal(t, tt.role, m.Role())
			if tt.wantContent == nil {
				assert.Nil(t, m.Content())
			} else {
				assert.Equal(t, *tt.wantContent, string(m.Content()))
			}
			assert.Equal(t, tt.wantLength, m.ContentLength())

			// Round trip: what New marshals parses back to the same message.
			raw, err := m.MarshalJSON()
			require.NoError(t, err)
			assert.NotContains(t, string(raw), `\u003c`)
			assert.NotContains(t, string(raw), `\u0026`)
			back, err := message.Parse(raw)
			require.NoError(t, err)
			assert.Equal(t, m, back)
		})
	}

	t.Run("empty role is rejected", func(t *testing.T) {
		_, err := message.New("", "hi")
		require.Error(t, err)
		assert.True(t, errors.Is(err, message.ErrInvalid))
	})
	t.Run("content that cannot be encoded is rejected", func(t *testing.T) {
		_, err := message.New("user", func() {})
		require.Error(t, err)
		assert.True(t, errors.Is(err, message.ErrInvalid))
	})
	t.Run("zero Message", func(t *testing.T) {
		var m message.Message
		_, err := m.MarshalJSON()
		assert.Error(t, err)
		assert.Equal(t, 0, m.ContentLength())
	})
}

// TestFormatNumber: every want was printed by Node 20 with JSON.stringify(x)
// (which is String(x) except that NaN and ±Infinity become null).
func TestFormatNumber(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want string
	}{
		{"0", 0, "0"},
		{"-0", math.Copysign(0, -1), "0"},
		{"1", 1, "1"},
		{"-1", -1, "-1"},
		{"0.5", 0.5, "0.5"},
		{"1e21", 1e21, "1e+21"},
		{"-1e21", -1e21, "-1e+21"},
		{"1e20", 1e20, "100000000000000000000"},
		{"123e-20", 123e-20, "1.23e-18"},
		{"1e-6", 1e-6, "0.000001"},
		{"1e-7", 1e-7, "1e-7"},
		{"0.000001234", 0.000001234, "0.000001234"},
		{"-1.5e-10", -1.5e-10, "-1.5e-10"},
		{"1.5e300", 1.5e300, "1.5e+300"},
		{"2^53", 1 << 53, "9007199254740992"},
		{"4.35", 4.35, "4.35"},
		{"0.1+0.2", 0.1 + func() float64 { return 0.2 }(), "0.30000000000000004"},
		{"5e-324", 5e-324, "5e-324"},
		{"max double", math.MaxFloat64, "1.7976931348623157e+308"},
		{"123456789012345678901234", 123456789012345678901234, "1.2345678901234569e+23"},
		{"NaN", math.NaN(), "null"},
		{"+Inf", math.Inf(1), "null"},
		{"-Inf", math.Inf(-1), "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, message.FormatNumber(tt.in))
		})
	}
}

func TestLength(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"a", 1},
		{"é", 1},
		{"e\u0301", 2},
		{"😀", 2},
		{"你好", 2},
		{"👨‍👩‍👧", 8},
		{"\U0010FFFF", 2},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, message.Length(tt.in))
		})
	}
}

func TestContentLengthRejectsWhatParseRejects(t *testing.T) {
	// ContentLength is also called on contents that did not come through
	// Parse: it must not count what the spec calls invalid.
	tests := []struct {
		name    string
		content string
		wantErr string
	}{
		{"invalid UTF-8 in a string", "\"a\xffb\"", "invalid UTF-8"},
		{"unpaired surrogate in a string", `"\ud800"`, "unpaired surrogate"},
		{"unpaired surrogate in an array", `["\udc00"]`, "unpaired surrogate"},
		{"raw control character in a string", "\"a\tb\"", "raw control character"},
		{"trailing garbage after a string", `"a" "b"`, "after the JSON value"},
		{"leading zero", `01`, "invalid JSON number"},
		{"negative leading zero", `[-01]`, "invalid JSON number"},
		{"no digit after the point", `1.`, "invalid JSON number"},
		{"no digit before the point", `-.5`, "invalid JSON number"},
		{"no exponent digit", `1e+`, "invalid JSON number"},
		{"lone minus", `[-]`, "invalid JSON number"},
		{"non-JSON white space", "\u00a0null", "in JSON"},
		{"trailing comma", `[1,]`, "in JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := message.ContentLength([]byte(tt.content))
			require.Error(t, err, "counted %q as %d", tt.content, n)
			assert.Contains(t, err.Error(), tt.wantErr)
		})
	}
}

func TestCompactMergesDuplicateMemberNames(t *testing.T) {
	// JSON.parse keeps one member per name, where the name first appeared,
	// with the value it last had; every want was printed by Node 20.
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "small object",
			in:   `{"a":1,"b":2,"a":3}`,
			want: `{"a":3,"b":2}`,
		},
		{
			name: "nested objects, each merged on its own",
			in:   `{"o":{"p":{"q":3,"r":4,"q":5},"s":7},"t":[{"u":1,"u":2}],"o":{"p":{"q":3,"r":4,"q":5},"s":[7]}}`,
			want: `{"o":{"p":{"q":5,"r":4},"s":[7]},"t":[{"u":2}]}`,
		},
		{
			name: "more than 16 members with duplicates",
			in:   `{"ma":0,"mb":1,"mc":2,"md":3,"me":4,"mf":5,"mg":6,"mh":7,"mi":8,"mj":9,"mk":10,"ml":11,"mm":12,"ma":13,"mb":14,"mc":15,"md":16,"me":17,"mf":18,"mg":19}`,
			want: `{"ma":13,"mb":14,"mc":15,"md":16,"me":17,"mf":18,"mg":19,"mh":7,"mi":8,"mj":9,"mk":10,"ml":11,"mm":12}`,
		},
		{
			name: "more than 16 members without duplicates",
			in:   `{"kz": 0, "ky": 1, "kx": 2, "kw": 3, "kv": 4, "ku": 5, "kt": 6, "ks": 7, "kr": 8, "kq": 9, "kp": 10, "ko": 11, "kn": 12, "km": 13, "kl": 14, "kk": 15, "kj": 16, "ki": 17, "kh": 18, "kg": 19}`,
			want: `{"kz":0,"ky":1,"kx":2,"kw":3,"kv":4,"ku":5,"kt":6,"ks":7,"kr":8,"kq":9,"kp":10,"ko":11,"kn":12,"km":13,"kl":14,"kk":15,"kj":16,"ki":17,"kh":18,"kg":19}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := message.Compact([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func ptr(s string) *string { return &s }

// TestContentAndRawApart: appending to what Content returns never writes
// into the message's bytes, nor the other way round.
func TestContentAndRawApart(t *testing.T) {
	m, err := message.Parse([]byte(`{"role":"user","content":"hi","x":1}`))
	require.NoError(t, err)
	_ = append(m.Content(), "XXXXX"...)
	_ = append(m.Raw(), "YYYYY"...)
	assert.Equal(t, `{"role":"user","content":"hi","x":1}`, string(m.Raw()))
	assert.Equal(t, `"hi"`, string(m.Content()))
}
