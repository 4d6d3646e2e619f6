package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"io"
	"testing"

	"pgregory.net/rapid"
)

// The generators' output pinned: what a seed draws is what every report,
// every counterexample and the catalogue's kills were found with, so a
// change that makes generation cheaper must leave every draw and every
// generated value as it was. TestGeneratedDigests hashes, for a fixed set
// of seeds and of generators, everything the generators build — every
// field of every message (Raw, the counted and rendered texts, class, ids,
// unit, the text without content), every history's units and broken
// structures — and one draw made after the generator, which moves when the
// generator draws more or fewer values than it did.

var printDigests = flag.Bool("gen.print-digests", false, "print the generators' digests instead of checking them")

// digestSeeds is how many seeds each generator is drawn with.
const digestSeeds = 150

// writeMessage writes every field of m a property may read.
func writeMessage(w io.Writer, m Message) {
	fmt.Fprintf(w, "msg role=%q seq=%d kind=%q chars=%d class=%q unit=%v\n", m.Role, m.Seq, m.Kind, m.Chars, m.Class, m.Unit)
	fmt.Fprintf(w, "raw=%q\ncounted=%q\nrendered=%q\ntexts=%q ids=%q\n", m.Raw, m.Counted, m.Rendered, m.Texts, m.IDs)
	fmt.Fprintf(w, "without=%q\n", m.WithoutContent())
}

func writeHistory(w io.Writer, h History) {
	for _, m := range h.Msgs {
		writeMessage(w, m)
	}
	fmt.Fprintf(w, "units=%v\n", h.Units)
	for _, s := range h.Broken {
		fmt.Fprintf(w, "broken %q %q sure=%v idx=%v named=%v\n", s.Defect, s.Codes, s.sure, s.Idx, s.Named)
	}
}

// digestCase is one generator, written to the hash for each seed.
type digestCase struct {
	name string
	draw func(t *rapid.T, w io.Writer)
	want string
}

