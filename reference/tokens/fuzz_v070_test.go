package tokens

import (
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer/codec"
)

// FuzzEncodeAgainstV070: on any valid UTF-8 text, Encode gives the tokens
// tiktoken-go v0.7.0's cl100k_base gives (TOK-1), the oracle the golden
// vectors were checked against.
func FuzzEncodeAgainstV070(f *testing.F) {
	for _, seed := range []string{"", "hello world", "  \n\n\t x", "I'm 12345 don't", "日本語のテキスト", "🙂🙂🙂", "a\r\nb", "<|endoftext|>", "ab'LLcd 's"} {
		f.Add(seed)
	}
	v070 := codec.NewCl100kBase()
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			t.Skip("v0.7.0 reads invalid UTF-8 its own way (TestInvalidUTF8)")
		}
		want, _, err := v070.Encode(text)
		if err != nil {
			t.Skip(err)
		}
		got := Encode(text)
		wantInts := make([]int, len(want))
		for i, w := range want {
			wantInts[i] = int(w)
		}
		if !slices.Equal(got, wantInts) {
			t.Fatalf("Encode(%q) = %v, v0.7.0 gives %v", text, got, wantInts)
		}
	})
}
