package tokens

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

var writeRanks = flag.Bool("tokens.write-ranks", false, "write cl100k_base.ranks from tiktoken-go's codec")

// codecRanks is cl100k_base.ranks as tiktoken-go v0.7.0's codec gives the
// vocabulary: Decode of each id is the token's bytes.
func codecRanks(t *testing.T) []byte {
	c := codec.NewCl100kBase()
	var out []byte
	for id := range vocabularySize {
		b, err := c.Decode([]uint{uint(id)})
		if err != nil {
			t.Fatalf("the codec has no token %d: %v", id, err)
		}
		if len(b) == 0 || len(b) > 255 {
			t.Fatalf("token %d is %d bytes: the file's length byte cannot hold it", id, len(b))
		}
		out = append(append(out, byte(len(b))), b...)
	}
	return out
}

// TestRanksFile: the embedded vocabulary is tiktoken-go's, token for token
// and in rank order; -tokens.write-ranks writes it anew.
func TestRanksFile(t *testing.T) {
	want := codecRanks(t)
	if *writeRanks {
		if err := os.WriteFile("cl100k_base.ranks", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal([]byte(cl100kRanks), want) {
		i := 0
		for i < min(len(want), len(cl100kRanks)) && want[i] == cl100kRanks[i] {
			i++
		}
		t.Fatalf("cl100k_base.ranks (%d bytes) differs from tiktoken-go's vocabulary (%d bytes) from byte %d: run go test ./reference/tokens -run TestRanksFile -args -tokens.write-ranks", len(cl100kRanks), len(want), i)
	}
}
