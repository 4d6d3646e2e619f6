package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/properties"
	"github.com/convspec/convspec/internal/runner"
)

// Result is the outcome of replaying one case. Its outcomes are the
// runner's: passed, failed, not applicable, unsupported, or how the
// implementation broke the protocol (timeout, crash, protocol error).
type Result struct {
	File
	Outcome result.Outcome
	// Step is the step (from 1) that decided a failure; 0 otherwise.
	Step int
	// Detail says what differed, or why the case does not apply.
	Detail string
	// Parts are what the failing step sent, what came back and what the
	// reference answered, where they first differ, apart from Detail
	// (D-72).
	deviation.Parts
	// Skipped counts the steps left out because their method belongs to a
	// capability the implementation did not declare.
	Skipped  int
	Duration time.Duration
}

// Options select cases by ID, as conform's -run and -skip do.
type Options struct {
	Run, Skip *regexp.Regexp
}

func (o Options) selected(id string) bool {
	return (o.Run == nil || o.Run.MatchString(id)) && (o.Skip == nil || !o.Skip.MatchString(id))
}

// Replay sends every selected case to tg, in order, and compares each
// response with the golden one (Compare). It stops early only when ctx is
// cancelled; the results are those of the cases that completed.
func Replay(ctx context.Context, tg target.Target, files []File, opts Options) []Result {
	info := tg.Info()
	var out []Result
	for _, f := range files {
		if !opts.selected(f.ID) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		started := time.Now()
		r := replayCase(ctx, tg, info, f)
		if ctx.Err() != nil {
			break // the outcome is the cancellation's, not the implementation's
		}
		r.Duration = time.Since(started)
		out = append(out, r)
	}
	return out
}

// MethodCapability is the capability a method belongs to, by the naming
// of spec/protocol.md: the capability named like the method
// (window.summarize), else the one named like its namespace (window.trim:
// window), else the one whose own namespace it is (tokens.encode:
// tokens.cl100k); "" for initialize, shutdown and methods of no
// capability.
func MethodCapability(method string) string {
	caps := protocol.Capabilities()
	if slices.Contains(caps, method) {
		return method
	}
	ns, _, ok := strings.Cut(method, ".")
	if !ok {
		return ""
	}
	if slices.Contains(caps, ns) {
		return ns
	}
	for _, c := range caps {
		if first, _, _ := strings.Cut(c, "."); first == ns {
			return c
		}
	}
	return ""
}

func replayCase(ctx context.Context, tg target.Target, info target.Info, f File) Result {
	r := Result{File: f, Outcome: result.Passed}
	if why := runner.NotApplicable(info, result.Case{Capability: f.Capability, Level: f.Level, Formats: f.Formats}); why != "" {
		r.Outcome, r.Detail = result.NotApplicable, why
		return r
	}
	handles := map[string]string{} // the reference's handle → the implementation's
	trimmed := map[string]bool{}   // the trimmer inputs already checked
	for i, step := range f.Steps {
		if c := MethodCapability(step.Method); c != "" && !info.Has(c) {
			r.Skipped++ // the methods of an undeclared capability are never called
			continue
		}
		if step.Method == protocol.MethodTrimmerCount && protocol.IsGuaranteeCapability(f.Capability) {
			// A native counter's counts are asked again by the guarantee's
			// check of each trimmer.trim step; the reference's recorded
			// counts judge no other counter (D-60).
			continue
		}
		if step.Method == protocol.MethodTrimmerTrim {
			switch verdict, detail := replayTrim(ctx, tg, info, f, step, trimmed); verdict {
			case trimChecked:
				continue
			case trimFailed:
				r.Outcome, r.Step, r.Detail = result.Failed, i+1, fmt.Sprintf("step %d %s: %s", i+1, step.Method, detail)
				return r
			case trimNotApplicable:
				r.Outcome, r.Detail = result.NotApplicable, detail
				return r
			}
		}
		var got Response
		var err error
		sent := step.Method
		if step.IsLine() {
			sent = "(raw line)"
			ls, ok := tg.(target.LineSender)
			if !ok {
				r.Outcome, r.Detail = result.NotApplicable, "the target cannot send raw lines"
				return r
			}
			got, err = sendLine(ctx, ls, *step.Line)
		} else {
			got, err = call(ctx, tg, step.Method, bindHandles(step.Params, handles))
		}
		var fail *target.Failure
		switch {
		case errors.As(err, &fail):
			r.Outcome, r.Step, r.Detail = result.Outcome(fail.Outcome), i+1, fail.Error()
			return r
		case err != nil:
			r.Outcome, r.Step, r.Detail = result.Failed, i+1, err.Error()
			return r
		}
		if d, parts := compareFor(info, step, got); d != "" {
			r.Parts = parts
			r.Sent = sent + " " + clip(sentBytes(step))
			r.Outcome, r.Step = result.Failed, i+1
			if got.Error != nil && got.Error.Kind() == protocol.KindUnsupported && (step.Error == nil || step.Error.Kind() != protocol.KindUnsupported) {
				r.Outcome = result.Unsupported
			}
			r.Detail = fmt.Sprintf("step %d %s: %s\n  sent: %s %s", i+1, sent, d, sent, clip(sentBytes(step)))
			return r
		}
		if step.Method == protocol.MethodWindowCreate && step.Error == nil {
			var want, have struct {
				Window string `json:"window"`
			}
			_ = json.Unmarshal(step.Result, &want)
			_ = json.Unmarshal(got.Result, &have)
			if want.Window != "" {
				handles[want.Window] = have.Window
			}
		}
	}
	return r
}

