package tokens

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The regexp is the oracle of the pre-tokenizer: pattern, compiled by
// regexp2 as tiktoken-go v0.7.0 compiles it, with the code points that
// Unicode 15.1 and 16.0 added (pattern.go). The golden vectors and the code
// point scan show that its pieces are npm tiktoken's; the tests here show
// that pieceEnd's are the regexp's.

var oracleRegexp = sync.OnceValue(func() *regexp2.Regexp {
	return regexp2.MustCompile(pattern, regexp2.None)
})

// oraclePieces splits text, valid UTF-8, with the regexp.
func oraclePieces(t testing.TB, text string) []string {
	t.Helper()
	runes := []rune(text)
	var pieces []string
	m, err := oracleRegexp().FindRunesMatch(runes)
	for ; m != nil && err == nil; m, err = oracleRegexp().FindNextMatch(m) {
		pieces = append(pieces, string(runes[m.Index:m.Index+m.Length]))
	}
	require.NoError(t, err, "regexp2 on %q", text)
	return pieces
}

// scannerPieces splits text, valid UTF-8, with pieceEnd.
func scannerPieces(text string) []string {
	tb := cl100k()
	var pieces []string
	for start := 0; start < len(text); {
		end := tb.pieceEnd(text, start)
		pieces = append(pieces, text[start:end])
		start = end
	}
	return pieces
}

// pretokenizeSeeds cover every alternative of the pattern and the corners
// where a hand-written scanner and a backtracking regexp could part.
var pretokenizeSeeds = []string{
	"",
	// 1: contractions, in every letter case. After a space the apostrophe
	// goes with the space (alternative 4 matches " '"), so most follow a letter.
	"x's x't x're x've x'm x'll x'd", "X'S X'T X'RE X'VE X'M X'LL X'D", "x'Re x'rE x'vE x'Ve x'Ll x'lL",
	"don't I'm we're they've she'll he'd it's", "DON'T I'M WE'RE THEY'VE", "x'sam x'tom x'red x'very x'md x'lll x'dd",
	"x'r x'v x'l x're x'rx x'vx x'lx x'lm x'rr", "x'r", "x'v", "x'l", "'s", "'S", "'ll", "'re",
	"1's 2'T 3're\n've\t'm.'ll('d", "'s 't 're 've 'm 'll 'd", "'", "''", "'''s", "x''s", "x'", "'1", "x' s", "'\n", "'é", "'x'y",
	// 1: case folding: the Kelvin sign, the long s, dotted capital I,
	// and fullwidth letters; ASCII letters only fold for regexp2.
	"x'\u212A x'\u017F x'\u0130 x'\uFF33 x'\uFF4C\uFF4C x'\u017Fam '\u017F x'r\u0395 x'\u0280e",
	// 1: apostrophe variants that are not the pattern's.
	"it\u2019s it\u02BCs it\u2018s it`s it\u00B4s it\uFF07s",
	// 2: letters with an optional leading code point.
	"hello world", " hello", "\thello", "\u00A0hello", "\u3000hello", "\u2028hello", "\u0085hello",
	".hello", "(hello", "\"hello\"", "\nhello", "\rhello", "1hello", "a1b2c3", "$$hello",
	"\u0301hello", "e\u0301t\u00E9", "na\u0308ive", "\U0001F600hello", "\u200Dhello", "\u00ADhyphen",
	// 2: scripts, astral letters and the letters Unicode 15.1 and 16.0 added.
	"日本語のテキスト", "한국어 텍스트", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "สวัสดีชาวโลก",
	"\U00020000\U0002A6D6 \U0001D400\U0001D7CB", "\U00010D4A\U00010D4B \u1C89's \U0002EBF0\U0002EE5D",
	// 3: numbers, by threes, in other scripts and added in Unicode 16.0.
	"1", "12", "123", "1234", "1234567", "3.14159", "1,000,000", "x2", "٠١٢٣٤٥٦", "۱۲۳۴", "१२३४५",
	"１２３４", "Ⅻ ½ ² ①②③④", "\U0001D7CE\U0001D7CF\U0001D7D0\U0001D7D1", "\U00010D40\U00010D41\U00010D42\U00010D43",
	"\U0001CCF0\U0001CCF1 \U000116D0", "a123b", "123abc", "１２３ａｂｃ",
	// 4: other code points, with an optional space and trailing newlines.
	"!", " !", "  !", "!!!", " !!!\n", "!!\r\n\r\n", "x!\n\ny", " ...\n", "\u00A0!", "\t!", " \u0301",
	" \U0001F600\U0001F601", "👨‍👩‍👧 🇫🇷 👍🏽", "{\"a\": [1, 2]}", "func() {\n\treturn\n}\n", "a\x00b\x7fc",
	"\uFFFD\uFFFD x", " \uFFFD", "<|endoftext|>", "#include <stdio.h>\r\n",
	// 5-7: runs of white space, with and without newlines, at the end.
	" ", "  ", "   ", "\n", "\n\n", "\r\n", "\r\n\r\n", " \n", "\n ", " \n ", "  \n  \n  ", "\n\n\nx",
	"\n \n \n x", "  x", "   x", "\t\tx", "\n\tx", " \t\n\t x", "x  ", "x\n", "x \n", "x\n\n",
	"today\n  \n", "x  \n  ", "\n  \n\n  hello", "a \u00A0b", "a\u00A0\u00A0b", "a \u3000 b",
	"\u2028", "\u2029\u2029", "a\u2028b", "a \u2029\n b", "\u0085\u0085x", "a\u0085", "\u000B\u000C\u000B x",
	"\u1680\u2000\u200A\u202F\u205F\u3000x", "\u200B\u200Bx", "\u180E x", "\uFEFF x", "   \r\r\r   x",
	"\r", "\r\r\n\n\r", "  \r  ", "x\r\n  y", " \n\n\t  !", " \n\n\t  1",
	// Mixed.
	"The quick brown fox's 12345 jumps!!\n\n  over\t\tthe lazy dog's back...  ",
	"x = map[string]int{\"a\": 1}\n\n\n\t// comment's end\n",
}

