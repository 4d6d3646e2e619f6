package main

import (
	"encoding/json"
	"errors"
	"flag"
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
	conform, err := exec.LookPath("conform")
	require.NoError(t, err)
	for _, seed := range strings.Fields(*stallSeeds) {
		t.Run("seed-"+seed, func(t *testing.T) {
			t.Parallel()
			args := []string{"-seed", seed, "-checks", strconv.Itoa(*stallChecks), "-run", *stallRun, "-report", "none"}
			quiet := stallRunReport(t, conform, args, 0)
			stalled := stallRunReport(t, conform, args, *stallStop)
			require.NotEmpty(t, quiet["cases"], "the selection %q runs no case", *stallRun)
			if diff := cmp.Diff(quiet, stalled); diff != "" {
				t.Errorf("seed %s: the stalled run's report differs from the quiet run's (-quiet +stalled):\n%s", seed, diff)
			}
		})
	}
}

// stallRunReport runs conform with args against conform serve, in a
// process group of its own that is stopped for stop of every stop+30 ms
// (none when stop is 0), and returns its JSON report without the members
// that are timings or name the run's own processes.
func stallRunReport(t *testing.T, conform string, args []string, stop time.Duration) map[string]any {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.json")
	cmd := exec.Command(conform, append(args, "-json", out, "--", conform, "serve")...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	require.NoError(t, cmd.Start())
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
		require.NoError(t, err, "conform %v", args)
	}
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(data, &rep))
	return withoutTimings(rep).(map[string]any)
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
