package steps

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/agentrun"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// loopWorld is the state of the config and loop scenarios.
type loopWorld struct {
	source      *protocol.ConfigSource
	resolveRes  *protocol.ConfigResolveResult
	provider    string
	plan        *agentrun.Plan
	initial     []json.RawMessage
	iterations  []protocol.LoopIteration
	summarizers []protocol.SummarizerScript
	runRes      *protocol.LoopRunResult
}

// loopTable is the steps of the capabilities config and loop.
var loopTable = newTable([]def[world]{
	{given, `^the config file in (YAML|JSON):$`, (*world).configFile},
	{when, `^the config is resolved$`, (*world).resolveConfig},
	{then, `^the resolved config is:$`, (*world).resolvedIs},
	{then, `^max_messages comes from the (default|shorthand|conversation)$`, (*world).maxFrom},
	{diagnostic, `^the config warnings are ([a-z_, ]+|none)$`, (*world).configWarnings},
	{then, `^the error path is "([^"]*)"$`, (*world).errorPath},

	{given, `^an? (OpenAI|Anthropic) run of (\d+) iterations?, each with (\d+) tool turns? of (\d+) parallel calls?\s*(appended one by one)?$`, (*world).syntheticRun},
	{given, `^the (OpenAI|Anthropic) run:$`, (*world).explicitRun},
	{given, `^the summarizer of the run (replies|fails with) "([^"]*)"$`, (*world).runSummarizer},
	{given, `^then (replies|fails with) "([^"]*)"$`, (*world).runSummarizer},
	{when, `^the run is executed$`, (*world).executeRun},
	{then, `^the run made at least (\d+) tool calls$`, (*world).toolCallsAtLeast},
	{then, `^(\d+) model calls were made$`, (*world).modelCalls},
	{then, `^every request is valid for the provider$`, (*world).requestsValid},
	{then, `^every request holds at most (\d+) messages$`, (*world).requestsAtMost},
	{then, `^every handed-on state holds at most (\d+) messages$`, (*world).statesAtMost},
	{then, `^request (\d+) holds (\d+) messages$`, (*world).requestHolds},
	{then, `^request (\d+|last) is numbered iteration (\d+) on the wire$`, (*world).requestNumbered},
	{then, `^iteration (\d+) hands on (\d+) messages$`, (*world).handsOn},
	{then, `^the first message of every request is the first message of the run$`, (*world).firstKept},
	{then, `^every iteration starts from the state the one before handed on$`, (*world).stateCarried},
	{diagnostic, `^the events of iteration (\d+) are:$`, (*world).iterationEvents},
	{diagnostic, `^the events of iteration (\d+) start with "([a-z_]+)"$`, (*world).iterationEventsStart},
	{then, `^the metrics of iteration (\d+) are (\d+) messages and (\d+) estimated tokens$`, (*world).iterationMetrics},
	{then, `^the metrics of every iteration count its handed-on state$`, (*world).metricsCountState},
	{then, `^the run's effective config is:$`, (*world).runConfigIs},
	{then, `^the summarizer was called (\d+) times?$`, (*world).runSummarizerCalls},
	{then, `^some request holds the summary "([^"]*)" right after the first message$`, (*world).summaryInRequest},
	{then, `^no request contains the text "([^"]*)"$`, (*world).noRequestContains},
})

func (w *world) syntheticRun(provider string, iterations, turns, calls int, oneByOne string) error {
	plan := agentrun.Plan{Provider: strings.ToLower(provider), OneByOne: oneByOne != ""}
	for range iterations {
		it := make([]int, turns)
		for t := range it {
			it[t] = calls
		}
		plan.Iterations = append(plan.Iterations, it)
	}
	initial, its, err := agentrun.Build(plan)
	if err != nil {
		return fmt.Errorf("scenario error: %v", err)
	}
	w.loop.provider, w.loop.plan, w.loop.initial, w.loop.iterations = plan.Provider, &plan, initial, its
	return nil
}

