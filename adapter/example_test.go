package adapter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
)

// runeTokenizer stands in for a library's tokenizer: one id per character.
// (A real cl100k tokenizer passes TOK-1; this one would not.)
type runeTokenizer struct{}

func (runeTokenizer) Encode(text string) ([]int, error) {
	ids := make([]int, 0, utf8.RuneCountInString(text))
	for _, r := range text {
		ids = append(ids, int(r))
	}
	return ids, nil
}

// Serve answers the protocol on any reader and writer; Main does the same
// on stdin and stdout. The capabilities the handshake declares follow from
// the interfaces Impl implements: here Tokenizer, so tokens.cl100k.
func ExampleServe() {
	requests := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1,"suite":"convspec"}}
{"jsonrpc":"2.0","id":2,"method":"tokens.encode","params":{"text":"hi"}}
{"jsonrpc":"2.0","id":3,"method":"shutdown"}
`)
	impl := adapter.Implementation{Name: "mylib", Version: "1.2.0", Impl: runeTokenizer{}}
	if err := adapter.Serve(context.Background(), impl, requests, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocol":1,"implementation":{"name":"mylib","version":"1.2.0"},"capabilities":["tokens.cl100k"]}}
	// {"jsonrpc":"2.0","id":2,"result":{"tokens":[104,105],"count":2}}
	// {"jsonrpc":"2.0","id":3,"result":null}
}

// InProcess gives the same implementation to the suite, or to one's own
// tests, as a target without a process; params and results still travel as
// JSON.
func ExampleInProcess() {
	tg, err := adapter.InProcess(adapter.Implementation{Name: "mylib", Version: "1.2.0", Impl: runeTokenizer{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tg.Close()
	fmt.Println(tg.Info().Name, tg.Info().Capabilities)
	raw, err := tg.Call(context.Background(), "tokens.encode", map[string]string{"text": "ok"})
	fmt.Println(string(raw), err)
	// Output:
	// mylib [tokens.cl100k]
	// {"tokens":[111,107],"count":2} <nil>
}

// A declaration the suite refuses (ANY-10) is an error before any request:
// here a token bound that names no counter.
func ExampleInProcess_refusedDeclaration() {
	keepAll := func(_ context.Context, messages []json.RawMessage, _ int) ([]json.RawMessage, error) {
		return messages, nil
	}
	_, err := adapter.InProcess(adapter.Implementation{
		Name: "mylib", Version: "1.2.0",
		Trimmers: []adapter.Trimmer{{
			TrimmerDecl: protocol.TrimmerDecl{Name: "last-4k", Bound: "tokens", Guarantees: []string{"bound"}},
			Trim:        keepAll,
		}},
	})
	fmt.Println(err)
	// Output:
	// adapter: Implementation.Trimmers: trimmers[0].counter must be "cl100k", "chars4" or "native" for a token bound, got ""
}
