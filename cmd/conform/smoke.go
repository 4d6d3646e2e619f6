package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/target"
)

// smokeRequest is one valid request of a declared method. window, when
// true, puts a fresh window's handle into params["window"] first; config is
// that window's configuration.
type smokeRequest struct {
	capability string
	method     string
	params     map[string]any
	window     map[string]any
	result     any // the result shape to decode into
}

// smokeConversation is a plain five-message OpenAI conversation.
func smokeConversation() []any {
	return []any{
		map[string]any{"role": "system", "content": "You are terse."},
		map[string]any{"role": "user", "content": "Hi"},
		map[string]any{"role": "assistant", "content": "Hello."},
		map[string]any{"role": "user", "content": "What is 2+2?"},
		map[string]any{"role": "assistant", "content": "4"},
	}
}

func smokeRequests() []smokeRequest {
	conversation := smokeConversation()
	reply := func(s string) map[string]any { return map[string]any{"reply": s} }
	return []smokeRequest{
		{capability: protocol.CapWindow, method: protocol.MethodWindowCreate, params: map[string]any{"config": map[string]any{"max_messages": 3}}, result: &protocol.WindowCreateResult{}},
		{capability: protocol.CapWindow, method: protocol.MethodWindowTrim, params: map[string]any{"messages": conversation}, window: map[string]any{"max_messages": 3}, result: &protocol.WindowTrimResult{}},
		{capability: protocol.CapWindow, method: protocol.MethodWindowEstimate, params: map[string]any{"messages": conversation}, result: &protocol.WindowEstimateResult{}},
		{capability: protocol.CapSummarize, method: protocol.MethodWindowTrim, params: map[string]any{"messages": conversation, "summarizer": reply("They greeted and added numbers.")}, window: map[string]any{"max_messages": 3, "summarize_on_trim": true}, result: &protocol.WindowTrimResult{}},
		{capability: protocol.CapSummarize, method: protocol.MethodWindowSummarize, params: map[string]any{"messages": conversation, "summarizer": reply("A greeting.")}, result: &protocol.WindowSummarizeResult{}},
		{capability: protocol.CapHistory, method: protocol.MethodHistoryClassify, params: map[string]any{"messages": conversation}, result: &protocol.HistoryClassifyResult{}},
		{capability: protocol.CapHistory, method: protocol.MethodHistoryPrune, params: map[string]any{"messages": conversation}, result: &protocol.HistoryPruneResult{}},
		{capability: protocol.CapHistory, method: protocol.MethodHistoryBuild, params: map[string]any{"messages": conversation, "max_messages": 10}, result: &protocol.HistoryBuildResult{}},
		{capability: protocol.CapTokens, method: protocol.MethodTokensEncode, params: map[string]any{"text": "hello world"}, result: &protocol.TokensEncodeResult{}},
		{capability: protocol.CapBudget, method: protocol.MethodBudgetCount, params: map[string]any{"messages": conversation}, result: &protocol.BudgetCountResult{}},
		{capability: protocol.CapBudget, method: protocol.MethodBudgetCheck, params: map[string]any{"messages": conversation, "model": "gpt-4o"}, result: &protocol.BudgetCheckResult{}},
		{capability: protocol.CapBudget, method: protocol.MethodBudgetPrune, params: map[string]any{"messages": conversation, "model": "gpt-4o"}, result: &protocol.BudgetPruneResult{}},
		{capability: protocol.CapBudget, method: protocol.MethodBudgetCompress, params: map[string]any{"messages": conversation, "summarizer": reply("A greeting and a sum.")}, result: &protocol.BudgetCompressResult{}},
		{capability: protocol.CapBudget, method: protocol.MethodBudgetPrepare, params: map[string]any{"messages": conversation, "model": "gpt-4o", "summarizer": reply("A greeting and a sum.")}, result: &protocol.BudgetPrepareResult{}},
		{capability: protocol.CapConfig, method: protocol.MethodConfigResolve, params: map[string]any{"config": map[string]any{"format": "yaml", "text": "execution:\n  max_conversation_messages: 20\n"}}, result: &protocol.ConfigResolveResult{}},
		{capability: protocol.CapLoop, method: protocol.MethodLoopRun, params: map[string]any{
			"config":  map[string]any{"format": "yaml", "text": "execution:\n  max_conversation_messages: 4\n"},
			"initial": conversation[:1],
			"iterations": []any{map[string]any{
				"prompt": map[string]any{"role": "user", "content": "Read a.go"},
				"turns": []any{
					map[string]any{"response": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c1", "type": "function", "function": map[string]any{"name": "read", "arguments": "{}"}}}},
						"results": []any{map[string]any{"role": "tool", "tool_call_id": "c1", "content": "package a"}}},
					map[string]any{"response": map[string]any{"role": "assistant", "content": "Done."}, "results": []any{}},
				},
			}},
		}, result: &protocol.LoopRunResult{}},
	}
}