func (w *world) explicitRun(provider string, doc *godog.DocString) error {
	var p struct {
		Initial    []json.RawMessage        `json:"initial"`
		Iterations []protocol.LoopIteration `json:"iterations"`
	}
	if err := json.Unmarshal([]byte(doc.Content), &p); err != nil {
		return fmt.Errorf("scenario error: the run is not JSON: %v", err)
	}
	w.loop.provider, w.loop.plan, w.loop.initial, w.loop.iterations = strings.ToLower(provider), nil, p.Initial, p.Iterations
	return nil
}

func (w *world) runSummarizer(how, text string) error {
	t := text
	s := protocol.SummarizerScript{Reply: &t}
	if how == "fails with" {
		s = protocol.SummarizerScript{Error: &t}
	}
	w.loop.summarizers = append(w.loop.summarizers, s)
	return nil
}

func (w *world) executeRun() error {
	if w.loop.source == nil {
		return errors.New("scenario error: no config file was given")
	}
	initial := w.loop.initial
	if initial == nil {
		initial = []json.RawMessage{}
	}
	return callInto(w, protocol.MethodLoopRun, protocol.LoopRunParams{
		Config: w.loop.source, Initial: initial, Iterations: w.loop.iterations, Summarizers: w.loop.summarizers,
	}, &w.loop.runRes)
}

func (w *world) needRun() error { return w.needResult(w.loop.runRes != nil, "run") }

func (w *world) toolCallsAtLeast(n int) error {
	if w.loop.plan == nil {
		return errors.New("scenario error: not a synthetic run")
	}
	if got := w.loop.plan.ToolCalls(); got < n {
		return fmt.Errorf("scenario error: the run has %d tool calls, fewer than %d", got, n)
	}
	return nil
}

func (w *world) modelCalls(n int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	if got := len(w.loop.runRes.Requests); got != n {
		return w.failf("%d model calls were made, want %d (one per turn)", got, n)
	}
	return nil
}

func (w *world) requestsValid() error {
	if err := w.needRun(); err != nil {
		return err
	}
	if len(w.loop.runRes.Requests) == 0 {
		return w.failf("the run sent no request")
	}
	for i, r := range w.loop.runRes.Requests {
		if err := agentrun.Check(r.Messages, w.loop.provider); err != nil {
			return w.failf("request %d (iteration %d) would be rejected by the %s API: %v\n  request: %s", i, r.Iteration, w.loop.provider, err, clip(mustJSON(r.Messages)))
		}
	}
	return nil
}

func (w *world) requestsAtMost(n int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	for i, r := range w.loop.runRes.Requests {
		if len(r.Messages) > n {
			return w.failf("request %d (iteration %d) holds %d messages, more than %d", i, r.Iteration, len(r.Messages), n)
		}
	}
	return nil
}

func (w *world) statesAtMost(n int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	for i, it := range w.loop.runRes.Iterations {
		if len(it.State) > n {
			return w.failf("iteration %d hands on %d messages, more than %d", i, len(it.State), n)
		}
	}
	return nil
}

// requestNumbered checks a request's iteration as loop.run sends it:
// iterations are numbered from 0 on the wire (D-43), while the steps count
// requests and iterations from 1.
func (w *world) requestNumbered(which string, iteration int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	rs := w.loop.runRes.Requests
	i := len(rs)
	if which != "last" {
		i, _ = strconv.Atoi(which)
	}
	if i < 1 || i > len(rs) {
		return w.failf("there is no request %s (%d requests)", which, len(rs))
	}
	if got := rs[i-1].Iteration; got != iteration {
		return w.failf("request %s is numbered iteration %d, want %d: requests[].iteration counts the iterations from 0", which, got, iteration)
	}
	return nil
}

