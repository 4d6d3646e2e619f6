// Package steps defines the Gherkin steps of features/ over a target.Target.
// Each scenario gets a fresh world; the target is shared, so a whole run
// talks to one implementation process.
package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoneq"
)

// The step patterns of Register, compiled once: godog uses a
// *regexp.Regexp as given but compiles a string pattern at every
// registration, that is for every scenario.
var (
	createWindowDefaultRe          = regexp.MustCompile(`^a window with the default config$`)
	createWindowDocRe              = regexp.MustCompile(`^a window with config:$`)
	createWindowNumbersRe          = regexp.MustCompile(`^a window with max_messages (\d+), preserve_first_n (\d+) and preserve_last_n (\d+)$`)
	tryCreateWindowRe              = regexp.MustCompile(`^a window is created with config:$`)
	tryCreateWindowWithoutConfigRe = regexp.MustCompile(`^a window is created without a config$`)

	conversationOfRe  = regexp.MustCompile(`^a conversation of (\d+) messages$`)
	conversationDocRe = regexp.MustCompile(`^the conversation:$`)

	trimRe        = regexp.MustCompile(`^the conversation is trimmed$`)
	trimAgainRe   = regexp.MustCompile(`^the trimmed conversation is trimmed again$`)
	estimateRe    = regexp.MustCompile(`^the tokens of the conversation are estimated$`)
	sendRequestRe = regexp.MustCompile(`^the request "([^"]*)" is sent with params:$`)
	sendLineRe    = regexp.MustCompile(`^the line "((?:[^"\\]|\\.)*)" is sent$`)

	trimmedIsInputRe    = regexp.MustCompile(`^the trimmed conversation is the input unchanged$`)
	trimmedIsRe         = regexp.MustCompile(`^the trimmed conversation is messages? ([0-9, \-]+|none)$`)
	evictedIsRe         = regexp.MustCompile(`^the evicted messages are messages? ([0-9, \-]+|none)$`)
	nothingEvictedRe    = regexp.MustCompile(`^nothing is evicted$`)
	trimmedCountRe      = regexp.MustCompile(`^the trimmed conversation has (\d+) messages?$`)
	metricsAreRe        = regexp.MustCompile(`^the metrics are total (\d+), preserved (\d+), evicted (\d+), estimated tokens (\d+)$`)
	warningsIncludeRe   = regexp.MustCompile(`^the warnings include "([a-z_]+)"$`)
	warningsExcludeRe   = regexp.MustCompile(`^the warnings do not include "([a-z_]+)"$`)
	noWarningsRe        = regexp.MustCompile(`^there are no warnings$`)
	effectiveConfigIsRe = regexp.MustCompile(`^the effective config is:$`)
	failsWithRe         = regexp.MustCompile(`^the request fails with "([a-z_]+)"$`)
	errorMentionsRe     = regexp.MustCompile(`^the error message mentions "((?:[^"\\]|\\.)*)"$`)
	estimateIsRe        = regexp.MustCompile(`^the estimate is (\d+) tokens?$`)
	responseErrorKindRe = regexp.MustCompile(`^the response is an error of kind "([a-z_]+)"$`)
	handshakeOKRe       = regexp.MustCompile(`^the implementation declares protocol 1 and a name$`)
	stillAnswersRe      = regexp.MustCompile(`^the implementation still answers$`)
	sameAgainRe         = regexp.MustCompile(`^trimming the same conversation again gives the same result$`)
)

