package golden_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/golden"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/server"
)

// repoCases is the checked-in golden directory, seen from this package.
var repoCases = filepath.Join("..", "..", filepath.FromSlash(golden.Dir))

// TestGoldenFilesAreUpToDate regenerates every golden case from the
// reference and compares the files Write would write with the checked-in
// ones: a scenario or a reference change that alters a request or a
// response must come with regenerated vectors. The files are compared in
// memory, as Load reads them (decompressed), not written, gzipped and read
// back (D-91): a fresh file equal to a checked-in one that Load accepts is
// one Load accepts.
func TestGoldenFilesAreUpToDate(t *testing.T) {
	t.Parallel()
	cases, err := golden.Generate(nil)
	require.NoError(t, err)
	fresh, err := golden.Render(cases)
	require.NoError(t, err)
	have, err := golden.Load(repoCases)
	require.NoError(t, err, "run `make golden` to write the golden cases")
	byPath := map[string]golden.File{}
	for _, f := range have {
		byPath[f.Path] = f
	}
	var changed, added, gone []string
	for _, f := range fresh {
		old, ok := byPath[f.Path]
		delete(byPath, f.Path)
		switch {
		case !ok:
			added = append(added, f.Path)
		case !bytes.Equal(old.Raw, f.Raw):
			changed = append(changed, f.Path+firstLineDiff(old.Raw, f.Raw))
		}
	}
	for p := range byPath {
		gone = append(gone, p)
	}
	slices.Sort(gone)
	if len(changed)+len(added)+len(gone) == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s is out of date with the scenarios and the reference: %d changed, %d new, %d gone.\n", golden.Dir, len(changed), len(added), len(gone))
	for _, l := range []struct {
		what  string
		paths []string
	}{{"changed", changed}, {"new", added}, {"gone", gone}} {
		for i, p := range l.paths {
			if i == 5 {
				fmt.Fprintf(&b, "  … and %d more %s\n", len(l.paths)-5, l.what)
				break
			}
			fmt.Fprintf(&b, "  %s: %s\n", l.what, p)
		}
	}
	b.WriteString("Run `make golden` and commit the result (review the diff: a changed response is a changed behaviour).")
	t.Error(b.String())
}

// firstLineDiff names the first line where two files differ.
func firstLineDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf(" (line %d: %q → %q)", i+1, clip(al[i]), clip(bl[i]))
		}
	}
	return fmt.Sprintf(" (%d lines → %d)", len(al), len(bl))
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// plainCases are the checked-in cases that are not gzipped: the gzipped
// few (hundreds of thousands of tokens each) are left to
// TestGoldenFilesAreUpToDate, which records them afresh anyway.
func plainCases(t *testing.T) []golden.File {
	t.Helper()
	all, err := golden.Load(repoCases)
	require.NoError(t, err)
	var files []golden.File
	for _, f := range all {
		if len(f.Raw) <= golden.GzipAbove {
			files = append(files, f)
		}
	}
	return files
}

// TestReplayPassesTheReference replays the checked-in cases against the
// reference, in process: the comparison rules accept what they were
// recorded from, with the handles bound afresh. The few gzipped cases
// (hundreds of thousands of tokens each) are left to
// TestGoldenFilesAreUpToDate, which records them afresh anyway.
func TestReplayPassesTheReference(t *testing.T) {
	t.Parallel()
	files := plainCases(t)
	tg, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	results := golden.Replay(context.Background(), tg, files, golden.Options{})
	require.Equal(t, len(files), len(results), "one result per case")
	for _, r := range results {
		assert.Equal(t, result.Passed, r.Outcome, "%s\n%s", r.ID, r.Detail)
	}
}

