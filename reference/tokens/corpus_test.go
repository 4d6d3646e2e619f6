package tokens

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// mixedCorpus returns about size bytes of the text an agent's history is
// made of, drawn from a generator seeded with seed, so that the same seed
// always gives the same text: English prose (40 % of the segments), Go
// source (15 %), JSON (15 %), Chinese, Japanese and Korean prose (10 %),
// emoji among words (5 %), tables of numbers (10 %) and runs of white space
// (5 %). BenchmarkCountMixed counts it; TestMixedCorpusMatchesV070 checks
// its encoding.
func mixedCorpus(seed uint64, size int) string {
	g := corpusGen{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for g.b.Len() < size {
		switch k := g.rng.IntN(20); {
		case k < 8:
			g.prose()
		case k < 11:
			g.goSource()
		case k < 14:
			g.json()
		case k < 16:
			g.cjk()
		case k < 17:
			g.emoji()
		case k < 19:
			g.numbers()
		default:
			g.whiteSpace()
		}
	}
	return g.b.String()
}

type corpusGen struct {
	rng *rand.Rand
	b   strings.Builder
}

var (
	corpusWords = strings.Fields(`the of and to a in is that for it as was with be by on not he this are or his
		from at which but have an they you were her she there been one all we their has would when if so no
		will can more about said them some could him into its then two time only new years other any may
		what these first like over after also most made did many before must through back where much your
		way down should because each just those people how too well state very make still see between own
		under last never another while us off know always against something both being take used world
		budget message conversation history token window summary model agent request response context tool
		result limit prune oldest system prompt assistant function argument error value field record`)
	corpusContractions = []string{"don't", "it's", "we're", "they've", "I'm", "you'll", "she'd", "can't", "won't", "isn't", "that's", "let's"}
	corpusIdents       = strings.Fields(`ctx err msg buf n i j k tokens count limit budget window history
		messages parts piece start end offset result value key name opts cfg req resp client server`)
	corpusHan      = []rune("的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所去行过家十用发天如然作方成者多日都三小军二无同么经法当起与好看学进种将还分此心前面又定见只主没公从")
	corpusKana     = []rune("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんアイウエオカキクケコサシスセソタチツテト")
	corpusHangul   = []rune("가나다라마바사아자차카타파하는을를이가에서와과한국어대화기록토큰")
	corpusEmoji    = []string{"😀", "😂", "🙂", "😍", "🤖", "🔥", "✨", "❤️", "👍", "👍🏽", "👋🏿", "🎉", "🚀", "✅", "❌", "⚠️", "👨‍👩‍👧", "👩‍💻", "🏳️‍🌈", "🇫🇷", "🇯🇵", "🇺🇸", "☕", "🌍", "📦"}
	corpusPunct    = []string{".", ".", ".", ",", ",", ",", ";", ":", "!", "?", " —", "...", ")"}
	corpusGoTypes  = []string{"int", "string", "bool", "error", "[]byte", "map[string]int", "*Message", "float64", "[]string", "context.Context"}
	corpusJSONKeys = []string{"id", "role", "content", "name", "type", "arguments", "tool_call_id", "tokens", "created_at", "model", "usage", "prompt_tokens", "finish_reason", "index", "path", "size", "mode", "items"}
)

func (g *corpusGen) pick(words []string) string { return words[g.rng.IntN(len(words))] }

func (g *corpusGen) word() string {
	if g.rng.IntN(25) == 0 {
		return g.pick(corpusContractions)
	}
	return g.pick(corpusWords)
}

// prose writes a paragraph of sentences, with numbers, quotes and
// contractions, and a blank line.
func (g *corpusGen) prose() {
	for range 2 + g.rng.IntN(6) {
		n := 5 + g.rng.IntN(18)
		for i := range n {
			w := g.word()
			if i == 0 {
				w = strings.ToUpper(w[:1]) + w[1:]
			} else {
				g.b.WriteByte(' ')
			}
			switch g.rng.IntN(40) {
			case 0:
				w = fmt.Sprint(g.rng.IntN(10000))
			case 1:
				w = `"` + w + `"`
			case 2:
				w = "(" + w
			}
			g.b.WriteString(w)
			if i < n-1 && g.rng.IntN(12) == 0 {
				g.b.WriteString(",")
			}
		}
		g.b.WriteString(g.pick(corpusPunct[:5]))
		g.b.WriteByte(' ')
	}
	g.b.WriteString("\n\n")
}

func (g *corpusGen) ident() string {
	a, b := g.pick(corpusIdents), g.pick(corpusIdents)
	if g.rng.IntN(2) == 0 {
		return a
	}
	return a + strings.ToUpper(b[:1]) + b[1:]
}

// goSource writes a Go function with comments, literals and tabs.
func (g *corpusGen) goSource() {
	fmt.Fprintf(&g.b, "// %s %s the %s of %s.\n", g.ident(), g.pick(corpusWords), g.pick(corpusWords), g.pick(corpusWords))
	fmt.Fprintf(&g.b, "func %s(%s %s, %s %s) (%s, error) {\n", g.ident(), g.ident(), g.pick(corpusGoTypes), g.ident(), g.pick(corpusGoTypes), g.pick(corpusGoTypes))
	for range 2 + g.rng.IntN(8) {
		indent := strings.Repeat("\t", 1+g.rng.IntN(3))
		switch g.rng.IntN(5) {
		case 0:
			fmt.Fprintf(&g.b, "%sif %s != nil {\n%s\treturn nil, fmt.Errorf(\"%s %s: %%w\", %s)\n%s}\n", indent, g.ident(), indent, g.pick(corpusWords), g.pick(corpusWords), g.ident(), indent)
		case 1:
			fmt.Fprintf(&g.b, "%sfor %s := range %s {\n%s\t%s += %s[%s] * %d\n%s}\n", indent, g.ident(), g.ident(), indent, g.ident(), g.ident(), g.ident(), g.rng.IntN(1000), indent)
		case 2:
			fmt.Fprintf(&g.b, "%s%s := %s.%s(%q, %d)\n", indent, g.ident(), g.ident(), g.ident(), g.word()+" "+g.word(), g.rng.IntN(1<<20))
		case 3:
			fmt.Fprintf(&g.b, "%s// %s %s %s.\n", indent, g.word(), g.word(), g.word())
		default:
			fmt.Fprintf(&g.b, "%s%s = append(%s, %s{%s: %d, %s: %q})\n", indent, g.ident(), g.ident(), g.ident(), g.ident(), g.rng.IntN(100), g.ident(), g.word())
		}
	}
	g.b.WriteString("\treturn " + g.ident() + ", nil\n}\n\n")
}

// json writes a pretty-printed JSON object, nested.
func (g *corpusGen) json() {
	g.jsonValue(0, 3)
	g.b.WriteString("\n")
}

func (g *corpusGen) jsonValue(depth, maxDepth int) {
	indent := strings.Repeat("  ", depth)
	switch k := g.rng.IntN(10); {
	case depth < maxDepth && k < 4:
		g.b.WriteString("{\n")
		n := 1 + g.rng.IntN(5)
		for i := range n {
			fmt.Fprintf(&g.b, "%s  %q: ", indent, g.pick(corpusJSONKeys))
			g.jsonValue(depth+1, maxDepth)
			if i < n-1 {
				g.b.WriteString(",")
			}
			g.b.WriteString("\n")
		}
		g.b.WriteString(indent + "}")
	case depth < maxDepth && k < 6:
		g.b.WriteString("[")
		n := 1 + g.rng.IntN(4)
		for i := range n {
			if i > 0 {
				g.b.WriteString(", ")
			}
			g.jsonValue(maxDepth, maxDepth)
		}
		g.b.WriteString("]")
	case k < 7:
		fmt.Fprintf(&g.b, "%d", g.rng.IntN(1_000_000))
	case k < 8:
		fmt.Fprintf(&g.b, "%.4f", g.rng.Float64()*1000)
	case k < 9:
		fmt.Fprintf(&g.b, "%q", g.word()+" "+g.word()+" "+g.word())
	default:
		g.b.WriteString([]string{"true", "false", "null"}[g.rng.IntN(3)])
	}
}

// cjk writes a paragraph of Chinese, Japanese or Korean.
func (g *corpusGen) cjk() {
	switch g.rng.IntN(3) {
	case 0:
		for range 3 + g.rng.IntN(5) {
			for range 5 + g.rng.IntN(20) {
				g.b.WriteRune(corpusHan[g.rng.IntN(len(corpusHan))])
			}
			g.b.WriteString([]string{"，", "。", "、", "：", "！"}[g.rng.IntN(5)])
		}
	case 1:
		for range 3 + g.rng.IntN(5) {
			for range 5 + g.rng.IntN(20) {
				if g.rng.IntN(3) == 0 {
					g.b.WriteRune(corpusHan[g.rng.IntN(len(corpusHan))])
				} else {
					g.b.WriteRune(corpusKana[g.rng.IntN(len(corpusKana))])
				}
			}
			g.b.WriteString("。")
		}
	default:
		for range 5 + g.rng.IntN(15) {
			for range 1 + g.rng.IntN(4) {
				g.b.WriteRune(corpusHangul[g.rng.IntN(len(corpusHangul))])
			}
			g.b.WriteString(" ")
		}
		g.b.WriteString(".")
	}
	g.b.WriteString("\n\n")
}

// emoji writes a chat line of words and emoji.
func (g *corpusGen) emoji() {
	for range 3 + g.rng.IntN(12) {
		if g.rng.IntN(3) == 0 {
			for range 1 + g.rng.IntN(3) {
				g.b.WriteString(g.pick(corpusEmoji))
			}
		} else {
			g.b.WriteString(g.word())
		}
		g.b.WriteByte(' ')
	}
	g.b.WriteString("\n")
}

// numbers writes a table of integers, decimals, dates and identifiers.
func (g *corpusGen) numbers() {
	for range 3 + g.rng.IntN(10) {
		fmt.Fprintf(&g.b, "| %d | %.2f | 20%02d-%02d-%02d | %d,%03d,%03d | 0x%08x | +1-%03d-%03d-%04d |\n",
			g.rng.IntN(100000), g.rng.Float64()*1e6, g.rng.IntN(30), 1+g.rng.IntN(12), 1+g.rng.IntN(28),
			g.rng.IntN(1000), g.rng.IntN(1000), g.rng.IntN(1000), g.rng.Uint32(),
			g.rng.IntN(1000), g.rng.IntN(1000), g.rng.IntN(10000))
	}
	g.b.WriteString("\n")
}

// whiteSpace writes runs of spaces, tabs and newlines around short words:
// indentation, trailing spaces and blank lines.
func (g *corpusGen) whiteSpace() {
	runs := []string{" ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u3000"}
	for range 3 + g.rng.IntN(10) {
		for range 1 + g.rng.IntN(12) {
			g.b.WriteString(runs[g.rng.IntN(len(runs))])
		}
		g.b.WriteString(g.word())
	}
	g.b.WriteString("\n")
}

// corpusOut, when set, makes TestWriteMixedCorpus write the corpus of
// BenchmarkCountMixed there, for `make bench-peers` to count with other
// tokenizers.
var corpusOut = flag.String("corpus.out", "", "write the mixed corpus of BenchmarkCountMixed to this file")

func TestWriteMixedCorpus(t *testing.T) {
	if *corpusOut == "" {
		t.Skip("run with -corpus.out FILE (make bench-peers)")
	}
	text := mixedCorpus(1, mixedCorpusSize)
	if err := os.WriteFile(*corpusOut, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// Its count, so that the other tokenizers' counts can be compared.
	if err := os.WriteFile(*corpusOut+".tokens", fmt.Appendf(nil, "%d\n", Count(text)), 0o644); err != nil {
		t.Fatal(err)
	}
}
