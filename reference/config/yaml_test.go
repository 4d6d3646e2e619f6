package config

import (
	"bytes"
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/convspec/convspec/reference/message"
)

// TestWriteInt: a YAML integer becomes the JSON number big.Int would print,
// without converting a decimal one (which takes time quadratic in its
// length), and a huge octal or hexadecimal one is refused naming its path.
func TestWriteInt(t *testing.T) {
	huge := strings.Repeat("9", 100_000)
	for _, tc := range []struct{ in, want string }{
		{"0", "0"}, {"-0", "0"}, {"+12", "12"}, {"007", "7"}, {"-007", "-7"}, {"-12", "-12"},
		{"0x1F", "31"}, {"0o17", "15"}, {huge, huge}, {"+" + huge, huge},
	} {
		var buf bytes.Buffer
		require.NoError(t, writeInt(&buf, &yaml.Node{Value: tc.in, Line: 1}, pathString("n")), tc.in)
		assert.Equal(t, tc.want, buf.String(), tc.in)
		if len(tc.in) < 40 && !strings.HasPrefix(tc.in, "0x") && !strings.HasPrefix(tc.in, "0o") {
			b, _ := new(big.Int).SetString(strings.TrimPrefix(tc.in, "+"), 10)
			assert.Equal(t, b.String(), buf.String(), "%s: as big.Int prints it", tc.in)
		}
	}
	for _, bad := range []string{"1_000", "-", "", "0x" + strings.Repeat("f", maxRadixDigits+1)} {
		err := writeInt(&bytes.Buffer{}, &yaml.Node{Value: bad, Line: 3}, pathString("execution.x"))
		var e *Error
		require.ErrorAs(t, err, &e, "%q", bad)
		assert.Equal(t, "execution.x", e.Path, "%q", bad)
	}
}

// BenchmarkResolveLongInteger: a config whose count is written with n
// digits costs time linear in n (growth per ×10 of input, BENCHMARKS.md).
func BenchmarkResolveLongInteger(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 30_000, 100_000, 300_000, 1_000_000} {
		text := []byte("execution:\n  max_conversation_messages: " + strings.Repeat("9", n) + "\n")
		b.Run(fmt.Sprintf("digits-%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_, _ = Resolve(text, YAML)
			}
		})
	}
}

// TestIsCompactAgreesWithCompact: what isCompact takes for its own compact
// form without parsing it is what message.Compact writes back unchanged,
// and the values it leaves to Compact include those Compact rewrites.
func TestIsCompactAgreesWithCompact(t *testing.T) {
	for _, v := range []string{
		`"a"`, `""`, `"<&>"`, "\"\u2028é😀\"", `"a\"b"`, `"\u00e9"`, `"\/"`,
		`0`, `-0`, `7`, `-12`, `999999999999999`, `-999999999999999`, `9999999999999999`, `12345678901234567890`,
		`1.0`, `1e2`, `1.5`, `null`, `true`, `false`, `[]`, `{}`,
	} {
		s, err := message.Compact([]byte(v))
		require.NoError(t, err, v)
		if isCompact([]byte(v)) {
			assert.Equal(t, v, string(s), "%s is taken for its own compact form", v)
		}
	}
	for _, v := range []string{`-0`, `9999999999999999`, `1.0`, `1e2`, `"\u00e9"`, `"\/"`} {
		assert.False(t, isCompact([]byte(v)), "%s is rewritten by Compact", v)
	}
}