func (w *world) requestHolds(i, n int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	rs := w.loop.runRes.Requests
	if i < 1 || i > len(rs) {
		return w.failf("there is no request %d (%d requests)", i, len(rs))
	}
	if got := len(rs[i-1].Messages); got != n {
		return w.failf("request %d holds %d messages, want %d: %s", i, got, n, clip(mustJSON(rs[i-1].Messages)))
	}
	return nil
}

func (w *world) handsOn(i, n int) error {
	it, err := w.iteration(i)
	if err != nil {
		return err
	}
	if got := len(it.State); got != n {
		return w.failf("iteration %d hands on %d messages, want %d", i, got, n)
	}
	return nil
}

func (w *world) firstKept() error {
	if err := w.needRun(); err != nil {
		return err
	}
	var first json.RawMessage
	switch {
	case len(w.loop.initial) > 0:
		first = w.loop.initial[0]
	case len(w.loop.iterations) > 0:
		first = w.loop.iterations[0].Prompt
	default:
		return errors.New("scenario error: an empty run")
	}
	for i, r := range w.loop.runRes.Requests {
		if len(r.Messages) == 0 || !jsoncmp.Equal(r.Messages[0], first) {
			return w.failf("request %d does not start with the run's first message %s", i, clip(first))
		}
	}
	return nil
}

// stateCarried checks LOOP-3: the first request of every iteration after the
// first is the state the iteration before handed on, plus the new prompt,
// trimmed — so a subsequence of it that ends with the prompt, and exactly it
// when that fits the cap.
func (w *world) stateCarried() error {
	if err := w.needRun(); err != nil {
		return err
	}
	res := w.loop.runRes
	if len(res.Iterations) != len(w.loop.iterations) {
		return w.failf("the run returned %d iterations, want %d", len(res.Iterations), len(w.loop.iterations))
	}
	max := res.Config.MaxMessages
	for i := 1; i < len(res.Iterations); i++ {
		first := -1
		for k, r := range res.Requests {
			if r.Iteration == i {
				first = k
				break
			}
		}
		if first < 0 {
			return w.failf("iteration %d sent no request", i)
		}
		before := append(slices.Clone(res.Iterations[i-1].State), w.loop.iterations[i].Prompt)
		got := res.Requests[first].Messages
		if max == 0 || len(before) <= max {
			if !jsoncmp.Equal(mustJSON(got), mustJSON(before)) {
				return w.differs(deviation.Parts{Want: clip(mustJSON(before)), Got: clip(mustJSON(got))}, "iteration %d's first request is not iteration %d's state plus the prompt:\n  wanted %s\n  got    %s", i, i-1, clip(mustJSON(before)), clip(mustJSON(got)))
			}
			continue
		}
		if len(got) == 0 || !jsoncmp.Equal(got[len(got)-1], w.loop.iterations[i].Prompt) {
			return w.failf("iteration %d's first request does not end with its prompt", i)
		}
		if !subsequence(got, before) {
			return w.failf("iteration %d's first request holds messages that are not in iteration %d's state: %s", i, i-1, clip(mustJSON(got)))
		}
	}
	return nil
}

// subsequence reports whether got is before with some messages left out, a
// summary (an assistant message starting "[Conversation Summary]") aside.
func subsequence(got, before []json.RawMessage) bool {
	j := 0
	for _, m := range got {
		if isSummary(m) {
			continue
		}
		for j < len(before) && !jsoncmp.Equal(before[j], m) {
			j++
		}
		if j == len(before) {
			return false
		}
		j++
	}
	return true
}

func isSummary(m json.RawMessage) bool {
	var v struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	_ = json.Unmarshal(m, &v)
	s, _ := v.Content.(string)
	return v.Role == "assistant" && strings.HasPrefix(s, "[Conversation Summary]")
}

func (w *world) iteration(i int) (*protocol.LoopIterationResult, error) {
	if err := w.needRun(); err != nil {
		return nil, err
	}
	its := w.loop.runRes.Iterations
	if i < 1 || i > len(its) {
		return nil, w.failf("there is no iteration %d (%d iterations)", i, len(its))
	}
	return &its[i-1], nil
}

