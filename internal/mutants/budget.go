package mutants

// Faulty variants of the capability budget: token counts, thresholds,
// budget pruning and compression.

import (
	"context"
	"strings"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

// anyModel returns a registry in which every model name resolves, as if
// the map lookup had a default.
func anyModel(l budget.Limits) budget.Limits {
	for _, m := range []string{"gpt-5-turbo-preview", "no-such-model"} {
		if _, ok := l[m]; !ok {
			l[m] = 128_000
		}
	}
	return l
}

// tokenMutant is the reference with tokens.encode replaced.
type tokenMutant struct {
	server.Reference
	encode func(string) []int
}

func (tokenMutant) Name() string { return "convspec-mutant" }

func (t tokenMutant) EncodeTokens(text string) []int { return t.encode(text) }

// cl100kSpecials are cl100k_base's special tokens.
var cl100kSpecials = map[string]int{
	"<|endoftext|>":   100257,
	"<|fim_prefix|>":  100258,
	"<|fim_middle|>":  100259,
	"<|fim_suffix|>":  100260,
	"<|endofprompt|>": 100276,
}

// encodeWithSpecials encodes the text between special-token texts as
// ordinary text and each special-token text as its special token.
func encodeWithSpecials(text string) []int {
	ids := []int{}
	for len(text) > 0 {
		at, which := len(text), ""
		for s := range cl100kSpecials {
			if i := strings.Index(text, s); i >= 0 && (i < at || i == at && s < which) {
				at, which = i, s
			}
		}
		ids = append(ids, tokens.Encode(text[:at])...)
		if which == "" {
			break
		}
		ids = append(ids, cl100kSpecials[which])
		text = text[at+len(which):]
	}
	return ids
}

// compressMutant is the reference with budget.compress replaced.
type compressMutant struct {
	server.Reference
	compress func(context.Context, []message.Message, budget.Summarizer) ([]message.Message, error)
}

func (compressMutant) Name() string { return "convspec-mutant" }

func (c compressMutant) Compress(ctx context.Context, msgs []message.Message, s budget.Summarizer) ([]message.Message, error) {
	return c.compress(ctx, msgs, s)
}

// placeholderOnFailure answers for a failing summaryFn.
type placeholderOnFailure struct{ budget.Summarizer }

func (p placeholderOnFailure) Summarize(ctx context.Context, msgs []message.Message) (string, error) {
	text, err := p.Summarizer.Summarize(ctx, msgs)
	if err != nil {
		return "[Earlier conversation omitted: summary unavailable]", nil
	}
	return text, nil
}

// messageByMessagePrune removes single messages after the first, oldest
// first, before the final one, blind to units.
func messageByMessagePrune(msgs []message.Message, limit, percent int) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, limit, percent)
	}
	total := budget.Count(msgs)
	var removed []int
	for i := 1; i < len(msgs)-1 && 100*total >= percent*limit; i++ {
		total -= budget.MessageTokens(msgs[i])
		removed = append(removed, i)
	}
	return dropIndexes(msgs, removed), removed, nil
}

// pruneUntil removes whole units as the reference does, oldest first
// after the first message's unit and before the final one, and stops
// before the n-th (0-based) when done(count, n) holds of the count left.
func pruneUntil(msgs []message.Message, done func(count, n int) bool) ([]message.Message, []int, error) {
	if len(msgs) == 0 {
		return budget.Prune(msgs, 1, 80) // the reference's error for no messages
	}
	units, err := message.Units(msgs)
	if err != nil {
		return nil, nil, err
	}
	total := budget.Count(msgs)
	var removed []int
	for n, u := range units[min(1, len(units)):max(1, len(units)-1)] {
		if done(total, n) {
			break
		}
		for i := u.Start; i < u.End; i++ {
			total -= budget.MessageTokens(msgs[i])
			removed = append(removed, i)
		}
	}
	return dropIndexes(msgs, removed), removed, nil
}