// sentBytes is what a step sends, compact, for a failure message.
func sentBytes(s Step) []byte {
	if s.IsLine() {
		b, _ := json.Marshal(*s.Line)
		return b
	}
	var buf bytes.Buffer
	if json.Compact(&buf, s.Params) != nil {
		return s.Params
	}
	return buf.Bytes()
}

// bindHandles replaces a params.window that names a handle the reference
// returned earlier in the case with the handle the implementation
// returned for it. Any other value (an unknown handle, on purpose) is sent
// as recorded.
func bindHandles(params json.RawMessage, handles map[string]string) json.RawMessage {
	if len(handles) == 0 || len(params) == 0 {
		return params
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(params, &m) != nil {
		return params
	}
	var h string
	if json.Unmarshal(m["window"], &h) != nil {
		return params
	}
	actual, ok := handles[h]
	if !ok {
		return params
	}
	m["window"], _ = json.Marshal(actual)
	out, err := json.Marshal(m)
	if err != nil {
		return params
	}
	return out
}

func call(ctx context.Context, tg target.Target, method string, params json.RawMessage) (Response, error) {
	var p any = params
	if params == nil {
		p = nil
	}
	res, err := tg.Call(ctx, method, p)
	var pe *protocol.Error
	switch {
	case err == nil:
		return Response{Result: res}, nil
	case errors.As(err, &pe):
		return Response{Error: pe}, nil
	}
	return Response{}, err
}

func sendLine(ctx context.Context, ls target.LineSender, line string) (Response, error) {
	resp, err := ls.SendLine(ctx, []byte(line))
	if err != nil {
		return Response{}, err
	}
	if resp == nil {
		return Response{None: true}, nil
	}
	var rr protocol.Response
	if err := json.Unmarshal(resp, &rr); err != nil {
		return Response{}, &target.Failure{Outcome: target.ProtocolError, Method: "(raw line)",
			Detail: fmt.Sprintf("the response is not a JSON-RPC response: %s", clip(resp))}
	}
	if rr.ID == nil {
		rr.ID = json.RawMessage("null")
	}
	return Response{Result: rr.Result, Error: rr.Error, ID: rr.ID}, nil
}

// How replay treats a trimmer.trim step.
const (
	trimCompared      = iota // an answer that names no trimmer of the reference: compared as recorded
	trimChecked              // judged by the guarantee, and kept
	trimFailed               // judged by the guarantee, and broken
	trimNotApplicable        // cannot be judged for this implementation
)

// replayTrim judges a trimmer.trim step without the reference's trimmer
// names or outputs, which SPEC §8d and D-35 rule out as a measure of
// another implementation: in a case of a guarantee (capability
// trimmer/<guarantee>) the recorded input and limit go to every trimmer the
// implementation declares that claims the guarantee, and the guarantee is
// checked on each output, as its property does. A step that answered an
// error for a trimmer the reference does not have (ANY-10) is compared as
// recorded, unless the implementation declares a trimmer of that name.
// seen holds the inputs already checked in the case: the reference sent
// one input to each of its trimmers in turn.
func replayTrim(ctx context.Context, tg target.Target, info target.Info, f File, step Step, seen map[string]bool) (int, string) {
	var p struct {
		Trimmer  string            `json:"trimmer"`
		Messages []json.RawMessage `json:"messages"`
		Limit    json.RawMessage   `json:"limit"`
	}
	if err := json.Unmarshal(step.Params, &p); err != nil {
		return trimNotApplicable, "the recorded trimmer.trim params are not readable: " + err.Error()
	}
	guarantee, ok := strings.CutPrefix(f.Capability, protocol.CapTrimmer+"/")
	if !ok || !protocol.IsGuaranteeCapability(f.Capability) {
		for _, d := range info.Trimmers {
			if d.Name == p.Trimmer {
				return trimNotApplicable, fmt.Sprintf("the case expects trimmer %q to be unknown, and the implementation declares a trimmer of that name", p.Trimmer)
			}
		}
		if step.Error == nil {
			return trimNotApplicable, fmt.Sprintf("the case records the output of the reference's trimmer %q, which judges no other trimmer (SPEC §8d, D-35)", p.Trimmer)
		}
		return trimCompared, ""
	}
	var limit int
	if err := json.Unmarshal(p.Limit, &limit); err != nil {
		return trimNotApplicable, fmt.Sprintf("the recorded limit %s is not a count: %v", p.Limit, err)
	}
	key := string(p.Limit) + " " + string(sentBytes(Step{Params: mustMarshal(p.Messages)}))
	if seen[key] {
		return trimChecked, ""
	}
	seen[key] = true
	if err := properties.CheckTrimmerGuarantee(ctx, tg, guarantee, p.Messages, limit); err != nil {
		return trimFailed, err.Error()
	}
	return trimChecked, ""
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}