// Register adds every step to sc, bound to tg. Call it from a godog
// ScenarioInitializer; it creates the scenario's world.
func Register(sc *godog.ScenarioContext, tg target.Target) {
	w := &world{tg: &recorder{Target: tg}}
	registerHistory(sc, w)
	registerSummarize(sc, w)
	registerBudget(sc, w)
	registerLoop(sc, w)

	sc.Given(createWindowDefaultRe, w.createWindowDefault)
	sc.Given(createWindowDocRe, w.createWindowDoc)
	sc.Given(createWindowNumbersRe, w.createWindowNumbers)
	sc.When(tryCreateWindowRe, w.tryCreateWindow)
	sc.When(tryCreateWindowWithoutConfigRe, w.tryCreateWindowWithoutConfig)

	sc.Given(conversationOfRe, w.conversationOf)
	sc.Given(conversationDocRe, w.conversationDoc)

	sc.When(trimRe, w.trim)
	sc.When(trimAgainRe, w.trimAgain)
	sc.When(estimateRe, w.estimate)
	sc.When(sendRequestRe, w.sendRequest)
	sc.When(sendLineRe, w.sendLine)

	sc.Then(trimmedIsInputRe, w.trimmedIsInput)
	sc.Then(trimmedIsRe, w.trimmedIs)
	sc.Then(evictedIsRe, w.evictedIs)
	sc.Then(nothingEvictedRe, w.nothingEvicted)
	sc.Then(trimmedCountRe, w.trimmedCount)
	sc.Then(metricsAreRe, w.metricsAre)
	sc.Then(warningsIncludeRe, w.warningsInclude)
	sc.Then(warningsExcludeRe, w.warningsExclude)
	sc.Then(noWarningsRe, w.noWarnings)
	sc.Then(effectiveConfigIsRe, w.effectiveConfigIs)
	sc.Then(failsWithRe, w.failsWith)
	sc.Then(errorMentionsRe, w.errorMentions)
	sc.Then(estimateIsRe, w.estimateIs)
	sc.Then(responseErrorKindRe, w.responseErrorKind)
	sc.Then(handshakeOKRe, w.handshakeOK)
	sc.Then(stillAnswersRe, w.stillAnswers)
	sc.Then(sameAgainRe, w.sameAgain)
}

// world is one scenario's state.
type world struct {
	tg *recorder

	window      string
	createRes   *protocol.WindowCreateResult
	input       []json.RawMessage
	trimRes     *protocol.WindowTrimResult
	prevTrimmed []json.RawMessage
	estimateRes *int
	warnings    []protocol.Warning
	err         error
	rawResponse []byte

	labels    map[string]json.RawMessage // mK → message, and "summary"
	nextLabel int
	summaries int

	summarizeRes *protocol.WindowSummarizeResult

	limits         map[string]int
	encodeRes      *protocol.TokensEncodeResult
	countRes       *protocol.BudgetCountResult
	checkRes       *protocol.BudgetCheckResult
	budgetPruneRes *protocol.BudgetPruneResult
	budgetMessages []json.RawMessage
	budgetCalls    []protocol.BudgetSummarizerCall
	events         []protocol.Event
	prepared       bool

	classifyRes *protocol.HistoryClassifyResult
	pruneRes    *protocol.HistoryPruneResult
	buildRes    *protocol.HistoryBuildResult

	loop loopWorld
}

// recorder remembers the last exchange so that failures can show it.
type recorder struct {
	target.Target
	method   string
	params   []byte
	response []byte
}

func (r *recorder) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	r.method = method
	r.params, _ = json.Marshal(params)
	res, err := r.Target.Call(ctx, method, params)
	switch {
	case err != nil:
		r.response = []byte("error: " + err.Error())
	default:
		r.response = res
	}
	return res, err
}

// exchange describes the last request and response for a failure message.
func (r *recorder) exchange() string {
	if r.method == "" {
		return ""
	}
	return fmt.Sprintf("\n  sent: %s %s\n  got:  %s", r.method, clip(r.params), clip(r.response))
}

func clip(b []byte) string {
	const limit = 2000
	if len(b) > limit {
		return fmt.Sprintf("%s… (%d bytes)", b[:limit], len(b))
	}
	return string(b)
}

// failf builds a step failure that shows the last exchange.
func (w *world) failf(format string, args ...any) error {
	return fmt.Errorf(format+"%s", append(args, w.tg.exchange())...)
}

// need turns a target error into a step error: the implementation did not
// do what the step asked.
func (w *world) need(err error) error {
	if err == nil {
		return nil
	}
	var f *target.Failure
	if errors.As(err, &f) {
		return fmt.Errorf("%w%s", err, w.tg.exchange())
	}
	return w.failf("the request failed: %v", err)
}

func (w *world) createWindow(config json.RawMessage) error {
	res, err := target.CreateWindow(context.Background(), w.tg, config)
	if err != nil {
		return w.need(err)
	}
	w.window, w.createRes, w.warnings = res.Window, &res, res.Warnings
	return nil
}

func (w *world) createWindowDefault() error { return w.createWindow(nil) }

func (w *world) createWindowDoc(doc *godog.DocString) error {
	return w.createWindow(json.RawMessage(doc.Content))
}

