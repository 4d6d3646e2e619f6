package mutants

// The outsider variants: faulty variants written by a reviewer who read only
// spec/, reference/ and internal/server/, never the suite's generators and
// checks, to measure how much of the spec the suite really pins down. Each
// variant names, in a comment, a valid input on which it deviates.
//
// They are part of All, so TestSuiteKillsEveryMutant checks that the suite
// kills each one.

import (
	"context"
	"encoding/json"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// outsiderWindowWith serves windows whose trim is trim, over the
// reference's config parsing.
func outsiderWindowWith(trim func(cfg window.Config, w *window.Window, ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error)) func(json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	return outsiderWindowOf(func(cfg window.Config, w *window.Window) server.Window {
		return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
			return trim(cfg, w, ctx, msgs, s)
		})
	})
}

// outsiderWindowOf serves the windows that of makes from the config the
// reference parses and the reference's window for that config.
func outsiderWindowOf(of func(cfg window.Config, w *window.Window) server.Window) func(json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	return func(raw json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
		cfg, err := window.ParseConfig(raw)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		w, err := window.New(cfg)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		return of(cfg, w), cfg, cfg.Warnings(), nil
	}
}

// outsiderMutants are the outsider variants; the suite kills every one.
// The review's three survivors are killed by scenarios written for them:
// white space judged by ASCII under SUM-6 (the SUM-6 scenario of Unicode
// white space alone), a tool_use without input rendered as null (SUM-1)
// and a second leading system message counted against max_messages
// (BUILD-3); the last two had been killed by differential properties
// only, at conform's 100 checks but not at the kill test's 50.
func outsiderMutants() []Mutant {
	var ms []Mutant
	for _, group := range [][]Mutant{outsiderBudgetMutants(), outsiderHistoryMutants(), outsiderTokenMutants(), outsiderWindowMutants(), outsiderSummarizeMutants(), outsiderConfigMutants(), outsiderLoopMutants(), outsiderClassMutants()} {
		ms = append(ms, group...)
	}
	return ms
}

type outsiderServerWindow = server.Window

// outsiderRef is the reference the variants fall back on.
var outsiderRef = server.Reference{}