func digestCases() []digestCase {
	messages := func(seq int, o MessageOpts) func(*rapid.T, io.Writer) {
		g := Messages(seq, o)
		return func(t *rapid.T, w io.Writer) { writeMessage(w, g.Draw(t, "message")) }
	}
	histories := func(o HistoryOpts) func(*rapid.T, io.Writer) {
		g := Histories(o)
		return func(t *rapid.T, w io.Writer) { writeHistory(w, g.Draw(t, "history")) }
	}
	return []digestCase{
		{name: "Messages/plain", draw: messages(-1, MessageOpts{}),
			want: "bfe95bbb176d0db8514a77afca889c180fd852a3b69b6a872e8d820570c88b61"},
		{name: "Messages/marked-tools", draw: messages(3, MessageOpts{Tools: true}),
			want: "d4d6e2db586f6a3980273519341e71e33405f846f17f96c4835b7afac8830d7b"},
		{name: "Messages/overflow-edges", draw: messages(-1, MessageOpts{Tools: true, Overflow: true, PlaneEdges: true}),
			want: "c1186e1bac6aa74abac173d493b8691a6bc66e6278d4a0c8bd11696dd5910c2b"},
		{name: "Conversations/n=1", draw: func(t *rapid.T, w io.Writer) {
			for _, m := range Conversations(1).Draw(t, "conversation") {
				writeMessage(w, m)
			}
		}, want: "5cc1101b48eb774596999a1f99276adcfac5db89b82ef9c72ce2eafea411f427"},
		{name: "Conversations/n=12", draw: func(t *rapid.T, w io.Writer) {
			for _, m := range Conversations(12).Draw(t, "conversation") {
				writeMessage(w, m)
			}
		}, want: "df06d95b7096c062779238a5a634d7b2c8c041d5c856c26d119e9360f956c113"},
		{name: "Histories/n=8", draw: histories(HistoryOpts{N: 8, Marked: true, Tools: -1}),
			want: "3a11c0f5eb1d0f3d2781c0b7d17caa1330b1c09ff3545a61fd9feb2a208ce0f7"},
		{name: "Histories/n=40-runs", draw: histories(HistoryOpts{N: 40, Marked: true, Tools: -1, Runs: true}),
			want: "6bd1aa89e4427b24380bafaa74451ef32ece003d13076309f671d8eaa0411dbc"},
		{name: "Histories/defects", draw: histories(HistoryOpts{N: 10, Tools: 2, Defects: [2]int{1, 3}, Ambiguous: true}),
			want: "8acf188cfab0b42ba90d5ce59488ed3b8351cd5cfb2af6bd0933e40c9a23c37f"},
		{name: "Histories/silent-anthropic", draw: histories(HistoryOpts{N: 6, Marked: true, Tools: 1, Silent: true, Force: "tool", Format: "anthropic", Base: 5, IdBase: 7}),
			want: "201b823525117118e4fa19ae32bbfeb6de01e0e4e70fc88557af834a25f34ae9"},
		// Formats restricted to one: the generators' other branch (a subset of
		// the choices drawn from, tool specs filtered).
		{name: "Histories/only-openai", draw: histories(HistoryOpts{N: 8, Marked: true, Tools: -1, Formats: []string{"openai"}}),
			want: "cef717d89400bb4b1292633177d4731134a85c85526821dd4c906c7b58ca800e"},
		{name: "Histories/only-anthropic", draw: histories(HistoryOpts{N: 8, Marked: true, Tools: -1, Formats: []string{"anthropic"}}),
			want: "2a8827b859cd4a8828ed67ee58122f379b7489cd5f6bb42d68e4e21bba780e12"},
		{name: "DrawConversation/only-anthropic", draw: func(t *rapid.T, w io.Writer) {
			for _, raw := range DrawConversation(t, []string{"anthropic"}, 8, true) {
				fmt.Fprintf(w, "%q\n", raw)
			}
		}, want: "2e04114a579f850ac9f5e2102e5057efb1518dfcf1e31b5e0b9a2a3dd872b7cf"},
		{name: "IdenticalConversations", draw: func(t *rapid.T, w io.Writer) {
			c := IdenticalConversations(9).Draw(t, "identical")
			for _, m := range c.Templates {
				writeMessage(w, m)
			}
			for _, m := range c.Msgs {
				writeMessage(w, m)
			}
			fmt.Fprintln(w, c.GoString())
		}, want: "7e83d4b915920f31c8be02ae9c41a2f73204827d18af77670059e6483e6519e3"},
		{name: "DrawConversation", draw: func(t *rapid.T, w io.Writer) {
			for _, raw := range DrawConversation(t, nil, 8, true) {
				fmt.Fprintf(w, "%q\n", raw)
			}
		}, want: "2d83c831d30700799f369a2f6d7d5057c1a4b456f7f7f9476cb850ca404ccb50"},
		{name: "Configs-Lengths", draw: func(t *rapid.T, w io.Writer) {
			c := Configs(rapid.IntRange(0, 30)).Draw(t, "config")
			fmt.Fprintf(w, "%#v %v\n", c, c.Sent)
			maxN, first, last, _ := c.Want()
			fmt.Fprintln(w, Lengths(maxN, first, last, AnyLength).Draw(t, "length"))
		}, want: "29edf954bd60eccf64187f000095b7c2b9d060a9c5a0552db83710eb4d01d550"},
		{name: "Scripts-Summarizer-Corner-Loop", draw: func(t *rapid.T, w io.Writer) {
			fmt.Fprintf(w, "%s\n", MustJSON(Scripts().Draw(t, "script")))
			s := DrawSummarizer(t, true)
			fmt.Fprintf(w, "%q %q %q\n", s.Core, s.Err, s.What)
			fmt.Fprintf(w, "%q\n", CornerTexts.Draw(t, "corner"))
			c := DrawLoopCase(t)
			fmt.Fprintf(w, "%s %s %d %d %d\n", MustJSON(c.Plan), MustJSON(c.Config()), c.Max, c.h, c.t)
		}, want: "eff0a0ad8f180d0526a89b2bd32ea5bbc01d0e34e68e7883493ad9645abf1521"},
	}
}

// TestGeneratedDigests fails when any generator draws other values, or
// another number of values, for the same seed than when the digests were
// recorded. Run with -gen.print-digests to see the current ones.
func TestGeneratedDigests(t *testing.T) {
	for _, c := range digestCases() {
		t.Run(c.name, func(t *testing.T) {
			got := digest(c.draw)
			switch {
			case *printDigests:
				t.Logf("%s: %s", c.name, got)
			case got != c.want:
				t.Errorf("digest of %d seeds = %s, want %s: the generator draws other values than it did", digestSeeds, got, c.want)
			}
		})
	}
}

func digest(draw func(*rapid.T, io.Writer)) string {
	var h hash.Hash = sha256.New()
	g := rapid.Custom(func(t *rapid.T) int {
		draw(t, h)
		// A draw after the generator's: it moves when the generator
		// consumes more or fewer values from the stream.
		fmt.Fprintf(h, "after=%d\n", rapid.Uint64().Draw(t, "after"))
		return 0
	})
	for seed := range digestSeeds {
		fmt.Fprintf(h, "seed %d\n", seed)
		g.Example(seed)
	}
	return hex.EncodeToString(h.Sum(nil))
}
