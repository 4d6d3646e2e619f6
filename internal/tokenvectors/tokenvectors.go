// Package tokenvectors holds exact cl100k_base token vectors for conform:
// the golden cases of testdata/golden/tokens and a few thousand generated
// texts that reach the pre-tokenizer's corners, every one with the ids npm
// tiktoken gives it, computed when the file was generated
// (testdata/golden/gen/tokens/corpus.mjs, `make token-vectors`) and
// embedded here, so that checking them needs neither Node nor the network.
package tokenvectors

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
)

//go:embed corpus.json.gz
var corpus []byte

// Case is one text and its token ids.
type Case struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Tokens []int  `json:"tokens"`
}

// Corpus is the embedded file.
type Corpus struct {
	GeneratedBy string `json:"generated_by"`
	Encoding    string `json:"encoding"`
	// RoleUserTokens is the number of tokens of the role "user", which
	// TOK-2 adds to a message's content.
	RoleUserTokens int    `json:"role_user_tokens"`
	Cases          []Case `json:"cases"`
}

// Load decodes the embedded corpus.
func Load() (Corpus, error) {
	zr, err := gzip.NewReader(bytes.NewReader(corpus))
	if err != nil {
		return Corpus{}, fmt.Errorf("token vectors: %w", err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		return Corpus{}, fmt.Errorf("token vectors: %w", err)
	}
	var c Corpus
	if err := json.Unmarshal(b, &c); err != nil {
		return Corpus{}, fmt.Errorf("token vectors: %w", err)
	}
	if len(c.Cases) == 0 || c.RoleUserTokens <= 0 {
		return Corpus{}, fmt.Errorf("token vectors: the embedded corpus is empty")
	}
	return c, nil
}
