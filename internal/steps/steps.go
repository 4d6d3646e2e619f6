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

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
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
	w.tracking(sc)
	registerHistory(sc, w)
	registerSummarize(sc, w)
	registerBudget(sc, w)
	registerLoop(sc, w)
	registerTrimmer(sc, w)

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

	w.then(sc, trimmedIsInputRe, w.trimmedIsInput)
	w.then(sc, trimmedIsRe, w.trimmedIs)
	w.then(sc, evictedIsRe, w.evictedIs)
	w.then(sc, nothingEvictedRe, w.nothingEvicted)
	w.then(sc, trimmedCountRe, w.trimmedCount)
	w.then(sc, metricsAreRe, w.metricsAre)
	w.then(sc, warningsIncludeRe, w.warningsInclude)
	w.then(sc, warningsExcludeRe, w.warningsExclude)
	w.then(sc, noWarningsRe, w.noWarnings)
	w.then(sc, effectiveConfigIsRe, w.effectiveConfigIs)
	w.then(sc, failsWithRe, w.failsWith)
	w.then(sc, errorMentionsRe, w.errorMentions)
	w.then(sc, estimateIsRe, w.estimateIs)
	w.then(sc, responseErrorKindRe, w.responseErrorKind)
	w.then(sc, handshakeOKRe, w.handshakeOK)
	w.then(sc, stillAnswersRe, w.stillAnswers)
	w.then(sc, sameAgainRe, w.sameAgain)
}

// world is the state the steps of every capability share in one
// scenario; each capability keeps the rest of its state in its own steps
// (budgetSteps, historySteps, summarizeSteps), registered per scenario.
type world struct {
	tg *recorder

	// clauses are the scenario's tags, the step under way its text, and
	// deviations its failing Thens so far (then.go).
	clauses    []string
	step       string
	deviations Deviations

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
// keepError keeps an error the implementation answered for the Then steps
// (nil clears it); a transport failure ends the scenario (see need).
func (w *world) keepError(err error) error {
	var f *target.Failure
	if errors.As(err, &f) {
		return w.need(err)
	}
	w.err = err
	return nil
}

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

// callInto runs method and, when it answered, keeps its result in *dst.
func callInto[R any](w *world, method string, params any, dst **R) error {
	var r R
	ok, err := w.callMethod(method, params, &r)
	if ok {
		*dst = &r
	}
	return err
}

// oneBased turns 0-based positions into the 1-based ones scenarios write.
func oneBased(idx []int) []int {
	out := make([]int, len(idx))
	for i, x := range idx {
		out[i] = x + 1
	}
	return out
}

// callMethod runs a method; an error the implementation answered is kept
// for the Then steps.
func (w *world) callMethod(method string, params, result any) (bool, error) {
	raw, err := w.tg.Call(context.Background(), method, params)
	if err != nil {
		return false, w.keepError(err)
	}
	if err := target.DecodeResult(method, raw, result); err != nil {
		var me *protocol.MemberError
		if errors.As(err, &me) {
			// A member of the wrong type is the implementation's deviation:
			// the case fails, naming the member and the rule.
			return false, w.failf("%s returned %v", method, err)
		}
		return false, w.need(&target.Failure{Outcome: target.ProtocolError, Method: method, Detail: err.Error()})
	}
	return true, nil
}

func (w *world) needResult(ok bool, what string) error {
	if w.err != nil {
		return w.failf("the request failed: %v", w.err)
	}
	if !ok {
		return fmt.Errorf("scenario error: nothing was %s", what)
	}
	return nil
}

func (w *world) nonNilInput() []json.RawMessage {
	if w.input == nil {
		return []json.RawMessage{}
	}
	return w.input
}

// removedPositions compares the 0-based input positions an operation
// removed with a scenario's 1-based list.
func (w *world) removedPositions(removed []int, list string) error {
	want, err := parseList(list, len(w.input))
	if err != nil {
		return err
	}
	got := oneBased(removed)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		return w.failf("removed positions (1-based) differ:\n  wanted %v\n  got    %v", want, got)
	}
	return nil
}
