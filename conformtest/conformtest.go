// Package conformtest runs the convspec conformance suite inside `go test`:
// a subtest per case, named by its stable case ID, so that `go test -run`
// selects cases and a failing case fails its own subtest with the suite's
// explanation.
//
//	func TestConform(t *testing.T) {
//		conformtest.Run(t, adapter.Implementation{Name: "mylib", Version: "1.0.0", Impl: mylib{}})
//	}
//
//	go test -run 'TestConform/mylib/WIN-3/'   # the scenarios of one clause
//
// Cases of capabilities the implementation does not declare are skipped
// (not applicable); declined (unsupported) cases are skipped with the
// implementation's reason. Properties run with a fixed seed, so a run is
// deterministic; set CONVSPEC_SEED to explore others.
package conformtest

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/runner"
)

// DefaultSeed seeds the properties unless CONVSPEC_SEED is set.
const DefaultSeed = 1

// Run runs the suite against impl, in process, as subtests of t grouped
// under the implementation's name.
func Run(t *testing.T, impl adapter.Implementation) {
	t.Helper()
	tg, err := adapter.InProcess(impl)
	if err != nil {
		t.Fatal(err)
	}
	defer tg.Close()
	RunTarget(t, impl.Name, tg)
}

// RunTarget runs the suite against any target (a target.Process for a
// program, say) as subtests of t grouped under name.
func RunTarget(t *testing.T, name string, tg target.Target) {
	t.Helper()
	seed := uint64(DefaultSeed)
	if s := os.Getenv("CONVSPEC_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n == 0 {
			t.Fatalf("CONVSPEC_SEED=%q: want a positive integer", s)
		}
		seed = n
	}
	cases, err := runner.RunCases(runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Each case's subtest records that `go test -run` selected it and
	// pauses (t.Parallel) until the group's loop is over; the first to
	// resume runs every selected case in one pass of the suite, and each
	// then reports its own result.
	var (
		mu       sync.Mutex
		selected []string
		once     sync.Once
		results  map[string]result.Result
		runErr   error
	)
	t.Run(name, func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.ID, func(t *testing.T) {
				mu.Lock()
				selected = append(selected, regexp.QuoteMeta(c.ID))
				mu.Unlock()
				t.Parallel()
				once.Do(func() {
					mu.Lock()
					pattern := "^(" + strings.Join(selected, "|") + ")$"
					mu.Unlock()
					var rs []result.Result
					rs, runErr = runner.Run(context.Background(), tg, runner.Options{Run: regexp.MustCompile(pattern), Seed: seed})
					results = make(map[string]result.Result, len(rs))
					for _, r := range rs {
						results[r.ID] = r
					}
				})
				report(t, c, results, runErr)
			})
		}
	})
}

func report(t *testing.T, c result.Case, results map[string]result.Result, runErr error) {
	t.Helper()
	if runErr != nil {
		t.Fatalf("the suite could not run: %v", runErr)
	}
	r, ok := results[c.ID]
	if !ok {
		t.Fatalf("%s did not complete (the run was interrupted or stopped at the restart limit)", c.ID)
	}
	switch {
	case r.Outcome == result.NotApplicable:
		t.Skipf("not applicable: %s", r.Detail)
	case r.Outcome == result.Unsupported:
		t.Skipf("unsupported: %s", r.Detail)
	case r.Outcome.IsFailure():
		t.Errorf("%s [%s] %s\n%s", r.Outcome, strings.Join(r.Clauses, " "), c.Name, r.Detail)
	}
}