// TestReplayRejectsMutants: the vectors alone catch faulty variants, with a
// failure in a case of one of the clauses the bug breaks.
func TestReplayRejectsMutants(t *testing.T) {
	t.Parallel()
	files, err := golden.Load(repoCases)
	require.NoError(t, err)
	for _, name := range []string{"head-tail-overlap", "estimate-floor", "prune-keeps-first", "summary-prefix-missing"} {
		m, ok := mutants.Lookup(name)
		require.True(t, ok, "no mutant %s", name)
		tg, err := inprocess.New(m.Engine)
		require.NoError(t, err)
		var opts golden.Options
		opts.Run = regexp.MustCompile("^(" + strings.Join(m.Clauses, "|") + ")/")
		killed := false
		for _, r := range golden.Replay(context.Background(), tg, files, opts) {
			if r.Outcome == result.Failed {
				killed = true
				assert.NotZero(t, r.Step, "%s: %s failed without saying at which step: %+v", name, r.ID, r)
				assert.NotEmpty(t, r.Detail, "%s: %s failed without saying how: %+v", name, r.ID, r)
			}
		}
		assert.True(t, killed, "mutant %s (%s) survived the golden cases of %v", name, m.Bug, m.Clauses)
	}
}

// uuidTarget answers window.create with handles of its own and checks that
// later calls use them.
type uuidTarget struct {
	target.Target
	t       *testing.T
	handles map[string]string // ours → the reference's
	next    int
}

func (u *uuidTarget) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	raw, _ := json.Marshal(params)
	var p map[string]json.RawMessage
	_ = json.Unmarshal(raw, &p)
	var h string
	if json.Unmarshal(p["window"], &h) == nil && method != protocol.MethodWindowCreate {
		ref, ok := u.handles[h]
		if !ok && !strings.HasPrefix(h, "no-such") {
			u.t.Errorf("%s with handle %q, which this target never returned", method, h)
		}
		if ok {
			p["window"], _ = json.Marshal(ref)
			raw, _ = json.Marshal(p)
		}
	}
	res, err := u.Target.Call(ctx, method, json.RawMessage(raw))
	if err != nil || method != protocol.MethodWindowCreate {
		return res, err
	}
	var r map[string]json.RawMessage
	_ = json.Unmarshal(res, &r)
	var ref string
	_ = json.Unmarshal(r["window"], &ref)
	u.next++
	mine := fmt.Sprintf("6f1c%04d-uuid", u.next)
	u.handles[mine] = ref
	r["window"], _ = json.Marshal(mine)
	return json.Marshal(r)
}

// SendLine passes raw lines through: they hold no handle.
func (u *uuidTarget) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	return u.Target.(target.LineSender).SendLine(ctx, line)
}

func TestReplayBindsHandles(t *testing.T) {
	files, err := golden.Load(repoCases)
	require.NoError(t, err)
	inner, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	tg := &uuidTarget{Target: inner, t: t, handles: map[string]string{}}
	var opts golden.Options
	opts.Run = regexp.MustCompile(`^(WIN-[0-9]+|SUM-4|PROTO-2)/`)
	results := golden.Replay(context.Background(), tg, files, opts)
	require.GreaterOrEqual(t, len(results), 10, "cases selected")
	for _, r := range results {
		assert.Equal(t, result.Passed, r.Outcome, "%s\n%s", r.ID, r.Detail)
	}
	assert.NotZero(t, tg.next, "no window was created")
}

