package steps

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// budgetTable is the steps of the capability budget.
var budgetTable = newTable([]def[budgetSteps]{
	{given, `^the budget conversation: (.+)$`, (*budgetSteps).budgetConversation},
	{given, `^a synthetic conversation of (\d+) turns of (\d+) tokens per message$`, (*budgetSteps).syntheticConversation},
	{given, `^a model "([^"]+)" with a limit of (\d+) tokens$`, (*budgetSteps).extraLimit},
	{when, `^the text ` + quoted + ` is encoded$`, (*budgetSteps).encode},
	{when, `^the tokens are counted$`, (*budgetSteps).countTokens},
	{when, `^the budget is checked for "([^"]+)"$`, (*budgetSteps).check},
	{when, `^the conversation is pruned for "([^"]+)"$`, (*budgetSteps).budgetPruneDefault},
	{when, `^the conversation is pruned for "([^"]+)" with target ratio (\S+)$`, (*budgetSteps).budgetPrune},
	{when, `^the conversation is compressed with a summarizer that (replies|fails with) ` + quoted + `$`, (*budgetSteps).compress},
	{when, `^the request is prepared for "([^"]+)" with a summarizer that (replies|fails with) ` + quoted + `$`, (*budgetSteps).prepare},
	{then, `^the token ids are \[([0-9, ]*)\]$`, (*budgetSteps).tokenIDs},
	{then, `^the count is (\d+) tokens?$`, (*budgetSteps).countIs},
	{then, `^the per-message counts are ([0-9, ]+)$`, (*budgetSteps).perMessage},
	{then, `^the limit is (\d+)$`, (*budgetSteps).limitIs},
	{then, `^it is\s+(not\s+)?approaching the limit$`, (*budgetSteps).approaching},
	{then, `^it is\s+(not\s+)?at the limit$`, (*budgetSteps).atLimit},
	{then, `^the budget keeps messages? ([0-9, \-]+|none)$`, (*budgetSteps).budgetKeeps},
	{then, `^the budget removed messages? ([0-9, \-]+|none)$`, (*budgetSteps).budgetRemoved},
	{then, `^the kept conversation is below (\d+)% of the limit of "([^"]+)"$`, (*budgetSteps).keptBelow},
	{then, `^the (?:compressed|prepared) conversation is:$`, (*budgetSteps).resultIs},
	{then, `^the prepared conversation is messages? ([0-9, \-]+)$`, (*budgetSteps).preparedIs},
	{then, `^summaryFn was given messages? ([0-9, \-]+|none)$`, (*budgetSteps).summaryFnGiven},
	{then, `^summaryFn was called (\d+) times?$`, (*budgetSteps).summaryFnCalls},
	{then, `^the events are:$`, (*budgetSteps).eventsAre},
	{then, `^there are no events$`, (*budgetSteps).noEvents},
	{then, `^the error data has tokenCount (\d+), limit (\d+) and model "([^"]+)"$`, (*budgetSteps).errorData},
})

// budgetSteps are the steps of the capability budget, with the state
// they keep in a scenario.
type budgetSteps struct {
	*world

	limits         map[string]int
	encodeRes      *protocol.TokensEncodeResult
	countRes       *protocol.BudgetCountResult
	checkRes       *protocol.BudgetCheckResult
	budgetPruneRes *protocol.BudgetPruneResult
	budgetMessages []json.RawMessage
	budgetCalls    []protocol.BudgetSummarizerCall
	events         []protocol.Event
	prepared       bool
}

var budgetItem = regexp.MustCompile(`^(system|user|assistant):(\d+)$`)

// budgetMessage is a message of exactly n cl100k tokens: the role is one
// token and " the" repeated k times is k tokens (TOK-2).
func budgetMessage(role string, n int) (json.RawMessage, error) {
	if n < 2 {
		return nil, fmt.Errorf("scenario error: a message needs at least 2 tokens (the role is one)")
	}
	return json.Marshal(map[string]string{"role": role, "content": strings.Repeat(" the", n-1)})
}

func (w *budgetSteps) budgetConversation(list string) error {
	w.input = nil
	for _, item := range strings.Split(list, ",") {
		m := budgetItem.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return fmt.Errorf("scenario error: %q is not role:tokens", item)
		}
		n, _ := strconv.Atoi(m[2])
		msg, err := budgetMessage(m[1], n)
		if err != nil {
			return err
		}
		w.input = append(w.input, msg)
	}
	return nil
}

func (w *budgetSteps) syntheticConversation(turns, perMessage int) error {
	sys, err := budgetMessage("system", perMessage)
	if err != nil {
		return err
	}
	w.input = []json.RawMessage{sys}
	for t := 0; t < turns; t++ {
		for _, role := range []string{"user", "assistant"} {
			m, err := budgetMessage(role, perMessage)
			if err != nil {
				return err
			}
			w.input = append(w.input, m)
		}
	}
	return nil
}

func (w *budgetSteps) extraLimit(model string, n int) error {
	if w.limits == nil {
		w.limits = map[string]int{}
	}
	w.limits[model] = n
	return nil
}

