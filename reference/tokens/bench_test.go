package tokens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The benchmarks report tokens/s; BENCHMARKS.md records them and the ratios
// between sizes. Run them with
//
//	go test -run '^$' -bench 'Count' -count 6 ./reference/tokens | benchstat -
//
// The impl=v0.7.0 sub-benchmarks run tiktoken-go v0.7.0's own Codec.Count
// on the same text, the baseline: on words, for up to 100,000 characters
// only, as its merge is quadratic (seconds at 100,000 characters, tens of
// minutes at a million). Besides wall time, each reports tokens/s and
// cpu-ms/op, the CPU time of the process per run, steadier than wall time
// on a shared machine.

// benchProse is English prose of about tokens tokens: a paragraph of
// ordinary text (words, punctuation, numbers, a newline) repeated.
func benchProse(tokens int) string {
	const paragraph = "The committee met on Tuesday to review the proposal. After a long discussion, " +
		"members agreed that the budget was too high; they asked the authors to cut it by 15% " +
		"and to resubmit by March 3rd. \"We're not against the idea,\" the chair said, " +
		"\"but we can't fund it as it stands.\" The authors' response is expected next week.\n\n"
	per := Count(paragraph)
	return strings.Repeat(paragraph, (tokens+per-1)/per)
}

// BenchmarkCountProse counts ordinary text (short pieces: the merge hardly
// matters, the split does) with this package and with v0.7.0.
func BenchmarkCountProse(b *testing.B) {
	v070 := codec.NewCl100kBase()
	for _, size := range []int{10_000, 100_000, 1_000_000} {
		text := benchProse(size)
		n := Count(text)
		b.Run(fmt.Sprintf("tokens=%d/impl=tokens", size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			measure(b, n, func() { Count(text) })
		})
		b.Run(fmt.Sprintf("tokens=%d/impl=v0.7.0", size), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			measure(b, n, func() {
				if _, err := v070.Count(text); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkCountWord counts one word without spaces, one piece for the
// merge, with this package and with v0.7.0 where it finishes in seconds:
//
//   - word=letters: random ASCII letters of both cases (the xorshift recipe
//     of the golden cases, as in TestMegabyteWordWithoutSpaces), the shape
//     of an identifier-like blob; merge cuts it into short parts.
//   - word=a-run: the letter a repeated, where merge finds no cut and
//     mergeLong's heap does all the work.
func BenchmarkCountWord(b *testing.B) {
	v070 := codec.NewCl100kBase()
	words := []struct {
		name    string
		make    func(n int) string
		maxV070 int // the longest word v0.7.0 is timed on
	}{
		{"letters", func(n int) string { return xorshiftString(asciiLetters, n, 1) }, 100_000},
		{"a-run", func(n int) string { return strings.Repeat("a", n) }, 10_000},
	}
	for _, w := range words {
		for _, size := range []int{10_000, 100_000, 1_000_000} {
			word := w.make(size)
			n := Count(word)
			b.Run(fmt.Sprintf("word=%s/chars=%d/impl=tokens", w.name, size), func(b *testing.B) {
				b.SetBytes(int64(len(word)))
				measure(b, n, func() { Count(word) })
			})
			if size > w.maxV070 {
				continue
			}
			b.Run(fmt.Sprintf("word=%s/chars=%d/impl=v0.7.0", w.name, size), func(b *testing.B) {
				b.SetBytes(int64(len(word)))
				measure(b, n, func() {
					if _, err := v070.Count(word); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// measure runs f in the benchmark loop and reports, besides the wall time,
// tokens/s (tokens per run) and cpu-ms/op, the CPU time of the process per
// run: on a shared machine the wall time grows with the load, the CPU time
// hardly does.
func measure(b *testing.B, tokens int, f func()) {
	cpu0, ok0 := processCPU()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	if cpu1, ok1 := processCPU(); ok0 && ok1 {
		cpu := cpu1 - cpu0
		b.ReportMetric(float64(cpu)/1e6/float64(b.N), "cpu-ms/op")
		b.ReportMetric(float64(tokens)*float64(b.N)/1e6/cpu.Seconds(), "Mtok/cpu-s")
	}
}

// mixedCorpusSize is the size of the text of BenchmarkCountMixed.
const mixedCorpusSize = 4 << 20

// BenchmarkCountMixed counts mixedCorpus (prose, Go source, JSON, CJK,
// emoji, numbers, white space) of 4 MiB, about a million tokens, and
// reports Mtok/cpu-s, millions of tokens per CPU-second, the figure of
// BENCHMARKS.md: compare runs with benchstat.
func BenchmarkCountMixed(b *testing.B) {
	text := mixedCorpus(1, mixedCorpusSize)
	n := Count(text)
	b.SetBytes(int64(len(text)))
	measure(b, n, func() { Count(text) })
}

// BenchmarkCountLong counts texts that are one long run of a kind, from a
// thousand to a million bytes, so that the growth per tenfold input can be
// read (BENCHMARKS.md):
//
//   - run=letters: a word of random ASCII letters of both cases (the
//     xorshift recipe of the golden cases), one piece that merge cuts;
//   - run=spaces: spaces then a letter, one piece of white space that
//     merge cannot cut (a run of one byte: mergeLong's heap does it all);
//   - run=newlines: random spaces and newlines then a letter, one piece up
//     to the last newline (alternative 5 of the pattern);
//   - run=digits: random digits, a piece every three.
//
// At every size the texts of one kind hold a megabyte in all: a million
// bytes is one text, a thousand bytes is a thousand different texts, one
// per run in turn. Counting one small text over and over would keep its
// few hundred vocabulary entries in the CPU cache, which a megabyte of
// varied text does not, and the growth would then measure the cache, not
// the algorithm.
func BenchmarkCountLong(b *testing.B) {
	runs := []struct {
		name string
		make func(n int, seed uint32) string
	}{
		{"letters", func(n int, seed uint32) string { return xorshiftString(asciiLetters, n, seed) }},
		{"spaces", func(n int, seed uint32) string {
			return strings.Repeat(" ", n-1) + xorshiftString(asciiLetters, 1, seed)
		}},
		{"newlines", func(n int, seed uint32) string { return xorshiftString(" \n", n-1, seed) + "x" }},
		{"digits", func(n int, seed uint32) string { return xorshiftString("0123456789", n, seed) }},
	}
	const total = 1_000_000
	for _, r := range runs {
		for _, size := range []int{1_000, 10_000, 100_000, 1_000_000} {
			texts := make([]string, total/size)
			tokens := 0
			for i := range texts {
				texts[i] = r.make(size, uint32(i+1))
				tokens += Count(texts[i])
			}
			b.Run(fmt.Sprintf("run=%s/bytes=%d", r.name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				i := 0
				measure(b, tokens/len(texts), func() {
					Count(texts[i%len(texts)])
					i++
				})
			})
		}
	}
}

// BenchmarkMergeThreshold times mergeShort and mergeLong on pieces of
// random letters around shortPiece, the length where Encode switches.
func BenchmarkMergeThreshold(b *testing.B) {
	tb := cl100k()
	for _, size := range []int{3, 4, 6, 8, 12, 16, 32, 64, 128, 256, 512} {
		pieces := make([]string, 64)
		for i := range pieces {
			pieces[i] = xorshiftString(asciiLetters, size, uint32(i+1))
		}
		var m mergeState
		var dst []int
		b.Run(fmt.Sprintf("bytes=%d/short", size), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				dst = tb.mergeShort(&m, pieces[i%len(pieces)], dst[:0])
			}
		})
		b.Run(fmt.Sprintf("bytes=%d/long", size), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				dst = tb.mergeLong(&m, pieces[i%len(pieces)], dst[:0])
			}
		})
	}
}

// BenchmarkMergeQueue times mergeLong with its pairs in a heap and in
// buckets (pairQueue) around bucketPiece, the length where mergeLong
// switches, on random white space (a part that merge cannot cut) and on
// random letters (which merge would cut, and mergeLong here does not).
func BenchmarkMergeQueue(b *testing.B) {
	tb := cl100k()
	for _, text := range []struct{ name, alphabet string }{{"space", " \n"}, {"letters", asciiLetters}} {
		for _, size := range []int{256, 1024, 4096, 16384, 65536} {
			piece := xorshiftString(text.alphabet, size, 3)
			var m mergeState
			var dst []int
			for _, buckets := range []bool{false, true} {
				b.Run(fmt.Sprintf("text=%s/bytes=%d/buckets=%v", text.name, size, buckets), func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						dst = tb.mergeLongWith(&m, piece, dst[:0], buckets)
					}
				})
			}
		}
	}
}

// BenchmarkPretokenize splits a quarter of a megabyte of mixedCorpus into
// pieces with pieceEnd and with the regexp it replaces, and reports the
// CPU time per piece.
func BenchmarkPretokenize(b *testing.B) {
	text := mixedCorpus(2, 256<<10)
	pieces := len(scannerPieces(text))
	tb := cl100k()
	b.Run("impl=scanner", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		measurePieces(b, pieces, func() {
			for start := 0; start < len(text); {
				start = tb.pieceEnd(text, start)
			}
		})
	})
	b.Run("impl=regexp2", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		re := oracleRegexp()
		measurePieces(b, pieces, func() {
			m, err := re.FindRunesMatch([]rune(text))
			for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
			}
			if err != nil {
				b.Fatal(err)
			}
		})
	})
}

// measurePieces runs f in the benchmark loop and reports the CPU time per
// piece, cpu-ns/piece.
func measurePieces(b *testing.B, pieces int, f func()) {
	cpu0, ok0 := processCPU()
	for b.Loop() {
		f()
	}
	if cpu1, ok1 := processCPU(); ok0 && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/float64(pieces), "cpu-ns/piece")
	}
}