// FuzzPretokenize compares pieceEnd with the regexp piece by piece, on any
// text: invalid UTF-8 is first replaced as encode replaces it.
func FuzzPretokenize(f *testing.F) {
	for _, seed := range pretokenizeSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			text = string([]rune(text))
		}
		got, want := scannerPieces(text), oraclePieces(t, text)
		if !slices.Equal(got, want) {
			t.Fatalf("pieces of %q\n  scanner: %q\n  regexp:  %q\n  %s", text, got, want, firstPieceDifference(got, want))
		}
	})
}

func firstPieceDifference(got, want []string) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("first difference at piece %d: scanner %q, regexp %q", i, got[i], want[i])
		}
	}
	return fmt.Sprintf("same first %d pieces, then scanner %d pieces, regexp %d", min(len(got), len(want)), len(got), len(want))
}

// TestClassTableMatchesRegexp checks the class of every code point against
// regexp2's reading of the pattern's own character classes: it finds the
// runs of each class in the text of all code points in order, and each
// code point must be in exactly the runs of its class.
func TestClassTableMatchesRegexp(t *testing.T) {
	var all []rune
	for r := range rune(unicode.MaxRune + 1) {
		if utf8.ValidRune(r) {
			all = append(all, r)
		}
	}
	classes := []struct {
		name  string
		re    string
		class uint8
	}{
		{"letters", `[` + letters + `]+`, classLetter},
		{"numbers", `[` + numbers + `]+`, classNumber},
		{"white space but \\r and \\n", `[\s-[\r\n]]+`, classSpace},
		{"\\r and \\n", `[\r\n]+`, classNewline},
		{"others", `[^\s` + letters + numbers + `]+`, classOther},
	}
	tb := cl100k()
	in := make([]bool, len(all))
	for _, c := range classes {
		clear(in)
		re := regexp2.MustCompile(c.re, regexp2.None)
		m, err := re.FindRunesMatch(all)
		for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
			for k := m.Index; k < m.Index+m.Length; k++ {
				in[k] = true
			}
		}
		require.NoError(t, err)
		wrong := 0
		for k, r := range all {
			if in[k] != (tb.class.of(r) == c.class) {
				if wrong++; wrong <= 10 {
					t.Errorf("%U: regexp2 says in %s is %v, the class table %d", r, c.name, in[k], tb.class.of(r))
				}
			}
		}
		assert.Zero(t, wrong, "%s: code points classified differently from regexp2", c.name)
	}
}

// TestContractionsMatchRegexp checks contractionEnd against regexp2's
// (?i:…) with every code point in every letter position of every
// contraction, where regexp2's case folding decides.
func TestContractionsMatchRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: every code point through regexp2 takes seconds; make test runs it")
	}
	re := regexp2.MustCompile(`(?i:'s|'t|'re|'ve|'m|'ll|'d)`, regexp2.None)
	var b strings.Builder
	for r := range rune(unicode.MaxRune + 1) {
		if !utf8.ValidRune(r) || r == '\'' {
			continue
		}
		c := string(r)
		for _, probe := range []string{"'" + c, "'" + c + "e", "'r" + c, "'v" + c, "'" + c + "l", "'l" + c} {
			b.WriteString(probe)
			b.WriteByte('|')
		}
	}
	text := b.String()
	var want [][2]int // rune offsets of the regexp's matches
	runes := []rune(text)
	m, err := re.FindRunesMatch(runes)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		want = append(want, [2]int{m.Index, m.Index + m.Length})
	}
	require.NoError(t, err)
	var got [][2]int
	for i, k := 0, 0; i < len(text); k++ { // k counts runes
		if text[i] == '\'' {
			if end := contractionEnd(text, i+1); end > 0 {
				got = append(got, [2]int{k, k + utf8.RuneCountInString(text[i:end])})
			}
		}
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	// At least the 20 probes of ASCII letters that are contractions.
	require.GreaterOrEqual(t, len(want), 20, "contractions the regexp found: the probe text is wrong")
	if !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("contraction %d: contractionEnd %q, regexp %q", i, string(runes[got[i][0]:got[i][1]]), string(runes[want[i][0]:want[i][1]]))
			}
		}
		t.Fatalf("contractionEnd found %d contractions, the regexp %d", len(got), len(want))
	}
	t.Logf("%d contractions, among them %q", len(want), nonASCIIContractions(runes, want))
}

func nonASCIIContractions(runes []rune, spans [][2]int) []string {
	var out []string
	for _, s := range spans {
		if piece := string(runes[s[0]:s[1]]); !isASCII(piece) {
			out = append(out, piece)
		}
	}
	return out
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
