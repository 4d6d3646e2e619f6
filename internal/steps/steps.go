// Package steps defines the Gherkin steps of features/ over a target.Target.
// Each scenario gets a fresh world; the target is shared, so a whole run
// talks to one implementation process.
package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/paramsjson"
)

// windowTable is the steps of the capability window, and of the protocol
// itself.
var windowTable = newTable([]def[world]{
	{given, `^a window with the default config$`, (*world).createWindowDefault},
	{given, `^a window with config:$`, (*world).createWindowDoc},
	{given, `^a window with max_messages (\d+), preserve_first_n (\d+) and preserve_last_n (\d+)$`, (*world).createWindowNumbers},
	{when, `^a window is created with config:$`, (*world).tryCreateWindow},
	{when, `^a window is created without a config$`, (*world).tryCreateWindowWithoutConfig},

	{given, `^a conversation of (\d+) messages$`, (*world).conversationOf},
	{given, `^the conversation:$`, (*world).conversationDoc},

	{when, `^the conversation is trimmed$`, (*world).trim},
	{when, `^the trimmed conversation is trimmed again$`, (*world).trimAgain},
	{when, `^the tokens of the conversation are estimated$`, (*world).estimate},
	{when, `^the request "([^"]*)" is sent with params:$`, (*world).sendRequest},
	{when, `^the line "((?:[^"\\]|\\.)*)" is sent$`, (*world).sendLine},

	{then, `^the trimmed conversation is the input unchanged$`, (*world).trimmedIsInput},
	{then, `^the trimmed conversation is messages? ([0-9, \-]+|none)$`, (*world).trimmedIs},
	{then, `^the evicted messages are messages? ([0-9, \-]+|none)$`, (*world).evictedIs},
	{then, `^nothing is evicted$`, (*world).nothingEvicted},
	{then, `^the trimmed conversation has (\d+) messages?$`, (*world).trimmedCount},
	{then, `^the metrics are total (\d+), preserved (\d+), evicted (\d+), estimated tokens (\d+)$`, (*world).metricsAre},
	{diagnostic, `^the warnings include "([a-z_]+)"$`, (*world).warningsInclude},
	{diagnostic, `^the warnings do not include "([a-z_]+)"$`, (*world).warningsExclude},
	{diagnostic, `^there are no warnings$`, (*world).noWarnings},
	{then, `^the effective config is:$`, (*world).effectiveConfigIs},
	{then, `^the request fails with "([a-z_]+)"$`, (*world).failsWith},
	{diagnostic, `^the error message mentions "((?:[^"\\]|\\.)*)"$`, (*world).errorMentions},
	{then, `^the estimate is (\d+) tokens?$`, (*world).estimateIs},
	{then, `^the response is an error of kind "([a-z_]+)"$`, (*world).responseErrorKind},
	{then, `^the implementation declares protocol 1 and a name$`, (*world).handshakeOK},
	{then, `^the implementation still answers$`, (*world).stillAnswers},
	{then, `^trimming the same conversation again gives the same result$`, (*world).sameAgain},
})

// Register adds every step to sc, bound to tg. Call it from a godog
// ScenarioInitializer; it creates the scenario's world.
func Register(sc *godog.ScenarioContext, tg target.Target) {
	w := &world{tg: &recorder{Target: tg}}
	w.tracking(sc)
	register(sc, w, &historySteps{world: w}, historyTable)
	register(sc, w, &summarizeSteps{world: w}, summarizeTable)
	register(sc, w, &budgetSteps{world: w}, budgetTable)
	register(sc, w, w, loopTable)
	register(sc, w, &trimWorld{w: w}, trimmerTable)
	register(sc, w, w, windowTable)
	register(sc, w, &checkSteps{}, checkTable)
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
	r.params, _ = paramsjson.Marshal(params) // json.Marshal's bytes (D-92)
	res, err := r.Target.Call(ctx, method, params)
	switch {
	case err != nil:
		r.response = []byte("error: " + err.Error())
		// An internal error's traceback says where the implementation
		// broke: shown under the error, indented as the failure is.
		if pe := (*protocol.Error)(nil); errors.As(err, &pe) && pe.Data != nil && pe.Data.Traceback != "" {
			tb := strings.ReplaceAll(strings.TrimRight(pe.Data.Traceback, "\n"), "\n", "\n        ")
			r.response = append(r.response, "\n        traceback:\n        "+tb...)
		}
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
	p := r.parts()
	return fmt.Sprintf("\n  sent: %s\n  got:  %s", p.Sent, p.Got)
}

// parts are the last request and response as a deviation's own members
// (D-72): the report lays them out from these, not from exchange's text.
func (r *recorder) parts() deviation.Parts {
	if r.method == "" {
		return deviation.Parts{}
	}
	return deviation.Parts{Sent: r.method + " " + clip(r.params), Got: clip(r.response)}
}

func clip(b []byte) string {
	const limit = 2000
	if len(b) > limit {
		return fmt.Sprintf("%s… (%d bytes)", b[:limit], len(b))
	}
	return string(b)
}

// failf builds a step failure that shows the last exchange, and carries
// it as the failure's parts.
func (w *world) failf(format string, args ...any) error {
	return w.differs(deviation.Parts{}, format, args...)
}

// differs is failf for a check that names the value it wanted and the one
// it got: they are the failure's Want and Got, the last request its Sent.
// The text is failf's: the format says both as people read them.
func (w *world) differs(p deviation.Parts, format string, args ...any) error {
	ex := w.tg.parts()
	ex.Want = p.Want
	if p.Got != "" || p.Want != "" {
		ex.Got = p.Got
	}
	return &deviation.Error{Text: fmt.Sprintf(format, args...) + w.tg.exchange(), Parts: ex}
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
		return &deviation.Error{Text: err.Error() + w.tg.exchange(), Parts: w.tg.parts(), Err: err}
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
		var me *target.MemberError
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
		return w.differs(deviation.Parts{Want: fmt.Sprint(want), Got: fmt.Sprint(got)}, "removed positions (1-based) differ:\n  wanted %v\n  got    %v", want, got)
	}
	return nil
}