// smoke is `conform smoke [flags] [--] CMD [ARGS…]`: the first minute of a
// new adapter. It checks the handshake and sends one valid request per
// declared method, explaining each problem in a sentence. It judges shapes,
// not answers: that is the suite's work.
func smoke(args []string, stdout, stderr io.Writer) int {
	fs, s := runFlags("conform smoke", stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: conform smoke [-timeout D] [-start-timeout D] [--] CMD [ARGS...]")
		fs.PrintDefaults()
	}
	command, err := parse(fs, s, args)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) && !isFlagError(err) {
			fmt.Fprintf(stderr, "conform smoke: %v\n", err)
		}
		return exitUsage
	}
	if command == nil {
		fmt.Fprintln(stderr, "conform smoke: give the implementation's command: conform smoke ./my-adapter")
		return exitUsage
	}
	warnFlagsAfterCommand("conform smoke", fs, command, stderr)
	next := suiteCommand(s, command)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	tg, err := target.StartProcess(ctx, target.ProcessConfig{
		Command: command, StartTimeout: s.startTimeout, CallTimeout: s.timeout,
		MaxRestarts: 0, MaxLineBytes: s.maxLine,
	})
	if err != nil {
		fmt.Fprintf(stdout, "FAIL handshake: %s\n", report.EscapeText(explain(protocol.MethodInitialize, err, s)))
		return exitNoImpl
	}
	defer tg.Close()
	info := tg.Info()
	// What the implementation declared and answered goes through the text
	// report's escaping layer (D-52).
	fmt.Fprintf(stdout, "ok   handshake: %s\n", report.EscapeTextLine(fmt.Sprintf("%s %s declares %s", info.Name, info.Version, strings.Join(info.Capabilities, ", "))))
	problems := 0
	for _, c := range info.Capabilities {
		if !slices.Contains(protocol.Capabilities(), c) {
			fmt.Fprintf(stdout, "note capability %q is not one of protocol v1's (%s): the suite ignores it\n", c, strings.Join(protocol.Capabilities(), ", "))
		}
	}
	if !slices.ContainsFunc(info.Capabilities, func(c string) bool { return slices.Contains(protocol.Capabilities(), c) }) {
		fmt.Fprintln(stdout, "FAIL the handshake declares no capability of protocol v1, so every case would be not applicable: list what the adapter handles, such as \"window\"")
		problems++
	}
	if info.Has(protocol.CapSummarize) && !info.Has(protocol.CapWindow) {
		fmt.Fprintln(stdout, "FAIL window.summarize is declared without window: summaries happen in a window's trims, so declare window too")
		problems++
	}
	// try sends one smoke request and says what came of it; it reports
	// whether the implementation still answers.
	try := func(label string, r smokeRequest) bool {
		err := smokeCall(ctx, tg, r)
		switch {
		case err == nil:
			fmt.Fprintf(stdout, "ok   %s (%s)\n", label, r.capability)
		case declined(err):
			fmt.Fprintf(stdout, "note %s (%s): %s\n", label, r.capability, explain(r.method, err, s))
		default:
			problems++
			fmt.Fprintf(stdout, "FAIL %s (%s): %s\n", label, r.capability, report.EscapeText(explain(r.method, err, s)))
			if f := (*target.Failure)(nil); errors.As(err, &f) && f.Outcome != target.ProtocolError {
				fmt.Fprintln(stdout, "stopping: the implementation no longer answers")
				return false
			}
		}
		return true
	}
	for _, r := range smokeRequests() {
		if !info.Has(r.capability) || (r.capability == protocol.CapSummarize && !info.Has(protocol.CapWindow)) {
			continue
		}
		label := r.method
		if r.capability == protocol.CapSummarize && r.method == protocol.MethodWindowTrim {
			label += " with a summarizer"
		}
		if !try(label, r) {
			return exitFailures
		}
	}
	if info.Has(protocol.CapTrimmer) {
		for _, d := range info.Trimmers {
			r := smokeRequest{capability: protocol.CapTrimmer, method: protocol.MethodTrimmerTrim,
				params: map[string]any{"trimmer": d.Name, "messages": smokeConversation(), "limit": 3}, result: &protocol.TrimmerTrimResult{}}
			if !try(fmt.Sprintf("%s of trimmer %q", r.method, d.Name), r) {
				return exitFailures
			}
		}
	}
	// The lifecycle's end, as the suite checks it (D-41): shutdown answered
	// with null and nothing after it, then an exit with status 0 once stdin
	// is closed.
	if err := tg.Shutdown(ctx); err != nil {
		problems++
		fmt.Fprintf(stdout, "FAIL shutdown: %s\n", explainShutdown(err))
	} else {
		fmt.Fprintln(stdout, "ok   shutdown: answered, then exited with status 0")
	}
	if problems > 0 {
		fmt.Fprintf(stdout, "%d problem(s): fix them, then run the suite: %s\n", problems, next)
		return exitFailures
	}
	fmt.Fprintf(stdout, "smoke passed: every declared method answered a valid request; now run the suite: %s\n", next)
	return exitOK
}