func (w *world) iterationEvents(i int, table *godog.Table) error {
	it, err := w.iteration(i)
	if err != nil {
		return err
	}
	var want []protocol.Warning
	for _, row := range table.Rows[1:] {
		want = append(want, protocol.Warning{Code: row.Cells[0].Value, Message: row.Cells[1].Value})
	}
	// A warning passed on has a message for people; only LOOP-4's and
	// LOOP-5's texts are compared (jsoncmp.FreeText).
	fixed := func(evs []protocol.Warning) []protocol.Warning {
		out := slices.Clone(evs)
		for i := range out {
			if !slices.Contains(jsoncmp.LoopFixedTexts, out[i].Code) {
				out[i].Message = ""
			}
		}
		return out
	}
	if !slices.Equal(fixed(it.Events), fixed(want)) {
		return w.differs(deviation.Parts{Want: string(mustJSON(want)), Got: string(mustJSON(it.Events))}, "the events of iteration %d differ:\n  wanted %s\n  got    %s", i, mustJSON(want), mustJSON(it.Events))
	}
	return nil
}

func (w *world) iterationEventsStart(i int, code string) error {
	it, err := w.iteration(i)
	if err != nil {
		return err
	}
	if len(it.Events) == 0 || it.Events[0].Code != code {
		return w.failf("the events of iteration %d should start with %q: %s", i, code, mustJSON(it.Events))
	}
	return nil
}

func (w *world) iterationMetrics(i, count, tokens int) error {
	it, err := w.iteration(i)
	if err != nil {
		return err
	}
	if it.Metrics.MessageCount != count || it.Metrics.EstimatedTokens != tokens {
		return w.failf("iteration %d's metrics are %s, want messageCount %d and estimatedTokens %d", i, mustJSON(it.Metrics), count, tokens)
	}
	return nil
}

func (w *world) metricsCountState() error {
	if err := w.needRun(); err != nil {
		return err
	}
	for i, it := range w.loop.runRes.Iterations {
		if it.Metrics.MessageCount != len(it.State) {
			return w.failf("iteration %d's messageCount is %d but it hands on %d messages", i, it.Metrics.MessageCount, len(it.State))
		}
	}
	return nil
}

func (w *world) runConfigIs(doc *godog.DocString) error {
	if err := w.needRun(); err != nil {
		return err
	}
	got, _ := json.Marshal(w.loop.runRes.Config)
	return w.jsonIs("the run's effective config differs", got, doc)
}

func (w *world) runSummarizerCalls(n int) error {
	if err := w.needRun(); err != nil {
		return err
	}
	if got := len(w.loop.runRes.SummarizerCalls); got != n {
		return w.failf("the summarizer was called %d times, want %d", got, n)
	}
	return nil
}

func (w *world) summaryInRequest(text string) error {
	if err := w.needRun(); err != nil {
		return err
	}
	want := mustJSON(map[string]string{"role": "assistant", "content": "[Conversation Summary]\n" + text})
	for _, r := range w.loop.runRes.Requests {
		if len(r.Messages) > 1 && jsoncmp.Equal(r.Messages[1], want) {
			return nil
		}
	}
	return w.failf("no request holds the summary %s right after its first message", want)
}

func (w *world) noRequestContains(text string) error {
	if err := w.needRun(); err != nil {
		return err
	}
	for i, r := range w.loop.runRes.Requests {
		if b := mustJSON(r.Messages); strings.Contains(string(b), text) {
			return w.failf("request %d contains %q: %s", i, text, clip(b))
		}
	}
	for i, it := range w.loop.runRes.Iterations {
		if b := mustJSON(it.State); strings.Contains(string(b), text) {
			return w.failf("the state of iteration %d contains %q", i, text)
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("<%v>", err))
	}
	return b
}
