package runner_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/runner"
)

// fakeWorker is a target whose shutdown ends as told; closed records a
// Close.
type fakeWorker struct {
	err    error
	closed bool
}

func (f *fakeWorker) Info() target.Info { return target.Info{} }
func (f *fakeWorker) Call(context.Context, string, any) (json.RawMessage, error) {
	return nil, errors.New("not called")
}
func (f *fakeWorker) Close() error { f.closed = true; return nil }

// processWorker also shuts down, as a *target.Process does.
type processWorker struct {
	fakeWorker
	shutdown bool
}

func (p *processWorker) Shutdown(context.Context) error { p.shutdown = true; return p.err }

func TestShutdownOutcomes(t *testing.T) {
	tail := "line one\nline two\n"
	for _, tc := range []struct {
		name    string
		errs    []error
		want    result.Outcome
		details []string
	}{
		{name: "clean", errs: []error{nil}, want: result.Passed},
		{name: "garbage", errs: []error{&target.ShutdownError{Problem: target.ShutdownGarbage, Detail: "a line after the answer"}},
			want: result.ProtocolError, details: []string{"shutdown: garbage: a line after the answer"}},
		{name: "crash with stderr", errs: []error{&target.ShutdownError{Problem: target.ShutdownCrash, Detail: "killed", StderrTail: tail}},
			want: result.Crash, details: []string{"shutdown: crash: killed", "last lines of stderr:", "  | line two"}},
		{name: "non-zero exit", errs: []error{&target.ShutdownError{Problem: target.ShutdownNonZeroExit, Detail: "exit status 3"}},
			want: result.Crash, details: []string{"non_zero_exit"}},
		{name: "timeout", errs: []error{&target.ShutdownError{Problem: target.ShutdownTimeout, Detail: "no exit"}},
			want: result.Timeout},
		{name: "other error", errs: []error{errors.New("odd")}, want: result.ProtocolError, details: []string{"odd"}},
		{name: "second of two workers", errs: []error{nil, &target.ShutdownError{Problem: target.ShutdownTimeout, Detail: "no exit"}},
			want: result.Timeout, details: []string{"shutdown: timeout: no exit (worker 2 of 2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var targets []target.Target
			var workers []*processWorker
			for _, err := range tc.errs {
				w := &processWorker{fakeWorker: fakeWorker{err: err}}
				workers = append(workers, w)
				targets = append(targets, w)
			}
			r := runner.Shutdown(context.Background(), targets)
			require.NotNil(t, r)
			assert.Equal(t, runner.ShutdownCase, r.Case)
			assert.Equal(t, tc.want, r.Outcome)
			for _, d := range tc.details {
				assert.Contains(t, r.Detail, d)
			}
			if tc.want == result.Passed {
				assert.Empty(t, r.Detail)
			}
			for _, w := range workers {
				assert.True(t, w.shutdown, "every process worker is shut down")
			}
		})
	}
}

// A run with no process (the reference in-process) has no shutdown case;
// its targets are closed.
func TestShutdownWithoutProcess(t *testing.T) {
	w := &fakeWorker{}
	assert.Nil(t, runner.Shutdown(context.Background(), []target.Target{w}))
	assert.True(t, w.closed)
}

// The case is kept apart from the suite's: its ID names no clause, and
// no scenario or property has it.
func TestShutdownCaseIsNotInTheSuite(t *testing.T) {
	cases, err := runner.Cases(runner.Options{})
	require.NoError(t, err)
	for _, c := range cases {
		assert.NotEqual(t, runner.ShutdownCase.ID, c.ID)
	}
	assert.True(t, strings.HasPrefix(runner.ShutdownCase.ID, "lifecycle/"))
}
