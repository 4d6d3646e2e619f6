package config

import (
	"testing"
)

// FuzzResolve: any document, in either format, resolves or fails with an
// error; never a panic.
func FuzzResolve(f *testing.F) {
	for _, seed := range []string{
		"max_messages: 10\n", "summarize_on_trim: !!bool\n", "summarize_on_trim: !!bool tomato\n",
		"a: &a [*a]\n", "max_messages: 1e400\n", `{"max_messages":3.0}`, `{"a":{"a":{"a":1}}}`,
		"execution:\n  conversation:\n    max_messages: 5\n", "- 1\n- 2\n", "!!int x\n", "? [a]\n: b\n",
	} {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, text []byte, yaml bool) {
		format := JSON
		if yaml {
			format = YAML
		}
		_, _ = Resolve(text, format)
	})
}