func TestCompare(t *testing.T) {
	res := func(s string) golden.Response { return golden.Response{Result: json.RawMessage(s)} }
	errResp := func(kind string, data string) golden.Response {
		e := protocol.NewError(kind, "whatever the implementation says")
		if data != "" {
			_ = json.Unmarshal([]byte(data), e.Data)
		}
		return golden.Response{Error: e}
	}
	trim := golden.Step{Method: "window.trim", Params: json.RawMessage(`{}`),
		Result: json.RawMessage(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":1.0},"warnings":[{"code":"x","message":"reference words"}],"summary":null}`)}
	loopStep := golden.Step{Method: "loop.run", Result: json.RawMessage(`{"iterations":[{"events":[{"code":"preserve_first_raised","message":"raised"},{"code":"conversation_metrics","message":"Conversation: 2 messages (~1 tokens)"}]}]}`)}
	for _, c := range []struct {
		name string
		step golden.Step
		got  golden.Response
		want string // "" for agreement, else a fragment of the difference
	}{
		{"equal", trim, res(`{"summary":null,"warnings":[{"code":"x","message":"reference words"}],"metrics":{"n":1},"trimmed":[{"content":"a","role":"user"}]}`), ""},
		{"warning messages are free text", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":1},"warnings":[{"code":"x","message":"mine"}]}`), ""},
		{"extra top-level members are ignored", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":1},"warnings":[{"code":"x"}],"summary":null,"summarizer_calls":[]}`), ""},
		{"a null member may be absent", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":1},"warnings":[{"code":"x"}]}`), ""},
		{"a message with an extra member differs", trim, res(`{"trimmed":[{"role":"user","content":"a","name":"x"}],"metrics":{"n":1},"warnings":[{"code":"x"}]}`), `result.trimmed[0].name: want nothing: no such member, got "x"`},
		{"a missing member", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"warnings":[{"code":"x"}]}`), "result.metrics: want {\"n\":1.0}, got nothing: the member is missing"},
		{"a different number", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":2},"warnings":[{"code":"x"}]}`), "result.metrics.n: want 1.0, got 2"},
		{"a warning code differs", trim, res(`{"trimmed":[{"role":"user","content":"a"}],"metrics":{"n":1},"warnings":[{"code":"y","message":"reference words"}]}`), "result.warnings[0].code"},
		{"an error for a result", trim, errResp("invalid_params", ""), "result: want a result {"},
		{"handles are the implementation's", golden.Step{Method: "window.create", Result: json.RawMessage(`{"window":"w1","warnings":[]}`)}, res(`{"window":"b7e2","warnings":[]}`), ""},
		{"a handle must be a string", golden.Step{Method: "window.create", Result: json.RawMessage(`{"window":"w1"}`)}, res(`{"window":7}`), "result.window: want a handle"},
		{"error kinds agree, messages do not matter", golden.Step{Method: "m", Error: protocol.NewError("invalid_config", "max_messages: want an integer")}, errResp("invalid_config", ""), ""},
		{"error kinds differ", golden.Step{Method: "m", Error: protocol.NewError("invalid_config", "x")}, errResp("invalid_params", ""), `error.kind: want "invalid_config", got "invalid_params"`},
		{"error data counts", golden.Step{Method: "m", Error: &protocol.Error{Code: -32004, Message: "x", Data: &protocol.ErrorData{Kind: "context_window_exhausted", Model: "gpt-4o"}}}, errResp("context_window_exhausted", `{"model":"gpt-4"}`), "error.data.model"},
		{"data.path is allowed on invalid_config where the reference has none", golden.Step{Method: "window.create", Error: protocol.NewError("invalid_config", "x")}, errResp("invalid_config", `{"path":"config.max_messages"}`), ""},
		{"a passed-on warning's text in a loop event is free", loopStep, res(`{"iterations":[{"events":[{"code":"preserve_first_raised","message":"mine"},{"code":"conversation_metrics","message":"Conversation: 2 messages (~1 tokens)"}]}]}`), ""},
		{"a loop event's fixed text counts", loopStep, res(`{"iterations":[{"events":[{"code":"preserve_first_raised","message":"raised"},{"code":"conversation_metrics","message":"Conversation: 2 messages"}]}]}`), "message"},
		{"a line's id", golden.Step{Line: ptr("oops"), ID: json.RawMessage(`null`), Error: protocol.NewError("parse_error", "x")}, golden.Response{ID: json.RawMessage(`1`), Error: protocol.NewError("parse_error", "y")}, "response id"},
		{"a line answered as expected", golden.Step{Line: ptr("oops"), ID: json.RawMessage(`null`), Error: protocol.NewError("parse_error", "x")}, golden.Response{ID: json.RawMessage(`null`), Error: &protocol.Error{Code: -32700, Message: "no data member"}}, ""},
	} {
		got := golden.Compare(c.step, c.got)
		if c.want == "" {
			assert.Empty(t, got, "%s: want agreement", c.name)
		} else {
			assert.Contains(t, got, c.want, "%s: want a difference mentioning it", c.name)
		}
	}
}

func ptr(s string) *string { return &s }

func TestMethodCapability(t *testing.T) {
	for method, want := range map[string]string{
		"window.create": "window", "window.trim": "window", "window.summarize": "window.summarize",
		"history.build": "history", "budget.prepare": "budget", "tokens.encode": "tokens.cl100k",
		"initialize": "", "shutdown": "", "window.frobnicate": "window", "nothing.here": "",
	} {
		assert.Equal(t, want, golden.MethodCapability(method), "MethodCapability(%q)", method)
	}
}

func TestDecodeRejectsMalformedFiles(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown member":  `{"format":1,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":["X-1"],"steps":[],"extra":1}`,
		"wrong format":    `{"format":2,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":["X-1"],"steps":[]}`,
		"no clauses":      `{"format":1,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":[],"steps":[]}`,
		"both":            `{"format":1,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":["X-1"],"steps":[{"method":"m","params":{},"result":{},"error":{"code":-32602,"message":"x"}}]}`,
		"neither":         `{"format":1,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":["X-1"],"steps":[{"method":"m","params":{}}]}`,
		"line and method": `{"format":1,"id":"X-1/a","name":"a","feature":"f","title":"t","clauses":["X-1"],"steps":[{"line":"x","method":"m","result":{}}]}`,
	} {
		_, err := golden.Decode([]byte(doc))
		assert.Error(t, err, "%s: Decode accepted %s", name, doc)
	}
}

// TestWriteRemovesStaleFiles: a scenario that is gone takes its file along.
func TestWriteRemovesStaleFiles(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "window", "trim", "WIN-1_gone.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(stale), 0o755))
	require.NoError(t, os.WriteFile(stale, []byte("{}"), 0o644))
	c := golden.Case{Format: golden.FormatVersion, ID: "WIN-1/kept", Name: "kept", Feature: "window/trim.feature", Title: "t",
		Clauses: []string{"WIN-1"}, Steps: []golden.Step{{Method: "window.estimate", Params: json.RawMessage(`{"messages":[]}`), Result: json.RawMessage(`{"tokens":0}`)}}}
	require.NoError(t, golden.Write(dir, []golden.Case{c}))
	_, err := os.Stat(stale)
	assert.ErrorIs(t, err, os.ErrNotExist, "the stale file is still there")
	files, err := golden.Load(dir)
	require.NoError(t, err)
	require.Len(t, files, 1)
	assert.Equal(t, "window/trim/WIN-1_kept.json", files[0].Path)
}

// renamedTrimmers is the reference with its trimmers under other names: a
// correct implementation of capability trimmer whose trimmers are its own
// (SPEC §8d, D-35).
type renamedTrimmers struct{ target.Target }

func (r renamedTrimmers) Info() target.Info {
	info := r.Target.Info()
	info.Trimmers = slices.Clone(info.Trimmers)
	for i := range info.Trimmers {
		info.Trimmers[i].Name = "mine-" + info.Trimmers[i].Name
	}
	return info
}

func (r renamedTrimmers) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if method != protocol.MethodTrimmerTrim && method != protocol.MethodTrimmerCount {
		return r.Target.Call(ctx, method, params)
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	var name string
	_ = json.Unmarshal(p["trimmer"], &name)
	if ours, ok := strings.CutPrefix(name, "mine-"); ok {
		p["trimmer"], _ = json.Marshal(ours)
	} else {
		p["trimmer"], _ = json.Marshal("not-" + name) // the reference's own names are unknown here
	}
	return r.Target.Call(ctx, method, p)
}

// TestReplayJudgesTrimmersByTheirGuarantees: replaying the trimmer cases
// against correct trimmers of other names passes — the recorded names and
// outputs are the reference's and judge nothing — while a trimmer that
// breaks its guarantee still fails them.
func TestReplayJudgesTrimmersByTheirGuarantees(t *testing.T) {
	t.Parallel()
	files, err := golden.Load(repoCases)
	require.NoError(t, err)
	opts := golden.Options{Run: regexp.MustCompile(`^ANY-`)}
	inner, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	results := golden.Replay(context.Background(), renamedTrimmers{inner}, files, opts)
	require.NotEmpty(t, results)
	checked := 0
	for _, r := range results {
		assert.Contains(t, []result.Outcome{result.Passed, result.NotApplicable}, r.Outcome, "%s\n%s", r.ID, r.Detail)
		if r.Outcome == result.Passed {
			checked++
		}
	}
	assert.Greater(t, checked, 10, "trimmer cases judged by their guarantees")

	m, ok := mutants.Lookup("trimmer-drops-system")
	require.True(t, ok)
	bad, err := inprocess.New(m.Engine)
	require.NoError(t, err)
	failed := false
	for _, r := range golden.Replay(context.Background(), renamedTrimmers{bad}, files, golden.Options{Run: regexp.MustCompile(`^ANY-3/`)}) {
		failed = failed || r.Outcome == result.Failed
	}
	assert.True(t, failed, "a trimmer that drops the system prompt passes replay of ANY-3")
}

// coreOpenAI is the reference declaring levels core and formats openai
// (D-42): it cannot read Anthropic's tool blocks, and it warns about
// nothing and words its summarizer prompts its own way, both diagnostics.
type coreOpenAI struct{ target.Target }

func (c coreOpenAI) Info() target.Info {
	i := c.Target.Info()
	i.Levels = []string{protocol.LevelCore}
	i.Formats = []string{protocol.FormatOpenAI}
	return i
}

var anthropicBlock = regexp.MustCompile(`"type"\s*:\s*"tool_(?:use|result)"`)

func (c coreOpenAI) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if sent, err := json.Marshal(params); err == nil && anthropicBlock.Match(sent) {
		return nil, &target.Failure{Outcome: target.ProtocolError, Method: method, Detail: "sent Anthropic tool blocks to an implementation of OpenAI's format only"}
	}
	res, err := c.Target.Call(ctx, method, params)
	if err != nil {
		return res, err
	}
	var obj map[string]any
	if json.Unmarshal(res, &obj) != nil {
		return res, nil
	}
	if _, ok := obj["warnings"]; ok {
		obj["warnings"] = []any{}
	}
	if calls, ok := obj["summarizer_calls"].([]any); ok {
		for _, call := range calls {
			if m, ok := call.(map[string]any); ok {
				if _, ok := m["prompt"]; ok {
					m["prompt"] = "Summarize, please."
				}
			}
		}
	}
	return json.Marshal(obj)
}

// SendLine passes raw lines through.
func (c coreOpenAI) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	return c.Target.(target.LineSender).SendLine(ctx, line)
}

