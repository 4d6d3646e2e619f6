package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/reference/window"
)

func TestResolve(t *testing.T) {
	def := window.DefaultConfig()
	with := func(f func(*window.Config)) window.Config { c := def; f(&c); return c }
	cases := []struct {
		name   string
		format Format
		text   string
		want   window.Config
		from   string
		warn   []string
	}{
		{"empty yaml", YAML, "", def, SourceDefault, nil},
		{"empty json", JSON, "", def, SourceDefault, nil},
		{"no execution", YAML, "provider: anthropic\n", def, SourceDefault, nil},
		{"existing config", YAML, "execution:\n  max_iterations: 50\n  timeout: 30s\n", def, SourceDefault, nil},
		{"shorthand", YAML, "execution:\n  max_conversation_messages: 40\n", with(func(c *window.Config) { c.MaxMessages = 40 }), SourceShorthand, nil},
		{"full form", YAML, "execution:\n  max_iterations: 50\n  conversation:\n    max_messages: 100\n    summarize_on_trim: true\n    preserve_first_n: 1\n    preserve_last_n: 20\n",
			with(func(c *window.Config) { c.SummarizeOnTrim = true }), SourceConversation, nil},
		{"shorthand fills the block", YAML, "execution:\n  max_conversation_messages: 30\n  conversation:\n    preserve_last_n: 10\n",
			with(func(c *window.Config) { c.MaxMessages, c.PreserveLastN = 30, 10 }), SourceShorthand, nil},
		{"block wins", JSON, `{"execution":{"max_conversation_messages":30,"conversation":{"max_messages":60}}}`,
			with(func(c *window.Config) { c.MaxMessages = 60 }), SourceConversation, []string{CodeShorthandOverridden}},
		{"same in both", JSON, `{"execution":{"max_conversation_messages":60,"conversation":{"max_messages":60}}}`,
			with(func(c *window.Config) { c.MaxMessages = 60 }), SourceConversation, nil},
		{"nulls are absent", YAML, "execution:\n  max_conversation_messages: ~\n  conversation: null\n", def, SourceDefault, nil},
		{"zero disables", YAML, "execution:\n  max_conversation_messages: 0\n", with(func(c *window.Config) { c.MaxMessages = 0 }), SourceShorthand, nil},
		{"anchors", YAML, "base: &n 25\nexecution:\n  max_conversation_messages: *n\n", with(func(c *window.Config) { c.MaxMessages = 25 }), SourceShorthand, nil},
		{"float count", YAML, "execution:\n  max_conversation_messages: 30.0\n", with(func(c *window.Config) { c.MaxMessages = 30 }), SourceShorthand, nil},
		{"preserve fills cap", YAML, "execution:\n  max_conversation_messages: 10\n", with(func(c *window.Config) { c.MaxMessages = 10 }), SourceShorthand, []string{window.CodePreserveExceedsMax}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Resolve([]byte(c.text), c.format)
			require.NoError(t, err, "Resolve")
			assert.Equal(t, c.want, got.Config)
			assert.Equal(t, c.from, got.MaxMessagesFrom, "where max_messages comes from")
			var codes []string
			for _, w := range got.Warnings {
				codes = append(codes, w.Code)
			}
			assert.Equal(t, c.warn, codes, "warning codes")
		})
	}
}

