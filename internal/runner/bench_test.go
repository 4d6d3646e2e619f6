package runner_test

// Harness throughput: the whole suite (every scenario and every property,
// 100 checks, seed 1) against the reference in process and over the wire,
// and against the example implementations. BENCHMARKS.md ("Harness
// throughput") records the ratios; reproduce with
//
//	go test -run '^$' -bench BenchmarkSuite -benchtime 1x -count 5 ./internal/runner/
//
// Each iteration is one whole run; ns/op is its wall time, and req/s the
// requests (calls and raw lines) it sent per second.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// counting counts the requests a run sends; with capabilities set, it
// declares only those of the implementation's that are in it, so that
// implementations of different reach run the same cases.
type counting struct {
	target.Target
	requests     *atomic.Int64
	capabilities []string
}

func (c *counting) Info() target.Info {
	info := c.Target.Info()
	if c.capabilities != nil {
		info.Capabilities = slices.DeleteFunc(slices.Clone(info.Capabilities), func(s string) bool { return !slices.Contains(c.capabilities, s) })
	}
	return info
}

func (c *counting) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	c.requests.Add(1)
	return c.Target.Call(ctx, method, params)
}

func (c *counting) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	c.requests.Add(1)
	return c.Target.(target.LineSender).SendLine(ctx, line)
}

// benchSuite runs the whole suite b.N times against tg and reports the
// requests per second; every case must pass or be not applicable.
func benchSuite(b *testing.B, capabilities []string, targets ...target.Target) {
	var counter atomic.Int64
	workers := make([]target.Target, len(targets))
	for i, tg := range targets {
		workers[i] = &counting{Target: tg, capabilities: capabilities, requests: &counter}
	}
	var elapsed time.Duration
	cases := 0
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		sum, err := runner.RunWorkers(context.Background(), workers, runner.Options{Seed: 1, Checks: 100})
		results := sum.Results
		elapsed += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		cases = 0
		for _, r := range results {
			if r.Outcome.IsFailure() {
				b.Fatalf("%s: %s: %s", r.ID, r.Outcome, r.Detail)
			}
			if r.Outcome == result.Passed {
				cases++
			}
		}
	}
	b.StopTimer()
	n := counter.Load()
	b.ReportMetric(float64(n)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(n)/float64(b.N), "requests/op")
	b.ReportMetric(float64(cases), "cases-passed/op")
}

func inProcess(b *testing.B) target.Target {
	tg, err := inprocess.New(server.Reference{})
	if err != nil {
		b.Fatal(err)
	}
	return tg
}

// process starts an implementation over the wire for the benchmark.
func process(b *testing.B, env []string, command ...string) target.Target {
	tg, err := target.StartProcess(context.Background(), target.ProcessConfig{Command: command, Env: env})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		if n := tg.Restarts(); n != 0 {
			b.Errorf("%v was restarted %d times", command, n)
		}
		tg.Close()
	})
	return tg
}

// wire is the reference over the wire: this test binary serving protocol
// v1 on stdio (TestMain, CONVSPEC_SERVE=1) with the code of `conform
// serve`, server.Serve over server.Reference.
func wire(b *testing.B) target.Target {
	return process(b, []string{"CONVSPEC_SERVE=1"}, os.Args[0])
}

func typescript(b *testing.B) target.Target {
	node, err := exec.LookPath("node")
	if err != nil {
		b.Skip("node is not on PATH")
	}
	adapter, _ := filepath.Abs("../../examples/typescript/dist/adapter.js")
	if _, err := os.Stat(adapter); err != nil {
		b.Skip("examples/typescript is not built (npx tsc -p examples/typescript)")
	}
	return process(b, nil, node, adapter)
}

func python(b *testing.B) target.Target {
	py, err := exec.LookPath("python3")
	if err != nil {
		b.Skip("python3 is not on PATH")
	}
	adapter, _ := filepath.Abs("../../examples/python/adapter.py")
	return process(b, nil, py, adapter)
}

// BenchmarkSuite: "all" is every capability of the reference; "window" is
// the cases of the window capability (and those every implementation must
// pass), which every implementation here declares, so its rows compare.
func BenchmarkSuite(b *testing.B) {
	window := []string{protocol.CapWindow}
	for _, bc := range []struct {
		name         string
		start        func(*testing.B) []target.Target
		capabilities []string
	}{
		{"all/in-process", once(inProcess), nil},
		{"all/wire", once(wire), nil},
		{"all/in-process/parallel-2", twice(inProcess), nil},
		{"all/wire/parallel-2", twice(wire), nil},
		{"window/in-process", once(inProcess), window},
		{"window/wire", once(wire), window},
		{"window/typescript", once(typescript), window},
		{"window/python", once(python), window},
	} {
		b.Run(bc.name, func(b *testing.B) {
			benchSuite(b, bc.capabilities, bc.start(b)...)
		})
	}
}

// once and twice start one or two workers (conform -parallel 1 and 2).
func once(start func(*testing.B) target.Target) func(*testing.B) []target.Target {
	return func(b *testing.B) []target.Target { return []target.Target{start(b)} }
}

func twice(start func(*testing.B) target.Target) func(*testing.B) []target.Target {
	return func(b *testing.B) []target.Target { return []target.Target{start(b), start(b)} }
}

// BenchmarkCall isolates the transport: one window.trim of 50 messages
// (max 20) per op, in process and over the wire, without the harness's own
// work around it.
func BenchmarkCall(b *testing.B) {
	msgs := make([]json.RawMessage, 50)
	for i := range msgs {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs[i] = json.RawMessage(`{"role":"` + role + `","content":"message number ` + strconv.Itoa(i) + ` of the conversation"}`)
	}
	for _, bc := range []struct {
		name  string
		start func(*testing.B) target.Target
	}{{"in-process", inProcess}, {"wire", wire}} {
		b.Run(bc.name, func(b *testing.B) {
			tg := bc.start(b)
			w, err := target.CreateWindow(context.Background(), tg, json.RawMessage(`{"max_messages":20}`))
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				if _, err := target.Trim(context.Background(), tg, w.Window, msgs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
