package mutants

// Each outsider variant deviates from the reference on the input its
// comment names: a variant that cannot be shown deviating is not a bug.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/tokens"
)

type call struct {
	method string
	params string
}

func msg(role, content string) string {
	b, _ := json.Marshal(map[string]string{"role": role, "content": content})
	return string(b)
}

func toks(raw string) int {
	m, err := message.Parse([]byte(raw))
	if err != nil {
		panic(err)
	}
	return budget.MessageTokens(m)
}

func plainConv(n int) string {
	var ms []string
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		ms = append(ms, msg(role, fmt.Sprintf("m%d", i)))
	}
	return "[" + strings.Join(ms, ",") + "]"
}

func runCalls(e server.Engine, calls []call) string {
	h := server.NewHandler(e)
	var out []string
	for _, c := range calls {
		res, err := h.Handle(context.Background(), c.method, json.RawMessage(c.params))
		b, _ := json.Marshal(res)
		out = append(out, fmt.Sprintf("%s => %s err=%v", c.method, b, err))
	}
	return strings.Join(out, "\n")
}

func TestOutsiderDeviates(t *testing.T) {
	u := msg("user", "hello world")
	c := toks(u)
	four := "[" + strings.Repeat(u+",", 3) + u + "]"
	// hard limit: C = ceil(0.95L) with frac >= .5
	hardL, hardC := 0, 0
	for L := 20; L < 400; L++ {
		x := 0.95 * float64(L)
		if x-math.Floor(x) >= 0.5 {
			C := int(math.Ceil(x))
			if C%c == 0 {
				hardL, hardC = L, C
				break
			}
		}
	}
	hardMsgs := "[" + strings.TrimSuffix(strings.Repeat(u+",", hardC/c), ",") + "]"
	// prune: [u0 a1 u2 a3 u4] of equal counts; after removing a1, total 4c = 80 %
	a := msg("assistant", "hello world")
	five := "[" + strings.Join([]string{u, a, u, a, u}, ",") + "]"
	prepMsgs := "[" + strings.Join([]string{u, a, u, a, u, a, u, a, u, a, u}, ",") + "]"
	big := msg("system", strings.Repeat("word ", 400))
	toolConv := `[{"role":"system","content":"s"},{"role":"user","content":"q"},{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"ls","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}]`
	fail := `{"error":"rate limited"}`
	ok := `{"reply":"S"}`
	sumCfg := `{"config":{"max_messages":12,"summarize_on_trim":true,"preserve_first_n":1,"preserve_last_n":1}}`
	blank := func(n int, text string) string {
		ms := []string{msg("system", "sys")}
		for i := range n {
			if i%2 == 0 {
				ms = append(ms, msg("user", text))
			} else {
				ms = append(ms, msg("assistant", text))
			}
		}
		return "[" + strings.Join(ms, ",") + "]"
	}
	loopCfg := func(cfg string) string {
		b, _ := json.Marshal(map[string]string{"format": "json", "text": cfg})
		return string(b)
	}
	cases := map[string][]call{
		"outsider-budget-approaching-inclusive":            {{"budget.check", fmt.Sprintf(`{"messages":%s,"model":"m","limits":{"m":%d}}`, four, 5*c)}},
		"outsider-budget-hard-limit-rounded":               {{"budget.check", fmt.Sprintf(`{"messages":%s,"model":"m","limits":{"m":%d}}`, hardMsgs, hardL)}},
		"outsider-budget-null-tool-calls-counted":          {{"budget.count", `{"messages":[{"role":"assistant","content":"hi","tool_calls":null}]}`}},
		"outsider-budget-tool-result-array-as-json":        {{"budget.count", `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"hello world"}]}]}]}`}},
		"outsider-budget-prune-stops-at-target":            {{"budget.prune", fmt.Sprintf(`{"messages":%s,"model":"m","limits":{"m":%d}}`, five, 5*c)}},
		"outsider-budget-compress-last-user-role":          {{"budget.compress", `{"messages":` + toolConv + `,"summarizer":` + ok + `}`}},
		"outsider-budget-prepare-no-recheck-after-failure": {{"budget.prepare", fmt.Sprintf(`{"messages":[%s,%s,%s],"model":"m","limits":{"m":%d},"summarizer":%s}`, big, u, u, toks(big)+2, fail)}},
		"outsider-budget-zero-limit-accepted":              {{"budget.check", `{"messages":[` + u + `],"model":"m","limits":{"m":0}}`}},
		"outsider-budget-event-count-after-prune":          {{"budget.prepare", fmt.Sprintf(`{"messages":%s,"model":"m","limits":{"m":%d},"summarizer":%s}`, prepMsgs, 11*c*100/90, ok)}},
		"outsider-history-prune-any-role-ends-run":         {{"history.prune", `{"messages":[` + msg("user", "a") + `,` + msg("system", "s") + `,` + msg("user", "b") + `,` + msg("assistant", "c") + `]}`}},
		"outsider-history-build-one-system-message":        {{"history.build", `{"max_messages":2,"messages":[` + strings.Join([]string{msg("system", "a"), msg("system", "b"), msg("user", "c"), msg("assistant", "d"), msg("user", "e"), msg("assistant", "f")}, ",") + `]}`}},
		"outsider-history-empty-tool-calls-is-call":        {{"history.classify", `{"messages":[{"role":"assistant","content":"hi","tool_calls":[]}]}`}},
		"outsider-history-developer-is-other":              {{"history.classify", `{"messages":[{"role":"developer","content":"be brief"}]}`}},
		"outsider-history-window-strict-fit":               {{"history.build", `{"max_messages":3,"messages":` + plainConv(5) + `}`}},
		"outsider-config-null-shorthand-is-zero":           {{"config.resolve", `{"config":` + loopCfg(`{"execution":{"max_conversation_messages":null}}`) + `}`}},
		"outsider-config-null-block-max-overrides":         {{"config.resolve", `{"config":` + loopCfg(`{"execution":{"max_conversation_messages":30,"conversation":{"max_messages":null}}}`) + `}`}},
		"outsider-config-yaml11-booleans":                  {{"config.resolve", `{"config":{"format":"yaml","text":"execution:\n  conversation:\n    summarize_on_trim: yes\n"}}`}},
		"outsider-config-null-execution-rejected":          {{"config.resolve", `{"config":` + loopCfg(`{"execution":null}`) + `}`}},
		"outsider-config-override-warning-when-equal":      {{"config.resolve", `{"config":` + loopCfg(`{"execution":{"max_conversation_messages":50,"conversation":{"max_messages":50}}}`) + `}`}},
		"outsider-loop-approaching-inclusive":              {{"loop.run", `{"config":` + loopCfg(`{"execution":{"max_conversation_messages":10}}`) + `,"initial":` + plainConv(7) + `,"iterations":[{"prompt":` + msg("user", "p") + `,"turns":[]}]}`}},
		"outsider-loop-raised-when-disabled":               {{"loop.run", `{"config":` + loopCfg(`{"execution":{"conversation":{"max_messages":0,"preserve_first_n":0}}}`) + `,"initial":[],"iterations":[{"prompt":` + msg("user", "p") + `,"turns":[]}]}`}},
		"outsider-loop-raised-every-iteration":             {{"loop.run", `{"config":` + loopCfg(`{"execution":{"conversation":{"max_messages":10,"preserve_first_n":0}}}`) + `,"initial":[],"iterations":[{"prompt":` + msg("user", "p") + `,"turns":[]},{"prompt":` + msg("user", "q") + `,"turns":[]}]}`}},
		"outsider-loop-no-final-trim":                      {{"loop.run", `{"config":` + loopCfg(`{"execution":{"conversation":{"max_messages":4,"preserve_last_n":1}}}`) + `,"initial":` + plainConv(2) + `,"iterations":[{"prompt":` + msg("user", "p") + `,"turns":[{"response":{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},"results":[{"role":"tool","tool_call_id":"c","content":"r"}]}]}]}`}},
		"outsider-tokens-unicode-line-breaks":              {{"tokens.encode", `{"text":"x \u2028y"}`}},
		"outsider-tokens-ascii-whitespace":                 {{"tokens.encode", `{"text":"a\u3000\u3000b"}`}},
		"outsider-tokens-case-sensitive-contractions":      {{"tokens.encode", `{"text":"'She"}`}},
		"outsider-tokens-decimal-digits-only":              {{"tokens.encode", `{"text":"x²³⁴⁵ ⅫⅫ"}`}},
		"outsider-window-cap-plus-one-kept":                {{"window.create", `{"config":{"max_messages":5,"preserve_last_n":2}}`}, {"window.trim", `{"window":"w1","messages":` + plainConv(6) + `}`}},
		"outsider-window-estimate-code-points":             {{"window.estimate", `{"messages":[` + msg("user", "😀😀😀") + `]}`}},
		"outsider-window-estimate-skips-combining-marks":   {{"window.estimate", `{"messages":[` + msg("user", "e\u0301e\u0301e\u0301e\u0301e\u0301") + `]}`}},
		"outsider-window-estimate-null-as-text":            {{"window.estimate", `{"messages":[{"role":"user","content":"abcd"},{"role":"assistant","content":null}]}`}},
		"outsider-window-preserve-warning-strict":          {{"window.create", `{"config":{"max_messages":21}}`}},
		"outsider-window-null-max-disables":                {{"window.create", `{"config":{"max_messages":null}}`}},
		"outsider-sum-failure-forgets-pending": {{"window.create", sumCfg},
			{"window.trim", `{"window":"w1","messages":` + blank(23, "text") + `,"summarizer":` + fail + `}`},
			{"window.trim", `{"window":"w1","messages":` + blank(13, "text") + `,"summarizer":` + ok + `}`}},
		"outsider-sum-every-exclusive":              {{"window.create", sumCfg}, {"window.trim", `{"window":"w1","messages":` + blank(20, "text") + `,"summarizer":` + ok + `}`}},
		"outsider-sum-ascii-blank-is-text":          {{"window.create", sumCfg}, {"window.trim", `{"window":"w1","messages":` + blank(25, "\u3000") + `,"summarizer":` + ok + `}`}},
		"outsider-sum-ascii-trim-reply":             {{"window.summarize", `{"messages":[` + u + `],"summarizer":{"reply":"\u00a0"}}`}},
		"outsider-sum-tool-use-input-null":          {{"window.summarize", `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"ls"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"}]}],"summarizer":` + ok + `}`}},
		"outsider-sum-tool-result-blocks-as-json":   {{"window.summarize", `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"ls","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"ok"}]}]}],"summarizer":` + ok + `}`}},
		"outsider-sum-summary-before-head":          {{"window.create", sumCfg}, {"window.trim", `{"window":"w1","messages":` + blank(25, "text") + `,"summarizer":` + ok + `}`}},
		"outsider-tokens-utf8-plane-edge":           {{"tokens.encode", `{"text":"\uffff"}`}},
		"outsider-estimate-bmp-edge":                {{"window.estimate", `{"messages":[{"role":"user","content":"\uffff\uffff\uffff\uffff\uffff"}]}`}},
		"outsider-budget-tool-calls-assistant-only": {{"budget.count", `{"messages":[{"role":"user","content":"x","tool_calls":[{"id":"u","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`}},
		"outsider-config-yaml11-octal":              {{"config.resolve", `{"config":{"format":"yaml","text":"execution: {max_conversation_messages: 010}"}}`}},
		"outsider-sum-first-duplicate-member":       {{"window.summarize", `{"messages":[{"role":"user","content":"draft","content":"fix it"}],"summarizer":` + ok + `}`}},
	}
	for _, m := range outsiderMutants() {
		calls, okc := cases[m.Name]
		if !okc {
			t.Errorf("%s: no input", m.Name)
			continue
		}
		ref, mut := runCalls(server.Reference{}, calls), runCalls(m.Engine, calls)
		if ref == mut {
			t.Errorf("%s: no deviation:\n%s", m.Name, ref)
		} else if testing.Verbose() {
			t.Logf("%s\nREF %s\nMUT %s", m.Name, ref, mut)
		}
	}
	// the token variants agree with the reference on ordinary text
	for _, m := range outsiderTokenMutants() {
		text := `{"text":"Hello, world! It's 2024: the quick brown fox\n\tjumps over 12345 lazy dogs. 😀 ünïcödé"}`
		if r, x := runCalls(server.Reference{}, []call{{"tokens.encode", text}}), runCalls(m.Engine, []call{{"tokens.encode", text}}); r != x {
			t.Errorf("%s differs on ordinary text:\n%s\n%s", m.Name, r, x)
		}
	}
}

// TestOutsiderEncoderAgreesOffItsBug: the outsider encoder with
// cl100k_base's own pattern encodes as the reference does, the second time
// (its pieces remembered) as the first: the variants deviate by their
// pattern alone.
func TestOutsiderEncoderAgreesOffItsBug(t *testing.T) {
	enc := outsiderEncoder(outsiderCl100k)
	texts := []string{
		"Hello, world! Hello again, worlds.", "unbelievable reconfigurations of 12345 things",
		"naïve café — ünïcödé", "  spaces\tand\nlines\r\n", "tokenization tokenization tokenize",
	}
	for round := range 2 {
		for _, text := range texts {
			if got, want := enc(text), tokens.Encode(text); !slices.Equal(got, want) {
				t.Errorf("round %d: %q encodes to %v, the reference to %v", round, text, got, want)
			}
		}
	}
}