func (w *budgetSteps) encode(text string) error {
	return callInto(w.world, protocol.MethodTokensEncode, protocol.TokensEncodeParams{Text: unquote(text)}, &w.encodeRes)
}

func (w *budgetSteps) countTokens() error {
	return callInto(w.world, protocol.MethodBudgetCount, protocol.BudgetCountParams{Messages: w.nonNilInput()}, &w.countRes)
}

func (w *budgetSteps) check(model string) error {
	return callInto(w.world, protocol.MethodBudgetCheck, protocol.BudgetCheckParams{Messages: w.nonNilInput(), Model: model, Limits: protocol.Counts(w.limits)}, &w.checkRes)
}

func (w *budgetSteps) budgetPruneDefault(model string) error { return w.budgetPruneRaw(model, nil) }

func (w *budgetSteps) budgetPrune(model, ratio string) error {
	return w.budgetPruneRaw(model, json.RawMessage(ratio))
}

func (w *budgetSteps) budgetPruneRaw(model string, ratio json.RawMessage) error {
	return callInto(w.world, protocol.MethodBudgetPrune, protocol.BudgetPruneParams{Messages: w.nonNilInput(), Model: model, Limits: protocol.Counts(w.limits), TargetRatio: ratio}, &w.budgetPruneRes)
}

func script(how, text string) *protocol.SummarizerScript {
	t := unquote(text)
	if how == "replies" {
		return &protocol.SummarizerScript{Reply: &t}
	}
	return &protocol.SummarizerScript{Error: &t}
}

func (w *budgetSteps) compress(how, text string) error {
	var r protocol.BudgetCompressResult
	ok, err := w.callMethod(protocol.MethodBudgetCompress, protocol.BudgetCompressParams{Messages: w.nonNilInput(), Summarizer: script(how, text)}, &r)
	if ok {
		w.budgetMessages, w.budgetCalls = r.Messages, r.SummarizerCalls
	}
	return err
}

func (w *budgetSteps) prepare(model, how, text string) error {
	var r protocol.BudgetPrepareResult
	ok, err := w.callMethod(protocol.MethodBudgetPrepare, protocol.BudgetPrepareParams{Messages: w.nonNilInput(), Model: model, Limits: protocol.Counts(w.limits), Summarizer: script(how, text)}, &r)
	if ok {
		w.budgetMessages, w.budgetCalls, w.events = r.Messages, r.SummarizerCalls, r.Events
		w.prepared = true
	}
	return err
}

// intsAre compares got with the scenario's list of numbers ("1, 2, 3");
// differs says what differs when they do.
func (w *budgetSteps) intsAre(differs string, got []int, list string) error {
	var want []int
	for _, f := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		n, _ := strconv.Atoi(f)
		want = append(want, n)
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return w.differs(deviation.Parts{Want: fmt.Sprint(want), Got: fmt.Sprint(got)}, "%s:\n  wanted %v\n  got    %v", differs, want, got)
	}
	return nil
}

func (w *budgetSteps) tokenIDs(list string) error {
	if err := w.needResult(w.encodeRes != nil, "encoded"); err != nil {
		return err
	}
	if err := w.intsAre("token ids differ", w.encodeRes.Tokens, list); err != nil {
		return err
	}
	if w.encodeRes.Count != len(w.encodeRes.Tokens) {
		return w.failf("count %d does not match the %d ids returned", w.encodeRes.Count, len(w.encodeRes.Tokens))
	}
	return nil
}

func (w *budgetSteps) countIs(n int) error {
	if err := w.needResult(w.countRes != nil, "counted"); err != nil {
		return err
	}
	if w.countRes.Tokens != n {
		return w.failf("the count is %d tokens, want %d (per message: %v)", w.countRes.Tokens, n, w.countRes.PerMessage)
	}
	return nil
}

func (w *budgetSteps) perMessage(list string) error {
	if err := w.needResult(w.countRes != nil, "counted"); err != nil {
		return err
	}
	return w.intsAre("per-message counts differ", w.countRes.PerMessage, list)
}

func (w *budgetSteps) limitIs(n int) error {
	if err := w.needResult(w.checkRes != nil, "checked"); err != nil {
		return err
	}
	if w.checkRes.Limit != n {
		return w.failf("the limit is %d, want %d", w.checkRes.Limit, n)
	}
	return nil
}

func (w *budgetSteps) approaching(not string) error {
	return w.threshold("approaching", func(r *protocol.BudgetCheckResult) bool { return r.Approaching }, not)
}

func (w *budgetSteps) atLimit(not string) error {
	return w.threshold("at_limit", func(r *protocol.BudgetCheckResult) bool { return r.AtLimit }, not)
}