// suiteCommand is the conform command line that runs the suite on what
// smoke checked, with the supervision flags smoke was given (an adapter that
// needed -start-timeout 30s for smoke needs it for the suite too), every
// argument quoted for the shell.
func suiteCommand(s *settings, command []string) string {
	parts := []string{"conform"}
	for _, name := range []string{"timeout", "start-timeout", "max-restarts", "max-line"} {
		if s.set[name] {
			parts = append(parts, "-"+name, shellQuote(flagValue(s, name)))
		}
	}
	if isSubcommand(command[0]) {
		parts = append(parts, "--") // a program named like a subcommand
	}
	for _, c := range command {
		parts = append(parts, shellQuote(c))
	}
	return strings.Join(parts, " ")
}

func smokeCall(ctx context.Context, tg target.Target, r smokeRequest) error {
	params := r.params
	if r.window != nil {
		raw, err := tg.Call(ctx, protocol.MethodWindowCreate, map[string]any{"config": r.window})
		if err != nil {
			return fmt.Errorf("creating the window to trim with: %w", err)
		}
		var created protocol.WindowCreateResult
		if err := target.DecodeResult(protocol.MethodWindowCreate, raw, &created); err != nil {
			return fmt.Errorf("creating the window to trim with: %w", err)
		}
		params = map[string]any{"window": created.Window}
		for k, v := range r.params {
			params[k] = v
		}
	}
	raw, err := tg.Call(ctx, r.method, params)
	if err != nil {
		return err
	}
	if err := target.DecodeResult(r.method, raw, r.result); err != nil {
		return fmt.Errorf("the result has the wrong shape: %w (spec/protocol.md gives each method's result)", err)
	}
	return nil
}

// explain turns what went wrong into a sentence for someone writing their
// first adapter.
func explain(method string, err error, s *settings) string {
	var pe *protocol.Error
	if errors.As(err, &pe) {
		switch pe.Kind() {
		case protocol.KindMethodNotFound:
			return fmt.Sprintf("answered method_not_found (%s): handle %s, or leave its capability out of the handshake", pe.Message, method)
		case protocol.KindUnsupported:
			return fmt.Sprintf("declined a plain valid request as unsupported (%s): the suite reports such cases unsupported, not failed (with -strict they fail); if the library cannot do this method at all, leave its capability out of the handshake", pe.Message)
		case protocol.KindInternalError:
			tb := ""
			if pe.Data != nil && pe.Data.Traceback != "" {
				tb = "\n" + indentLines(pe.Data.Traceback, "     ")
			}
			return fmt.Sprintf("raised an error (%s): a valid request must succeed; the message is what your code threw%s", pe.Message, tb)
		}
		return fmt.Sprintf("answered a valid request with the error %s (%s)", pe.Kind(), pe.Message)
	}
	var f *target.Failure
	if errors.As(err, &f) {
		tail := ""
		if f.StderrTail != "" {
			tail = "\n     last lines of its stderr:\n" + indentLines(f.StderrTail, "       ")
		}
		switch f.Outcome {
		case target.Timeout:
			if method == protocol.MethodInitialize {
				return fmt.Sprintf("no answer to the handshake within %v: the adapter must read one JSON-RPC request per line on stdin and write one response line on stdout, flushed at once (%s)%s", s.startTimeout, f.Detail, tail)
			}
			return fmt.Sprintf("no answer within %v: write exactly one response line per request, and flush stdout (%s)%s", s.timeout, f.Detail, tail)
		case target.Crash:
			return fmt.Sprintf("the program exited (%s): run the command by hand to see why%s", f.Detail, tail)
		case target.ProtocolError:
			return fmt.Sprintf("%s: stdout carries only response lines, so logs go to stderr%s", f.Detail, tail)
		}
		return f.Error() + tail
	}
	return err.Error()
}

func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}

// declined reports whether err is the implementation declining the request
// (kind unsupported): on purpose, perhaps, and the suite does not fail it
// (D-33), so smoke notes it rather than counting a problem.
func declined(err error) bool {
	var pe *protocol.Error
	return errors.As(err, &pe) && pe.Kind() == protocol.KindUnsupported
}

// explainShutdown turns a failed lifecycle end into a sentence.
func explainShutdown(err error) string {
	var se *target.ShutdownError
	if !errors.As(err, &se) {
		return err.Error()
	}
	tail := ""
	if se.StderrTail != "" {
		tail = "\n     last lines of its stderr:\n" + indentLines(se.StderrTail, "       ")
	}
	advice := map[target.ShutdownProblem]string{
		target.ShutdownGarbage:     "answer shutdown with a result (null) and write nothing after it",
		target.ShutdownCrash:       "answer shutdown before exiting, and exit by yourself rather than by a signal",
		target.ShutdownNonZeroExit: "exit with status 0 after answering shutdown",
		target.ShutdownTimeout:     "answer shutdown, then exit promptly when stdin closes (flush stdout first)",
	}[se.Problem]
	return fmt.Sprintf("%s (%s): %s (spec/protocol.md, \"Lifecycle\")%s", se.Problem, se.Detail, advice, tail)
}
