package adapter

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/server"
)

// dispatcher turns requests into calls of the implementation: decoding
// params with the reference's rules, window handles, scripted
// summarizers, and result shapes.
type dispatcher struct {
	impl Implementation

	windows server.Handles[Window]
}

func newDispatcher(impl Implementation) *dispatcher {
	return &dispatcher{impl: impl}
}

// Handle implements server.Responder. A method of a capability the
// implementation lacks is method_not_found, as for any unknown method.
func (d *dispatcher) Handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	windows, _ := d.impl.Impl.(Windows)
	summarizing, _ := d.impl.Impl.(Summarizing)
	history, _ := d.impl.Impl.(History)
	tokenizer, _ := d.impl.Impl.(Tokenizer)
	resolver, _ := d.impl.Impl.(ConfigResolver)
	switch {
	case method == protocol.MethodInitialize:
		return d.initialize(params)
	case method == protocol.MethodShutdown:
		return nil, nil
	case method == protocol.MethodWindowCreate && windows != nil:
		return d.windowCreate(windows, params)
	case method == protocol.MethodWindowTrim && windows != nil:
		return d.windowTrim(ctx, params, summarizing != nil)
	case method == protocol.MethodWindowEstimate && windows != nil:
		var p protocol.WindowEstimateParams
		if err := server.DecodeParams(params, &p, "messages"); err != nil {
			return nil, err
		}
		n, err := windows.Estimate(p.Messages)
		return protocol.WindowEstimateResult{Tokens: n}, err
	case method == protocol.MethodWindowSummarize && windows != nil && summarizing != nil:
		return d.windowSummarize(ctx, summarizing, params)
	case method == protocol.MethodHistoryClassify && history != nil:
		var p protocol.HistoryClassifyParams
		if err := server.DecodeParams(params, &p, "messages"); err != nil {
			return nil, err
		}
		classes, units, err := history.Classify(p.Messages)
		return protocol.HistoryClassifyResult{Classes: nonNil(classes), Units: nonNil(units)}, err
	case method == protocol.MethodHistoryPrune && history != nil:
		var p protocol.HistoryPruneParams
		if err := server.DecodeParams(params, &p, "messages"); err != nil {
			return nil, err
		}
		kept, removed, err := history.Prune(p.Messages)
		return protocol.HistoryPruneResult{Messages: nonNil(kept), Removed: nonNil(removed)}, err
	case method == protocol.MethodHistoryBuild && history != nil:
		return d.historyBuild(history, params)
	case method == protocol.MethodTokensEncode && tokenizer != nil:
		var p protocol.TokensEncodeParams
		if err := server.DecodeParams(params, &p, "text"); err != nil {
			return nil, err
		}
		ids, err := tokenizer.Encode(p.Text)
		return protocol.TokensEncodeResult{Tokens: nonNil(ids), Count: len(ids)}, err
	case method == protocol.MethodTrimmerTrim && len(d.impl.Trimmers) > 0:
		return d.trimmerTrim(ctx, params)
	case method == protocol.MethodTrimmerCount && len(d.impl.Trimmers) > 0:
		return d.trimmerCount(ctx, params)
	case method == protocol.MethodConfigResolve && resolver != nil:
		var p protocol.ConfigResolveParams
		if err := server.DecodeParams(params, &p, "config"); err != nil {
			return nil, err
		}
		r, err := resolver.Resolve(p.Config.Format, p.Config.Text)
		// No warnings is [], as every other list the kit writes: null
		// would break the result schema (D-63).
		r.Warnings = nonNil(r.Warnings)
		return r, err
	}
	return nil, protocol.NewError(protocol.KindMethodNotFound, "%s is not supported by %s (it declares %v)", method, d.impl.Name, d.impl.Capabilities())
}

func (d *dispatcher) initialize(params json.RawMessage) (any, error) {
	var p protocol.InitializeParams
	if err := server.DecodeParams(params, &p, "protocol"); err != nil {
		return nil, err
	}
	if p.Protocol != protocol.Version {
		return nil, protocol.NewError(protocol.KindInvalidParams, "this kit speaks protocol %d, not %d", protocol.Version, p.Protocol)
	}
	return protocol.InitializeResult{
		Protocol:       protocol.Version,
		Implementation: protocol.Implementation{Name: d.impl.Name, Version: d.impl.Version},
		Capabilities:   d.impl.Capabilities(),
		Levels:         d.impl.Levels,
		Formats:        d.impl.Formats,
		Trimmers:       d.impl.decls(),
	}, nil
}

func (d *dispatcher) windowCreate(windows Windows, params json.RawMessage) (any, error) {
	var p protocol.WindowCreateParams
	if err := server.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	w, cfg, warnings, err := windows.NewWindow(p.Config)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return nil, errors.New("NewWindow returned neither a window nor an error")
	}
	id := d.windows.Add(w)
	return protocol.WindowCreateResult{Window: id, Config: cfg, Warnings: nonNil(warnings)}, nil
}

func (d *dispatcher) windowTrim(ctx context.Context, params json.RawMessage, summaries bool) (any, error) {
	var p protocol.WindowTrimParams
	if err := server.DecodeParams(params, &p, "window", "messages"); err != nil {
		return nil, err
	}
	w, err := d.windows.Get(p.Window)
	if err != nil {
		return nil, err
	}
	script, err := server.NewScript(p.Summarizer, false)
	if err != nil {
		return nil, err
	}
	res, err := w.Trim(ctx, p.Messages, callback(script))
	if err != nil {
		return nil, err
	}
	out := protocol.WindowTrimResult{
		Trimmed:  nonNil(res.Trimmed),
		Evicted:  nonNil(res.Evicted),
		Metrics:  res.Metrics,
		Warnings: nonNil(res.Warnings),
	}
	if summaries {
		out.Summary = json.RawMessage("null")
		if res.Summary != nil {
			out.Summary = res.Summary
		}
		out.SummarizerCalls = []protocol.SummarizerCall{}
		if script != nil {
			out.SummarizerCalls = script.Calls()
		}
	}
	return out, nil
}

func (d *dispatcher) windowSummarize(ctx context.Context, s Summarizing, params json.RawMessage) (any, error) {
	var p protocol.WindowSummarizeParams
	if err := server.DecodeParams(params, &p, "messages", "summarizer"); err != nil {
		return nil, err
	}
	script, err := server.NewScript(p.Summarizer, true)
	if err != nil {
		return nil, err
	}
	summary, err := s.Summarize(ctx, p.Messages, callback(script))
	if err != nil {
		var pe *protocol.Error
		if !errors.As(err, &pe) {
			err = protocol.NewError(protocol.KindSummarizer, "%v", err)
		}
		return nil, err
	}
	return protocol.WindowSummarizeResult{Summary: summary, SummarizerCalls: script.Calls()}, nil
}

func (d *dispatcher) historyBuild(history History, params json.RawMessage) (any, error) {
	var p protocol.HistoryBuildParams
	if err := server.DecodeParams(params, &p, "messages", "max_messages"); err != nil {
		return nil, err
	}
	max, err := count("max_messages", p.MaxMessages)
	if err != nil {
		return nil, err
	}
	built, repairs, err := history.Build(p.Messages, max)
	return protocol.HistoryBuildResult{Messages: nonNil(built), Warnings: nonNil(repairs)}, err
}

// callback is the script as a Summarizer, nil without a script.
func callback(script *server.Script) Summarizer {
	if script == nil {
		return nil
	}
	return script.Summarizer().Call
}

// nonNil makes a nil slice an empty one, so that it travels as [] and not
// as null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
