package steps

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// Steps of the protocol scenarios: raw requests and lines, error kinds,
// and an implementation that keeps answering (PROTO-*).

func (w *world) sendRequest(method string, doc *godog.DocString) error {
	_, err := w.tg.Call(context.Background(), method, json.RawMessage(doc.Content))
	return w.keepError(err)
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
	if !jsoncmp.Equal(a, b) {
		return w.failf("the same trim gave a different result the second time:\n  first:  %s\n  second: %s", clip(a), clip(b))
	}
	return nil
}
