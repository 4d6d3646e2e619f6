package steps

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
)

// Steps of the capability config: resolving configuration files.

func (w *world) configFile(format string, doc *godog.DocString) error {
	w.loop.source = &protocol.ConfigSource{Format: strings.ToLower(format), Text: doc.Content}
	return nil
}

func (w *world) resolveConfig() error {
	var r protocol.ConfigResolveResult
	ok, err := w.callMethod(protocol.MethodConfigResolve, protocol.ConfigResolveParams{Config: w.loop.source}, &r)
	if ok {
		w.loop.resolveRes, w.warnings = &r, r.Warnings
	}
	return err
}

func (w *world) resolvedIs(doc *godog.DocString) error {
	if err := w.needResult(w.loop.resolveRes != nil, "resolved"); err != nil {
		return err
	}
	got, _ := json.Marshal(w.loop.resolveRes.Config)
	return w.jsonIs("effective config differs", got, doc)
}

func (w *world) maxFrom(from string) error {
	if err := w.needResult(w.loop.resolveRes != nil, "resolved"); err != nil {
		return err
	}
	if got := w.loop.resolveRes.MaxMessagesFrom; got != from {
		return w.failf("max_messages_from is %q, want %q", got, from)
	}
	return nil
}

func (w *world) configWarnings(list string) error {
	if err := w.needResult(w.loop.resolveRes != nil, "resolved"); err != nil {
		return err
	}
	var want []string
	if list != "none" {
		for _, c := range strings.Split(list, ",") {
			want = append(want, strings.TrimSpace(c))
		}
	}
	if got := w.warningCodes(); !slices.Equal(got, want) {
		return w.failf("warning codes are %v, want %v", got, want)
	}
	return nil
}

func (w *world) errorPath(path string) error {
	var pe *protocol.Error
	if !errors.As(w.err, &pe) {
		return w.failf("wanted an error at %q, but the request succeeded", path)
	}
	if pe.Data == nil || pe.Data.Path == nil {
		return w.failf("the error has no data.path; want %q (message: %q)", path, pe.Message)
	}
	if *pe.Data.Path != path {
		return w.failf("the error path is %q, want %q (message: %q)", *pe.Data.Path, path, pe.Message)
	}
	if !strings.HasPrefix(pe.Message, path) {
		return w.failf("the error message should start with the path %q; got %q", path, pe.Message)
	}
	return nil
}