func (w *world) createWindowNumbers(max, first, last int) error {
	return w.createWindow(json.RawMessage(fmt.Sprintf(`{"max_messages":%d,"preserve_first_n":%d,"preserve_last_n":%d}`, max, first, last)))
}

func (w *world) tryCreate(config json.RawMessage) error {
	res, err := target.CreateWindow(context.Background(), w.tg, config)
	if err != nil {
		var f *target.Failure
		if errors.As(err, &f) {
			return w.need(err)
		}
		w.err = err
		return nil
	}
	w.window, w.createRes, w.warnings = res.Window, &res, res.Warnings
	return nil
}

func (w *world) tryCreateWindow(doc *godog.DocString) error {
	return w.tryCreate(json.RawMessage(doc.Content))
}

func (w *world) tryCreateWindowWithoutConfig() error { return w.tryCreate(nil) }

// conversationOf makes n messages m1…mn: a system prompt, then users and
// assistants taking turns.
func (w *world) conversationOf(n int) error {
	w.input = make([]json.RawMessage, n)
	for i := range w.input {
		w.input[i] = w.labelled(i + 1)
	}
	w.nextLabel = n + 1
	return nil
}

// labelled is message mK: the system prompt for K = 1, then users and
// assistants taking turns. It is remembered under its label.
func (w *world) labelled(k int) json.RawMessage {
	role := "user"
	switch {
	case k == 1:
		role = "system"
	case k%2 == 1:
		role = "assistant"
	}
	m := json.RawMessage(fmt.Sprintf(`{"role":%q,"content":"m%d"}`, role, k))
	if w.labels == nil {
		w.labels = map[string]json.RawMessage{}
	}
	w.labels[fmt.Sprintf("m%d", k)] = m
	return m
}

func (w *world) conversationDoc(doc *godog.DocString) error {
	var msgs []json.RawMessage
	if err := json.Unmarshal([]byte(doc.Content), &msgs); err != nil {
		return fmt.Errorf("the scenario's conversation is not a JSON array: %v", err)
	}
	w.input = msgs
	return nil
}

func (w *world) trimWith(msgs []json.RawMessage) error {
	return w.trimScripted(msgs, nil)
}

func (w *world) trimScripted(msgs []json.RawMessage, script *protocol.SummarizerScript) error {
	if w.window == "" {
		return errors.New("scenario error: no window was created")
	}
	res, err := target.TrimWith(context.Background(), w.tg, w.window, msgs, script)
	if err != nil {
		var f *target.Failure
		if errors.As(err, &f) {
			return w.need(err)
		}
		w.err = err
		return nil
	}
	w.trimRes, w.warnings = &res, res.Warnings
	return nil
}

func (w *world) trim() error { return w.trimWith(w.input) }

func (w *world) trimAgain() error {
	if err := w.needTrim(); err != nil {
		return err
	}
	w.prevTrimmed = w.trimRes.Trimmed
	w.input = w.trimRes.Trimmed
	return w.trimWith(w.input)
}

func (w *world) estimate() error {
	n, err := target.Estimate(context.Background(), w.tg, w.input)
	if err != nil {
		var f *target.Failure
		if errors.As(err, &f) {
			return w.need(err)
		}
		w.err = err
		return nil
	}
	w.estimateRes = &n
	return nil
}

func (w *world) sendRequest(method string, doc *godog.DocString) error {
	_, err := w.tg.Call(context.Background(), method, json.RawMessage(doc.Content))
	var f *target.Failure
	if errors.As(err, &f) {
		return w.need(err)
	}
	w.err = err
	return nil
}

func (w *world) sendLine(quoted string) error {
	line, err := strconv.Unquote(`"` + quoted + `"`)
	if err != nil {
		return fmt.Errorf("scenario error: bad line literal: %v", err)
	}
	ls, ok := w.tg.Target.(target.LineSender)
	if !ok {
		return godog.ErrSkip
	}
	w.tg.method, w.tg.params = "(raw line)", []byte(line)
	resp, err := ls.SendLine(context.Background(), []byte(line))
	if err != nil {
		return w.need(err)
	}
	w.tg.response, w.rawResponse = resp, resp
	return nil
}

func (w *world) needTrim() error {
	if w.err != nil {
		return w.failf("the trim failed: %v", w.err)
	}
	if w.trimRes == nil {
		return errors.New("scenario error: nothing was trimmed")
	}
	return nil
}

