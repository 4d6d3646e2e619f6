package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
)

// Steps of the capability window: creating windows, trimming, estimating,
// and what a trim answers.

// createWindow creates the scenario's window; any error ends the scenario.
func (w *world) createWindow(config json.RawMessage) error { return w.create(config, w.need) }

// create creates the scenario's window, handing an error to onErr.
func (w *world) create(config json.RawMessage, onErr func(error) error) error {
	res, err := target.CreateWindow(context.Background(), w.tg, config)
	if err != nil {
		return onErr(err)
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

// tryCreate creates the scenario's window; an error the implementation
// answered is kept for the Then steps.
func (w *world) tryCreate(config json.RawMessage) error { return w.create(config, w.keepError) }

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
	w.label(fmt.Sprintf("m%d", k), m)
	return m
}

// label remembers a message under a name. A scenario whose conversation
// is a document has no labelled messages, yet an implementation may still
// return a summary for it.
func (w *world) label(name string, m json.RawMessage) {
	if w.labels == nil {
		w.labels = map[string]json.RawMessage{}
	}
	w.labels[name] = m
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
		return w.keepError(err)
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
		return w.keepError(err)
	}
	w.estimateRes = &n
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
	return w.compareInput("trimmed", w.trimRes.Trimmed, list)
}

func (w *world) evictedIs(list string) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	return w.compareInput("evicted", w.trimRes.Evicted, list)
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

func (w *world) metricsAre(total, preserved, evicted, tokens int) error {
	if err := w.needTrim(); err != nil {
		return err
	}
	got := w.trimRes.Metrics
	want := protocol.Metrics{TotalMessages: total, PreservedMessages: preserved, EvictedMessages: evicted, EstimatedTokens: tokens}
	if got != want {
		return w.differs(deviation.Parts{Want: fmt.Sprintf("%+v", want), Got: fmt.Sprintf("%+v", got)}, "metrics differ:\n  wanted %+v\n  got    %+v", want, got)
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
	return w.jsonIs("effective config differs", got, doc)
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
