package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// The stall check's knobs: make test runs a narrow selection; make
// test-stall runs the cases that play summarizer scripts, at three seeds.
var (
	stallRun    = flag.String("stall.run", `^(SUM-7/|prop/diff-window-summarize-trim$|prop/diff-budget-(prepare|compress)$)`, "cases the stall check runs (a -run pattern)")
	stallSeeds  = flag.String("stall.seeds", "1 2 3", "seeds the stall check runs")
	stallChecks = flag.Int("stall.checks", 30, "-checks of the stall check's runs")
	stallStop   = flag.Duration("stall.stop", 200*time.Millisecond, "how long the stalled run's process group is stopped at a time")
	// stallConform checks another build, such as one of an older commit,
	// to show what the check finds there.
	stallConform = flag.String("stall.conform", "", "the conform binary the stall check runs (default: this test's build)")
	stallShrink  = flag.Bool("stall.shrink", false, "also check that a failing property shrinks to the same counterexample when stalled (make test-stall)")
)

// TestSameReportWhenStalled runs conform against conform serve twice per
// seed: once as it is, and once while the whole run's process group — the
// harness and the implementation — is stopped most of the time
// (SIGSTOP/SIGCONT), as a paused VM or a starved CI runner does. The JSON
// reports must be the same but for timings (D-44): no outcome may depend on
// which of two timers fires first, on the wall clock, or on how long
// shrinking ran.
func TestSameReportWhenStalled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the summarizer cases twice per seed, once stalled")
	}
	// The stalled runs spend most of their time stopped: every run starts
	// at once, the test holding one of go test's -parallel slots while
	// they wait, instead of one slot per seed.
	t.Parallel()
	conform := stallBinary(t)
	type run struct {
		report map[string]any
		err    error
	}
	seeds := strings.Fields(*stallSeeds)
	quiet, stalled := make([]chan run, len(seeds)), make([]chan run, len(seeds))
	for i, seed := range seeds {
		args := []string{"-seed", seed, "-checks", strconv.Itoa(*stallChecks), "-run", *stallRun, "-report", "none"}
		for _, r := range []struct {
			c    *chan run
			stop time.Duration
			dir  string
		}{{&quiet[i], 0, t.TempDir()}, {&stalled[i], *stallStop, t.TempDir()}} {
			*r.c = make(chan run, 1)
			go func() {
				rep, err := stallRunReport(conform, append(args, "--", conform, "serve"), r.stop, r.dir)
				*r.c <- run{rep, err}
			}()
		}
	}
	for i, seed := range seeds {
		t.Run("seed-"+seed, func(t *testing.T) {
			q, s := <-quiet[i], <-stalled[i]
			require.NoError(t, q.err, "the quiet run")
			require.NoError(t, s.err, "the stalled run")
			require.NotEmpty(t, q.report["cases"], "the selection %q runs no case", *stallRun)
			if diff := cmp.Diff(q.report, s.report); diff != "" {
				t.Errorf("seed %s: the stalled run's report differs from the quiet run's (-quiet +stalled):\n%s", seed, diff)
			}
		})
	}
}

// TestSameCounterexampleWhenStalled shrinks one property failure twice, once
// as it is and once with the run stopped most of the time: the minimal
// counterexample, and so the report, must be the same (D-44: shrinking is
// bounded by steps, not seconds). The failure needs about 21,000
// executions to shrink to its one-message form, a little over 2 s of CPU;
// stalled, that is more wall time than rapid's own 30-second bound allowed.
// In process, against a faulty variant: a correct implementation has
// nothing to shrink.
func TestSameCounterexampleWhenStalled(t *testing.T) {
	if testing.Short() || !*stallShrink {
		t.Skip("shrinks a failure twice, once stalled; make test-stall runs it (-stall.shrink)")
	}
	t.Parallel()
	conform := stallBinary(t)
	args := []string{"-mutant", "outsider-window-estimate-skips-combining-marks", "-seed", "42", "-checks", "50", "-run", "^prop/window-estimate$", "-report", "none"}
	quiet, err := stallRunReport(conform, args, 0, t.TempDir())
	require.NoError(t, err, "the quiet run")
	stalled, err := stallRunReport(conform, args, *stallStop, t.TempDir())
	require.NoError(t, err, "the stalled run")
	require.Contains(t, fmt.Sprint(quiet["cases"]), "for 1 message", "the quiet run shrinks to one message")
	if diff := cmp.Diff(quiet, stalled); diff != "" {
		t.Errorf("the stalled run's counterexample differs from the quiet run's (-quiet +stalled):\n%s", diff)
	}
}

// stallBinary is the conform the stall checks run: -stall.conform, or this
// test's own build.
func stallBinary(t *testing.T) string {
	if *stallConform != "" {
		return *stallConform
	}
	conform, err := exec.LookPath("conform")
	require.NoError(t, err)
	return conform
}

// stallRunReport runs conform with args (which name the implementation), in a
// process group of its own that is stopped for stop of every stop+30 ms
// (none when stop is 0), and returns its JSON report, written in dir,
// without the members that are timings or name the run's own processes.
func stallRunReport(conform string, args []string, stop time.Duration, dir string) (map[string]any, error) {
	out := filepath.Join(dir, "report.json")
	cmd := exec.Command(conform, append([]string{"-json", out}, args...)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("conform %v: %w", args, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if stop > 0 {
		pgid := cmd.Process.Pid
	stalling:
		for {
			_ = syscall.Kill(-pgid, syscall.SIGSTOP)
			time.Sleep(stop)
			_ = syscall.Kill(-pgid, syscall.SIGCONT)
			select {
			case err := <-done:
				done <- err
				break stalling
			case <-time.After(30 * time.Millisecond):
			}
		}
	}
	err := <-done
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return nil, fmt.Errorf("conform %v: %w", args, err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var rep map[string]any
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("%s: %w", out, err)
	}
	return withoutTimings(rep).(map[string]any), nil
}

// withoutTimings drops the members of a JSON report that measure time or
// name the processes of one run.
func withoutTimings(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "started", "duration_ms", "target":
			default:
				out[k] = withoutTimings(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = withoutTimings(x)
		}
		return out
	}
	return v
}
