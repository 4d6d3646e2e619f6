package runner_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// answered counts the calls the implementation answered with a result:
// an error answer is not kept, and is asked again (D-97).
type answered struct {
	target.Target
	n *atomic.Int64
}

func (a answered) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	res, err := a.Target.Call(ctx, method, params)
	if err == nil {
		a.n.Add(1)
	}
	return res, err
}

// Properties draw their cases from the run's seed, and a question whose
// answer is a function of it is asked once in a run (D-97): two
// properties that ask the same questions are answered what one of them
// is — trimmers, history.prune, budget.prune and budget.count. The answers
// are the run's: a second run, against a faulty variant, asks again and
// fails.
func TestAQuestionIsAskedOncePerRun(t *testing.T) {
	run := func(engine server.Engine, re string, workers int) (requests int64, failed int) {
		t.Helper()
		var n atomic.Int64
		var targets []target.Target
		for range workers {
			tg, err := inprocess.New(engine)
			require.NoError(t, err)
			targets = append(targets, answered{Target: tg, n: &n})
		}
		sum, err := runner.RunWorkers(context.Background(), targets, runner.Options{Seed: 1, Checks: 5, Run: regexp.MustCompile(re)})
		require.NoError(t, err)
		require.NotEmpty(t, sum.Results)
		for _, r := range sum.Results {
			if r.Outcome.IsFailure() {
				failed++
			}
		}
		return n.Load(), failed
	}
	for _, pair := range [][2]string{
		{`^prop/trimmer-subsequence$`, `^prop/trimmer-(subsequence|total)$`},
		{`^prop/prune-only-prompts$`, `^prop/prune-(only-prompts|no-adjacent-prompts)$`},
		{`^prop/budget-prune-subsequence$`, `^prop/budget-prune-(subsequence|oldest-first)$`},
	} {
		t.Run("asked once "+pair[0], func(t *testing.T) {
			one, failed := run(server.Reference{}, pair[0], 1)
			require.Zero(t, failed)
			require.Positive(t, one)
			both, failed := run(server.Reference{}, pair[1], 1)
			require.Zero(t, failed)
			require.Equal(t, one, both, "the second property asked again what the first was answered")
		})
	}
	// MSG-3's property prunes the same history twice on purpose: it asks
	// each time, whatever the run was answered before.
	t.Run("asked again on purpose", func(t *testing.T) {
		only, failed := run(server.Reference{}, `^prop/prune-only-prompts$`, 1)
		require.Zero(t, failed)
		pure, failed := run(server.Reference{}, `^prop/prune-pure-and-deterministic$`, 1)
		require.Zero(t, failed)
		both, failed := run(server.Reference{}, `^prop/prune-(only-prompts|pure-and-deterministic)$`, 1)
		require.Zero(t, failed)
		require.Equal(t, only+pure, both, "the purity property took an answer instead of asking")
	})
	t.Run("in one run", func(t *testing.T) {
		_, failed := run(server.Reference{}, `^prop/trimmer-(subsequence|total)$`, 2)
		require.Zero(t, failed)
		m, ok := mutants.Lookup("trimmer-crashes-on-empty")
		require.True(t, ok)
		_, failed = run(m.Engine, `^prop/trimmer-(subsequence|total)$`, 2)
		require.Positive(t, failed, "a run against a faulty trimmer took the answers of the run before")
	})
}

// TestStraysFollowTheAnswer: a second answer the implementation sends to a
// request whose answer the run kept fails every case that took that
// answer, as it fails the case that sent the request (D-97). The cases an
// implementation that answers every history.prune twice fails are those it
// fails when each runs alone, on one worker or two, whichever asked first.
func TestStraysFollowTheAnswer(t *testing.T) {
	ids := []string{"prop/prune-only-prompts", "prop/prune-no-adjacent-prompts", "prop/prune-matches-rules"}
	outcomes := func(re string, workers int) map[string]result.Outcome {
		t.Helper()
		var targets []target.Target
		for range workers {
			tg, err := target.StartProcess(context.Background(), target.ProcessConfig{
				Command: []string{os.Args[0]}, Env: []string{"CONVSPEC_SERVE=twice:" + protocol.MethodHistoryPrune},
			})
			require.NoError(t, err)
			t.Cleanup(func() { tg.Close() })
			targets = append(targets, tg)
		}
		sum, err := runner.RunWorkers(context.Background(), targets, runner.Options{Seed: 1, Checks: 5, Run: regexp.MustCompile(re)})
		require.NoError(t, err)
		out := map[string]result.Outcome{}
		for _, r := range sum.Results {
			out[r.ID] = r.Outcome
		}
		return out
	}
	alone := map[string]result.Outcome{}
	for _, id := range ids {
		maps.Copy(alone, outcomes("^"+regexp.QuoteMeta(id)+"$", 1))
	}
	for _, id := range ids {
		require.Equal(t, result.ProtocolError, alone[id], "%s alone: each of these properties sends history.prune", id)
	}
	together := "^(" + strings.Join(ids, "|") + ")$"
	for _, workers := range []int{1, 2} {
		require.Equal(t, alone, outcomes(together, workers), "together on %d worker(s): a case that took a kept answer was not charged its second answer", workers)
	}
}
