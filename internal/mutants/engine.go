package mutants

// The engines most variants are built from: the reference with one
// behaviour replaced.

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

type trimmerFunc func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error)

func (f trimmerFunc) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	return f(ctx, msgs, s)
}

// engine is the reference with its windows replaced: their config
// parsing, their trim, or the whole window.
type engine struct {
	server.Reference
	parse  func(json.RawMessage) (window.Config, error)
	trim   func(window.Config, []message.Message) (window.Result, error)
	window func(window.Config) server.Window
}

func (e engine) Name() string { return "convspec-mutant" }

func (e engine) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	if e.window != nil {
		cfg, err := window.ParseConfig(config)
		if err != nil {
			return nil, window.Config{}, nil, err
		}
		return e.window(cfg), cfg, cfg.Warnings(), nil
	}
	if e.parse == nil && e.trim == nil {
		return e.Reference.NewWindow(config)
	}
	parse := e.parse
	if parse == nil {
		parse = func(raw json.RawMessage) (window.Config, error) { return window.ParseConfig(raw) }
	}
	cfg, err := parse(config)
	if err != nil {
		return nil, window.Config{}, nil, err
	}
	trim := e.trim
	if trim == nil {
		trim = referenceTrim
	}
	return trimmer{cfg: cfg, trim: trim}, cfg, cfg.Warnings(), nil
}

type trimmer struct {
	cfg  window.Config
	trim func(window.Config, []message.Message) (window.Result, error)
}

func (t trimmer) TrimWith(_ context.Context, msgs []message.Message, _ window.Summarizer) (window.Result, error) {
	return t.trim(t.cfg, msgs)
}

func referenceTrim(c window.Config, msgs []message.Message) (window.Result, error) {
	w, _ := window.New(c)
	return w.Trim(msgs)
}

func trimMutant(f func(window.Config, []message.Message) (window.Result, error)) server.Engine {
	return engine{trim: f}
}

// countPlan is the plan of the count-based algorithm, blind to units.
func countPlan(c window.Config, units []message.Unit) window.Plan {
	n := 0
	if len(units) > 0 {
		n = units[len(units)-1].End
	}
	singles := make([]message.Unit, n)
	for i := range singles {
		singles[i] = message.Unit{Start: i, End: i + 1}
	}
	return c.Plan(singles)
}

func dropIndexes(msgs []message.Message, idx []int) []message.Message {
	out := []message.Message{}
	for i, m := range msgs {
		if !slices.Contains(idx, i) {
			out = append(out, m)
		}
	}
	return out
}
