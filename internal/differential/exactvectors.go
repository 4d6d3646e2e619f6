package differential

// Exact token vectors: tokens.encode and budget.count checked on the
// golden cases and a few thousand generated texts whose ids npm tiktoken
// gave when the corpus was generated (internal/tokenvectors). They are
// fixed examples, the same in every run; no seed is involved.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/tokenvectors"
)

// countBatch is how many messages one budget.count request carries.
const countBatch = 100

func exactVectorProperties() []prop.Property {
	return []prop.Property{
		{
			ID: "prop/tokens-exact-vectors", Clauses: []string{"TOK-1"}, Capability: protocol.CapTokens, Differential: true,
			Doc:      "tokens.encode gives npm tiktoken's cl100k_base ids for every golden text and a few thousand generated texts (every Unicode category, white-space runs, contractions, digit runs)",
			Examples: []prop.Example{{Name: "token vectors", Run: checkEncodeVectors}},
			Cost:     5, // 3,093 requests in one example, which cannot be split
		},
		{
			ID: "prop/budget-exact-counts", Clauses: []string{"TOK-2", "TOK-3"}, Capability: protocol.CapBudget, Differential: true,
			Doc:      "budget.count gives every user message of a golden or generated text the tokens of its role and text (TOK-2), and their sum (TOK-3)",
			Examples: []prop.Example{{Name: "token vectors", Run: checkCountVectors}},
		},
	}
}

func loadVectors(f prop.Failer) tokenvectors.Corpus {
	c, err := tokenvectors.Load()
	if err != nil {
		f.Fatalf("%v", err)
	}
	return c
}

// mismatches collects the texts an implementation gets wrong.
type mismatches struct {
	n     int
	shown []string
}

func (m *mismatches) add(line string) {
	m.n++
	if len(m.shown) < 3 {
		m.shown = append(m.shown, line)
	}
}

func (m *mismatches) fail(f prop.Failer, clause string, total int, what string) {
	f.Helper()
	if m.n > 0 {
		f.Fatalf("%s: %s differs from npm tiktoken's on %d of %d texts; the first:\n  %s", clause, what, m.n, total, strings.Join(m.shown, "\n  "))
	}
}

func checkEncodeVectors(f prop.Failer, tg target.Target) {
	c := loadVectors(f)
	var bad mismatches
	for _, k := range c.Cases {
		raw, err := tg.Call(context.Background(), protocol.MethodTokensEncode, protocol.TokensEncodeParams{Text: k.Text})
		if err != nil {
			f.Fatalf("TOK-1: tokens.encode %s failed: %v", excerptText(k.Text), err)
		}
		var res protocol.TokensEncodeResult
		if err := target.DecodeResult(protocol.MethodTokensEncode, raw, &res); err != nil {
			f.Fatalf("TOK-1: tokens.encode answered with a result that is not protocol v1: %v", err)
		}
		switch {
		case !slices.Equal(res.Tokens, k.Tokens):
			i := 0
			for i < min(len(res.Tokens), len(k.Tokens)) && res.Tokens[i] == k.Tokens[i] {
				i++
			}
			bad.add(fmt.Sprintf("%s %s: ids differ from index %d: want %s, got %s", k.ID, excerptText(k.Text), i, idsFrom(k.Tokens, i), idsFrom(res.Tokens, i)))
		case res.Count != len(k.Tokens):
			bad.add(fmt.Sprintf("%s %s: count %d, want %d (the number of ids)", k.ID, excerptText(k.Text), res.Count, len(k.Tokens)))
		}
	}
	bad.fail(f, "TOK-1", len(c.Cases), "tokens.encode")
}

func checkCountVectors(f prop.Failer, tg target.Target) {
	c := loadVectors(f)
	var bad mismatches
	sumBad := ""
	for start := 0; start < len(c.Cases); start += countBatch {
		batch := c.Cases[start:min(start+countBatch, len(c.Cases))]
		msgs := make([]json.RawMessage, len(batch))
		want := 0
		for i, k := range batch {
			msgs[i] = gen.MustJSON(map[string]string{"role": "user", "content": k.Text})
			want += c.RoleUserTokens + len(k.Tokens)
		}
		raw, err := tg.Call(context.Background(), protocol.MethodBudgetCount, protocol.BudgetCountParams{Messages: msgs})
		if err != nil {
			f.Fatalf("TOK-2: budget.count of %d user messages failed: %v", len(msgs), err)
		}
		var res protocol.BudgetCountResult
		if err := target.DecodeResult(protocol.MethodBudgetCount, raw, &res); err != nil {
			f.Fatalf("TOK-2: budget.count answered with a result that is not protocol v1: %v", err)
		}
		if len(res.PerMessage) != len(batch) {
			f.Fatalf("TOK-2: budget.count of %d messages gave %d per-message counts", len(batch), len(res.PerMessage))
		}
		for i, k := range batch {
			if w := c.RoleUserTokens + len(k.Tokens); res.PerMessage[i] != w {
				bad.add(fmt.Sprintf("%s {\"role\":\"user\",\"content\":%s}: %d, want %d (%d for the role, %d for the text)", k.ID, excerptText(k.Text), res.PerMessage[i], w, c.RoleUserTokens, len(k.Tokens)))
			}
		}
		if res.Tokens != want && sumBad == "" {
			sumBad = fmt.Sprintf("TOK-3: budget.count's tokens is %d for messages whose counts sum to %d (texts %s to %s)", res.Tokens, want, batch[0].ID, batch[len(batch)-1].ID)
		}
	}
	bad.fail(f, "TOK-2", len(c.Cases), "budget.count's per-message count")
	if sumBad != "" {
		f.Fatalf("%s", sumBad)
	}
}

func excerptText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return strconv.Quote(string(r[:40])) + fmt.Sprintf("… (%d characters)", len(r))
	}
	return strconv.Quote(s)
}

func idsFrom(ids []int, i int) string {
	end := min(len(ids), i+6)
	if i >= len(ids) {
		return "[] (the list ends)"
	}
	out := fmt.Sprint(ids[i:end])
	if end < len(ids) {
		out = strings.TrimSuffix(out, "]") + " …]"
	}
	return out
}
