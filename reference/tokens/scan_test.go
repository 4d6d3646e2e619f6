package tokens

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// probe is the text of scan.mjs (testdata/golden/gen/tokens) around the
// code point c; keep the two identical.
func probe(c string) string {
	return c + "123 " + c + "'s x'" + c + "t\n" + c + c + c + c + " " + c + "!\n1" + c + " a" + c + "b  " + c + "\n"
}

// TestCodePointScan compares the encoding of the probe of every code point
// with npm tiktoken's, read from the file that scan.mjs writes, named by
// TOKENS_NPM_SCAN. It is skipped without it: run it when Go's or the
// oracle's Unicode tables change (TestUnicodeTables says when). With npm
// tiktoken 1.0.22 all 1,112,064 code points agree; v0.7.0 disagrees on the
// 5,004 of addedLetters and addedNumbers.
func TestCodePointScan(t *testing.T) {
	path := os.Getenv("TOKENS_NPM_SCAN")
	if path == "" {
		t.Skip("TOKENS_NPM_SCAN is not set: see testdata/golden/gen/tokens/scan.mjs")
	}
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	lines := bufio.NewScanner(f)
	scanned, differ := 0, 0
	for lines.Scan() {
		hexCP, want, ok := strings.Cut(lines.Text(), " ")
		cp, err := strconv.ParseUint(hexCP, 16, 32)
		require.True(t, ok && err == nil && utf8.ValidRune(rune(cp)), "%s: malformed line %q", path, lines.Text())
		scanned++
		if got := probeDigest(Encode(probe(string(rune(cp))))); got != want {
			differ++
			if differ <= 20 {
				t.Errorf("U+%04X: the probe encodes differently from npm tiktoken: %v", cp, Encode(probe(string(rune(cp)))))
			}
		}
	}
	require.NoError(t, lines.Err())
	assert.Equal(t, 0x110000-0x800, scanned, "%s: code points", path)
	assert.Zero(t, differ, "code points that encode differently from npm tiktoken")
}

func probeDigest(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, ",")))
	return hex.EncodeToString(sum[:])[:16]
}