func (w *world) trimmedIsInput() error {
	if err := w.needTrim(); err != nil {
		return err
	}
	return w.compareList("trimmed", w.trimRes.Trimmed, w.input, allIndexes(len(w.input)))
}

func (w *world) trimmedIs(list string) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	want, err := parseList(list, len(w.input))
	if err != nil {
		return err
	}
	return w.compareList("trimmed", w.trimRes.Trimmed, w.input, want)
}

func (w *world) evictedIs(list string) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	want, err := parseList(list, len(w.input))
	if err != nil {
		return err
	}
	return w.compareList("evicted", w.trimRes.Evicted, w.input, want)
}

func (w *world) nothingEvicted() error {
	if err := w.needTrim(); err != nil {
		return err
	}
	return w.compareList("evicted", w.trimRes.Evicted, w.input, nil)
}

func (w *world) trimmedCount(n int) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	if got := len(w.trimRes.Trimmed); got != n {
		return w.failf("the trimmed conversation has %d messages, want %d", got, n)
	}
	return nil
}

// compareList checks got against the input messages at the 1-based
// positions want, and reports the first difference by index, role and
// which input message it was.
func (w *world) compareList(what string, got, input []json.RawMessage, want []int) error {
	wantLabels := make([]string, len(want))
	for i, p := range want {
		wantLabels[i] = strconv.Itoa(p)
	}
	gotLabels := make([]string, len(got))
	for i, g := range got {
		gotLabels[i] = identify(g, input)
	}
	summary := fmt.Sprintf("\n  wanted %s = messages [%s]\n  got    %s = messages [%s]", what, strings.Join(wantLabels, " "), what, strings.Join(gotLabels, " "))
	for i := 0; i < max(len(got), len(want)); i++ {
		switch {
		case i >= len(got):
			return w.failf("%s is missing message %d at index %d (%s)%s", what, want[i], i, describe(input[want[i]-1]), summary)
		case i >= len(want):
			return w.failf("%s has an extra message at index %d: %s%s", what, i, describe(got[i]), summary)
		case !jsoneq.Equal(got[i], input[want[i]-1]):
			return w.failf("%s differs at index %d: got %s, want message %d (%s)%s", what, i, describe(got[i]), want[i], describe(input[want[i]-1]), summary)
		}
	}
	return nil
}

// identify names a returned message by its 1-based input position, or "?"
// when it matches no input message (it was rewritten).
func identify(m json.RawMessage, input []json.RawMessage) string {
	for i, in := range input {
		if jsoneq.Equal(m, in) {
			return strconv.Itoa(i + 1)
		}
	}
	return "?"
}

// describe summarizes a message: role, tool ids and a clipped text.
func describe(m json.RawMessage) string {
	var v struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	}
	if err := json.Unmarshal(m, &v); err != nil {
		return "not a message: " + clip(m)
	}
	s := "role " + v.Role
	if v.ToolCallID != "" {
		s += ", tool_call_id " + v.ToolCallID
	}
	c := string(v.Content)
	if len(c) > 60 {
		c = c[:57] + "..."
	}
	if c != "" {
		s += ", content " + c
	}
	return s
}

var rangeRe = regexp.MustCompile(`^(\d+)(?:-(\d+))?$`)

