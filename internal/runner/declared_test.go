package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// Two small implementations that declare only core and openai, as a typed
// in-process library does (D-42): they validate nothing the suite could
// see differently, warn about nothing, and read only OpenAI messages.

// coreOpenAI serves an engine in-process, declares capabilities window and
// history at level core for format openai, and answers without warnings:
// a core implementation has none to give.
type coreOpenAI struct {
	target.Target
}

func (c coreOpenAI) Info() target.Info {
	i := c.Target.Info()
	i.Capabilities = []string{protocol.CapWindow, protocol.CapHistory}
	i.Levels = []string{protocol.LevelCore}
	i.Formats = []string{protocol.FormatOpenAI}
	return i
}

// Call refuses Anthropic's tool blocks, which a library of OpenAI's format
// cannot read (the suite must never send them: D-42), and drops the
// warnings of every result.
func (c coreOpenAI) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if sent, err := json.Marshal(params); err == nil && hasAnthropicBlock(sent) {
		return nil, fmt.Errorf("%s sent Anthropic tool blocks to an implementation that declares only OpenAI's format: %s", method, sent)
	}
	res, err := c.Target.Call(ctx, method, params)
	if err != nil {
		return res, err
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(res, &obj) != nil || obj["warnings"] == nil {
		return res, nil
	}
	obj["warnings"] = json.RawMessage("[]")
	return json.Marshal(obj)
}

// hasAnthropicBlock reports whether a message anywhere in v has a
// tool_use or tool_result block in its content array.
func hasAnthropicBlock(v json.RawMessage) bool {
	var m struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(v, &m) == nil && m.Role != "" {
		var blocks []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Content, &blocks) == nil && slices.ContainsFunc(blocks, func(b struct {
			Type string `json:"type"`
		}) bool {
			return b.Type == "tool_use" || b.Type == "tool_result"
		}) {
			return true
		}
	}
	var obj map[string]json.RawMessage
	var arr []json.RawMessage
	switch {
	case json.Unmarshal(v, &obj) == nil:
		for _, x := range obj {
			if hasAnthropicBlock(x) {
				return true
			}
		}
	case json.Unmarshal(v, &arr) == nil:
		return slices.ContainsFunc(arr, hasAnthropicBlock)
	}
	return false
}

// threeBugs is the reference with three realistic bugs, one per method:
// the estimate rounds down (EST-1), pruning keeps the first prompt of a
// run instead of the last (PRUNE-1), and the trim's metrics estimate the
// input instead of what is kept (MET-1).
type threeBugs struct {
	server.Reference
	estimate, window server.WindowEngine
	prune            server.HistoryEngine
}

func (b threeBugs) EstimateTokens(msgs []message.Message) int { return b.estimate.EstimateTokens(msgs) }
func (b threeBugs) Prune(msgs []message.Message) ([]message.Message, []int) {
	return b.prune.Prune(msgs)
}
func (b threeBugs) NewWindow(config json.RawMessage) (server.Window, window.Config, []window.Warning, error) {
	return b.window.NewWindow(config)
}

func engineOf(t *testing.T, name string) server.Engine {
	t.Helper()
	m, ok := mutants.Lookup(name)
	require.True(t, ok, "no mutant %s", name)
	return m.Engine
}

// declaredSeed is the seed both runs use, so that the counts below hold.
const declaredSeed = 1

// declaredChecks is the random checks a property makes in these runs. Their
// subject is what a declaration leaves out and how failures group into
// causes (D-42), which every scenario and every property's edge examples
// show; the number of random checks is TestReferenceInProcess's subject,
// and TestGeneratorsKeepToDeclaredFormats (internal/properties) draws the
// declared formats at length (D-86).
const declaredChecks = 10

func runDeclared(t *testing.T, engine server.Engine) *report.Run {
	t.Helper()
	tg, err := inprocess.New(engine)
	require.NoError(t, err)
	core := coreOpenAI{Target: tg}
	sum, err := runner.RunAll(context.Background(), core, runner.Options{Seed: declaredSeed, Checks: declaredChecks})
	require.NoError(t, err)
	info := core.Info()
	return &report.Run{Implementation: &info, Seed: sum.Seed, Cases: report.Judge(sum.Results, nil, false)}
}

// TestDeclaredCoreOpenAI: a correct implementation declaring only core
// and openai fails nothing, and every case outside its declaration is not
// applicable; one with three bugs shows exactly three causes.
func TestDeclaredCoreOpenAI(t *testing.T) {
	if testing.Short() {
		t.Skip("two whole runs")
	}
	// Two whole runs, each on engines of its own: side by side, so that
	// the package's slowest test does not hold the other core idle.
	t.Run("correct", func(t *testing.T) {
		t.Parallel()
		run := runDeclared(t, server.Reference{})
		why := map[string]int{}
		for _, k := range run.Cases {
			switch k.Outcome {
			case result.Passed:
			case result.NotApplicable:
				why[k.Detail]++
			default:
				t.Errorf("%s %s: %s", k.Outcome, k.ID, k.Detail)
			}
		}
		for _, want := range []string{"level validation not declared", "level diagnostics not declared", "format anthropic not declared", "capability budget not declared"} {
			assert.NotZero(t, why[want], "no case is not applicable for %q; got %v", want, why)
		}
		for _, v := range run.LevelVerdicts() {
			assert.NotEqual(t, report.LevelFail, v.Verdict, "%s %s fails", v.Capability, v.Level)
		}
	})
	t.Run("three bugs", func(t *testing.T) {
		t.Parallel()
		run := runDeclared(t, threeBugs{
			estimate: engineOf(t, "estimate-floor").(server.WindowEngine),
			prune:    engineOf(t, "prune-keeps-first").(server.HistoryEngine),
			window:   engineOf(t, "metrics-input-tokens").(server.WindowEngine),
		})
		causes := run.Causes()
		if len(causes) != 3 {
			for i, c := range causes {
				t.Logf("cause %d: %v %s (%d cases, e.g. %s) shapes %q cases %v", i+1, c.Clauses, c.Shape, len(c.Cases), c.Example.Case, c.Shapes, c.Cases)
			}
			t.Fatalf("%s; want 3 causes", report.CausesLine(causes))
		}
		var text strings.Builder
		require.NoError(t, report.Text(&text, run, report.TextOptions{}))
		head, _, _ := strings.Cut(text.String(), "\n--- ")
		t.Log(head)
		if !strings.Contains(head, "3 causes across") {
			t.Errorf("the text report does not open with the causes:\n%s", head)
		}
	})
}