func TestResolveErrors(t *testing.T) {
	cases := []struct {
		name   string
		format Format
		text   string
		path   string
	}{
		{"negative shorthand", YAML, "execution:\n  max_conversation_messages: -1\n", "execution.max_conversation_messages"},
		{"string shorthand", YAML, "execution:\n  max_conversation_messages: \"100\"\n", "execution.max_conversation_messages"},
		{"negative in block", YAML, "execution:\n  conversation:\n    preserve_last_n: -3\n", "execution.conversation.preserve_last_n"},
		{"wrong type in block", JSON, `{"execution":{"conversation":{"summarize_on_trim":"yes"}}}`, "execution.conversation.summarize_on_trim"},
		{"yaml yes is a string", YAML, "execution:\n  conversation:\n    summarize_on_trim: yes\n", "execution.conversation.summarize_on_trim"},
		{"unknown key in block", YAML, "execution:\n  conversation:\n    preserve_last: 5\n", "execution.conversation.preserve_last"},
		{"block not a mapping", YAML, "execution:\n  conversation: 100\n", "execution.conversation"},
		{"execution not a mapping", JSON, `{"execution":[1]}`, "execution"},
		{"root not a mapping", YAML, "- 1\n", ""},
		{"duplicate yaml key", YAML, "execution:\n  max_conversation_messages: 5\n  max_conversation_messages: 6\n", "execution.max_conversation_messages"},
		{"duplicate json key", JSON, `{"execution":{"conversation":{"max_messages":1,"max_messages":2}}}`, "execution.conversation.max_messages"},
		{"infinity", YAML, "execution:\n  max_conversation_messages: .inf\n", "execution.max_conversation_messages"},
		{"fraction", JSON, `{"execution":{"max_conversation_messages":2.5}}`, "execution.max_conversation_messages"},
		{"bad yaml", YAML, "execution: [\n", ""},
		{"bad json", JSON, `{"execution":`, ""},
		{"two yaml documents", YAML, "a: 1\n---\nb: 2\n", ""},
		{"two json values", JSON, `{} {}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Resolve([]byte(c.text), c.format)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.path, e.Path, "path of %v", err)
			assert.ErrorIs(t, err, window.ErrInvalidConfig)
		})
	}
	_, err := Resolve(nil, "toml")
	assert.Error(t, err, "an unknown format resolved")
}

// TestHostileDocuments: a config file that refers to itself, multiplies
// through aliases or nests without end gets an error, never a hang.
func TestHostileDocuments(t *testing.T) {
	// Each laugh a kibibyte long: the expansion passes 16 MiB after some
	// 16,000 of them, not millions (TestExpansionPathOfMultiplyingAliases
	// multiplies small scalars, and names where it stops; D-86).
	x := strings.Repeat("x", 1024)
	laughs := "a: &a [" + strings.TrimSuffix(strings.Repeat(x+", ", 10), ", ") + "]\n"
	prev := "a"
	for i := 0; i < 9; i++ {
		name := string(rune('b' + i))
		laughs += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	cases := []struct {
		name   string
		format Format
		text   string
		want   string // in the error, when given
	}{
		{"recursive alias", YAML, "a: &x [*x]\n", ""},
		{"recursive alias in a mapping", YAML, "a: &x {b: *x}\n", ""},
		{"billion laughs", YAML, laughs, "expands to more than 16 MiB"},
		{"deep YAML", YAML, strings.Repeat("[", 5000) + strings.Repeat("]", 5000), ""},
		{"deep JSON", JSON, strings.Repeat("[", 100000) + strings.Repeat("]", 100000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Resolve([]byte(c.text), c.format)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestCoreSchema: plain scalars resolve as YAML 1.2's core schema says, not
// as YAML 1.1 (or the parser's own leniency) would.
func TestCoreSchema(t *testing.T) {
	for text, want := range map[string]int{
		"execution: {max_conversation_messages: 017}":     17, // decimal in 1.2, octal 15 in 1.1
		"execution: {max_conversation_messages: 0o17}":    15,
		"execution: {max_conversation_messages: 0x1F}":    31,
		"execution: {max_conversation_messages: +12}":     12,
		"execution: {max_conversation_messages: 1e1}":     10,
		"execution: {max_conversation_messages: 30.0}":    30,
		"execution: {max_conversation_messages: !!int 7}": 7,
	} {
		got, err := Resolve([]byte(text), YAML)
		assert.NoError(t, err, text)
		assert.Equal(t, want, got.Config.MaxMessages, "%s: max_messages", text)
	}
	for _, text := range []string{
		"execution: {max_conversation_messages: 1_000}", // a string in 1.2
		"execution: {max_conversation_messages: 0b101}",
		"execution: {max_conversation_messages: 1:30}",
		"execution: {conversation: {summarize_on_trim: on}}",
	} {
		_, err := Resolve([]byte(text), YAML)
		assert.Error(t, err, "%s resolved; in YAML 1.2 the value is a string", text)
	}
}

// TestNestingLimitIsOneLimit: 1,000 levels of mappings and sequences are
// read and 1,001 refused (CONF-6), in YAML and JSON, in flow and block
// style, whatever the innermost level holds — a value inside it is no
// level of its own.
func TestNestingLimitIsOneLimit(t *testing.T) {
	docs := map[string]func(levels int, inner string) (string, Format){
		"JSON arrays": func(n int, inner string) (string, Format) {
			return strings.Repeat("[", n) + inner + strings.Repeat("]", n), JSON
		},
		"JSON objects under execution": func(n int, inner string) (string, Format) {
			return `{"execution":` + strings.Repeat(`{"a":`, n-2) + "{" + map[string]string{"": "", "1": `"b":1`}[inner] + "}" + strings.Repeat("}", n-2) + "}", JSON
		},
		"YAML flow sequences": func(n int, inner string) (string, Format) {
			return strings.Repeat("[", n) + inner + strings.Repeat("]", n), YAML
		},
		"YAML block sequences": func(n int, inner string) (string, Format) {
			var b strings.Builder
			for i := 0; i < n-1; i++ {
				b.WriteString(strings.Repeat(" ", 2*i) + "-\n")
			}
			b.WriteString(strings.Repeat(" ", 2*(n-1)) + "[" + inner + "]\n") // the innermost level
			return b.String(), YAML
		},
	}
	for name, doc := range docs {
		for _, inner := range []string{"", "1"} {
			for levels, refused := range map[int]bool{1000: false, 1001: true} {
				text, f := doc(levels, inner)
				_, err := Resolve([]byte(text), f)
				deep := err != nil && strings.Contains(err.Error(), "levels deep")
				assert.Equal(t, refused, deep, "%s, %d levels, innermost %q: %v", name, levels, inner, err)
			}
		}
	}
}