// parseList reads "1, 4-6, 9" or "none" as 1-based positions.
func parseList(list string, n int) ([]int, error) {
	if strings.TrimSpace(list) == "none" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(list, ",") {
		m := rangeRe.FindStringSubmatch(strings.TrimSpace(part))
		if m == nil {
			return nil, fmt.Errorf("scenario error: %q is not a message position or range", part)
		}
		lo, _ := strconv.Atoi(m[1])
		hi := lo
		if m[2] != "" {
			hi, _ = strconv.Atoi(m[2])
		}
		for p := lo; p <= hi; p++ {
			if p < 1 || p > n {
				return nil, fmt.Errorf("scenario error: message %d is outside the conversation of %d", p, n)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

func allIndexes(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i + 1
	}
	return out
}

func (w *world) metricsAre(total, preserved, evicted, tokens int) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	got := w.trimRes.Metrics
	want := protocol.Metrics{TotalMessages: total, PreservedMessages: preserved, EvictedMessages: evicted, EstimatedTokens: tokens}
	if got != want {
		return w.failf("metrics differ:\n  wanted %+v\n  got    %+v", want, got)
	}
	return nil
}

func (w *world) warningCodes() []string {
	codes := make([]string, len(w.warnings))
	for i, x := range w.warnings {
		codes[i] = x.Code
	}
	return codes
}

func (w *world) warningsInclude(code string) error {
	for _, c := range w.warningCodes() {
		if c == code {
			return nil
		}
	}
	return w.failf("wanted a warning %q, got warnings %v", code, w.warningCodes())
}

func (w *world) warningsExclude(code string) error {
	for _, c := range w.warningCodes() {
		if c == code {
			return w.failf("wanted no warning %q, got warnings %v", code, w.warningCodes())
		}
	}
	return nil
}

func (w *world) noWarnings() error {
	if len(w.warnings) > 0 {
		return w.failf("wanted no warnings, got %v", w.warningCodes())
	}
	return nil
}

func (w *world) effectiveConfigIs(doc *godog.DocString) error {
	if w.err != nil {
		return w.failf("the window was not created: %v", w.err)
	}
	if w.createRes == nil {
		return errors.New("scenario error: no window was created")
	}
	got, _ := json.Marshal(w.createRes.Config)
	if !jsoneq.Equal(got, []byte(doc.Content)) {
		return w.failf("effective config differs:\n  wanted %s\n  got    %s", strings.Join(strings.Fields(doc.Content), " "), got)
	}
	return nil
}

func (w *world) failsWith(kind string) error {
	var pe *protocol.Error
	if !errors.As(w.err, &pe) {
		return w.failf("wanted an error of kind %q, but the request succeeded", kind)
	}
	if pe.Kind() != kind {
		return w.failf("wanted an error of kind %q, got %q: %s", kind, pe.Kind(), pe.Message)
	}
	return nil
}

func (w *world) errorMentions(quoted string) error {
	text, err := strconv.Unquote(`"` + quoted + `"`)
	if err != nil {
		return fmt.Errorf("scenario error: %v", err)
	}
	var pe *protocol.Error
	if !errors.As(w.err, &pe) {
		return w.failf("wanted an error mentioning %q, but there was no error", text)
	}
	if !strings.Contains(pe.Message, text) {
		return w.failf("the error message should name %q so a user can find the problem; got %q", text, pe.Message)
	}
	return nil
}

func (w *world) estimateIs(n int) error {
	if w.err != nil {
		return w.failf("the estimate failed: %v", w.err)
	}
	if w.estimateRes == nil {
		return errors.New("scenario error: nothing was estimated")
	}
	if *w.estimateRes != n {
		return w.failf("the estimate is %d tokens, want %d", *w.estimateRes, n)
	}
	return nil
}

func (w *world) responseErrorKind(kind string) error {
	if w.rawResponse == nil {
		return w.failsWith(kind)
	}
	var resp protocol.Response
	if err := json.Unmarshal(w.rawResponse, &resp); err != nil {
		return w.failf("the response is not JSON-RPC: %v", err)
	}
	if resp.Error == nil {
		return w.failf("wanted an error response of kind %q", kind)
	}
	if resp.Error.Kind() != kind {
		return w.failf("wanted an error of kind %q, got %q", kind, resp.Error.Kind())
	}
	return nil
}

func (w *world) handshakeOK() error {
	info := w.tg.Info()
	if info.Name == "" {
		return errors.New("the implementation did not name itself in the handshake")
	}
	return nil
}

// stillAnswers checks that the implementation survived the bad input.
func (w *world) stillAnswers() error {
	_, err := target.Estimate(context.Background(), w.tg, []json.RawMessage{json.RawMessage(`{"role":"user","content":"ping"}`)})
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) && pe.Kind() == protocol.KindMethodNotFound {
			return nil // answered, though it lacks window.estimate
		}
		return w.failf("after the bad input the implementation no longer answers: %v", err)
	}
	return nil
}

// sameAgain trims the original input once more and compares everything.
func (w *world) sameAgain() error {
	if err := w.needTrim(); err != nil {
		return err
	}
	first := *w.trimRes
	if err := w.trimWith(w.input); err != nil {
		return err
	}
	if err := w.needTrim(); err != nil {
		return err
	}
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(w.trimRes)
	if !jsoneq.Equal(a, b) {
		return w.failf("the same trim gave a different result the second time:\n  first:  %s\n  second: %s", clip(a), clip(b))
	}
	return nil
}