// TestReplayFiltersByLevelsAndFormats: replay leaves out what the
// implementation did not declare exactly as conform does (D-42) — cases of
// another level or format are not applicable, and diagnostics members are
// not compared — so an honest core, OpenAI-only declaration passes.
func TestReplayFiltersByLevelsAndFormats(t *testing.T) {
	t.Parallel()
	files := plainCases(t)
	inner, err := inprocess.New(server.Reference{})
	require.NoError(t, err)
	why := map[string]int{}
	for _, r := range golden.Replay(context.Background(), coreOpenAI{inner}, files, golden.Options{}) {
		assert.Contains(t, []result.Outcome{result.Passed, result.NotApplicable}, r.Outcome, "%s\n%s", r.ID, r.Detail)
		if r.Outcome == result.NotApplicable {
			why[r.Detail]++
		}
	}
	assert.NotZero(t, why["level validation not declared"], "validation cases left out: %v", why)
	assert.NotZero(t, why["level diagnostics not declared"], "diagnostics cases left out: %v", why)
	assert.NotZero(t, why["format anthropic not declared"], "Anthropic cases left out: %v", why)
}

// TestReplayParts: a failed replay says what the step sent, what came back
// and what the reference answered as data beside its detail (D-72).
func TestReplayParts(t *testing.T) {
	files, err := golden.Load(repoCases)
	require.NoError(t, err)
	m, ok := mutants.Lookup("estimate-floor")
	require.True(t, ok)
	bad, err := inprocess.New(m.Engine)
	require.NoError(t, err)
	failed := 0
	for _, r := range golden.Replay(context.Background(), bad, files, golden.Options{Run: regexp.MustCompile(`^EST-1/`)}) {
		if r.Outcome != result.Failed {
			continue
		}
		failed++
		assert.True(t, strings.HasPrefix(r.Sent, "window.estimate {"), "%s: sent %q", r.ID, r.Sent)
		assert.True(t, strings.HasPrefix(r.Got, "result.tokens: "), "%s: got %q", r.ID, r.Got)
		assert.True(t, strings.HasPrefix(r.Want, "result.tokens: "), "%s: want %q", r.ID, r.Want)
		assert.NotEqual(t, r.Got, r.Want, r.ID)
	}
	assert.NotZero(t, failed, "estimate-floor passes replay of EST-1")
}