// threshold checks one of budget.check's thresholds (THR-1, THR-2): is
// reads it, and not is the step's "not " or "".
func (w *budgetSteps) threshold(name string, is func(*protocol.BudgetCheckResult) bool, not string) error {
	if err := w.needResult(w.checkRes != nil, "checked"); err != nil {
		return err
	}
	if got, want := is(w.checkRes), strings.TrimSpace(not) == ""; got != want {
		return w.failf("%s is %v for %d tokens of a %d limit, want %v", name, got, w.checkRes.Tokens, w.checkRes.Limit, want)
	}
	return nil
}

func (w *budgetSteps) budgetKeeps(list string) error {
	if err := w.needResult(w.budgetPruneRes != nil, "pruned"); err != nil {
		return err
	}
	return w.compareInput("pruned conversation", w.budgetPruneRes.Messages, list)
}

func (w *budgetSteps) budgetRemoved(list string) error {
	if err := w.needResult(w.budgetPruneRes != nil, "pruned"); err != nil {
		return err
	}
	return w.removedPositions(w.budgetPruneRes.Removed, list)
}

// keptBelow recounts the kept conversation with the implementation's own
// check and compares with the limit.
func (w *budgetSteps) keptBelow(percent int, model string) error {
	if err := w.needResult(w.budgetPruneRes != nil, "pruned"); err != nil {
		return err
	}
	kept := w.budgetPruneRes.Messages
	if len(kept) == 0 || !jsoncmp.Equal(kept[0], w.input[0]) || !jsoncmp.Equal(kept[len(kept)-1], w.input[len(w.input)-1]) {
		return w.failf("pruning must keep the first and the final message")
	}
	saved := w.input
	w.input = kept
	defer func() { w.input = saved }()
	if err := w.check(model); err != nil {
		return err
	}
	if err := w.needResult(w.checkRes != nil, "checked"); err != nil {
		return err
	}
	if 100*w.checkRes.Tokens >= percent*w.checkRes.Limit {
		return w.failf("the kept conversation has %d tokens, not below %d%% of %d", w.checkRes.Tokens, percent, w.checkRes.Limit)
	}
	return nil
}

func (w *budgetSteps) resultIs(doc *godog.DocString) error {
	if w.err != nil {
		return w.failf("the request failed: %v", w.err)
	}
	got, _ := json.Marshal(w.budgetMessages)
	return w.jsonIs("the conversation differs", got, doc)
}

func (w *budgetSteps) preparedIs(list string) error {
	if err := w.needResult(w.prepared, "prepared"); err != nil {
		return err
	}
	return w.compareInput("prepared conversation", w.budgetMessages, list)
}

func (w *budgetSteps) summaryFnGiven(list string) error {
	if w.err != nil && len(w.budgetCalls) == 0 {
		return w.failf("the request failed: %v", w.err)
	}
	if len(w.budgetCalls) != 1 {
		return w.failf("summaryFn should have been called once, it was called %d times", len(w.budgetCalls))
	}
	return w.compareInput("summaryFn's messages", w.budgetCalls[0].Messages, list)
}

func (w *budgetSteps) summaryFnCalls(n int) error {
	var pe *protocol.Error
	if errors.As(w.err, &pe) && pe.Data != nil && pe.Kind() == protocol.KindWindowExhausted {
		if pe.Data.SummarizerCalls == nil || *pe.Data.SummarizerCalls != n {
			got, _ := json.Marshal(pe.Data)
			return w.failf("the exhausted error must report summarizer_calls %d in its data; got %s", n, got)
		}
		return nil
	}
	if len(w.budgetCalls) != n {
		return w.failf("summaryFn was called %d times, want %d", len(w.budgetCalls), n)
	}
	return nil
}

func (w *budgetSteps) eventsAre(doc *godog.DocString) error {
	if err := w.needResult(w.prepared, "prepared"); err != nil {
		return err
	}
	// The events' error is for people (PREP-3): compared by neither the
	// steps nor the replay (jsoncmp.FreeText).
	got, _ := json.Marshal(w.events)
	if !jsoncmp.Equal(jsoncmp.WithoutFreeText("events", got), jsoncmp.WithoutFreeText("events", []byte(doc.Content))) {
		return w.differs(deviation.Parts{Want: oneLine(doc.Content), Got: string(got)}, "events differ:\n  wanted %s\n  got    %s", oneLine(doc.Content), got)
	}
	return nil
}

func (w *budgetSteps) noEvents() error {
	if err := w.needResult(w.prepared, "prepared"); err != nil {
		return err
	}
	if len(w.events) > 0 {
		got, _ := json.Marshal(w.events)
		return w.failf("wanted no events, got %s", got)
	}
	return nil
}

func (w *budgetSteps) errorData(tokens, limit int, model string) error {
	var pe *protocol.Error
	if !errors.As(w.err, &pe) || pe.Data == nil {
		return w.failf("wanted an error with data, got %v", w.err)
	}
	d := pe.Data
	if d.TokenCount == nil || *d.TokenCount != tokens || d.Limit == nil || *d.Limit != limit || d.Model != model {
		got, _ := json.Marshal(d)
		return w.failf("error data differs: wanted tokenCount %d, limit %d, model %q; got %s", tokens, limit, model, got)
	}
	return nil
}
