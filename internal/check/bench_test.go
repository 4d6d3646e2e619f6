package check

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"syscall"
	"testing"
	"time"
)

var (
	benchOut      = flag.String("check.out", "", "TestWriteBenchLog: write the generated log to `FILE` (- for stdout)")
	benchRequests = flag.Int("check.requests", 1_000_000, "TestWriteBenchLog: requests in the generated log")
)

// TestWriteBenchLog writes the log BENCHMARKS.md measures `conform check`
// on (skipped without -check.out):
//
//	go test -c -o /tmp/check.test ./internal/check
//	/tmp/check.test -test.run TestWriteBenchLog -check.out - | /usr/bin/time -v conform check -
func TestWriteBenchLog(t *testing.T) {
	if *benchOut == "" {
		t.Skip("no -check.out")
	}
	var w io.Writer = os.Stdout
	if *benchOut != "-" {
		f, err := os.Create(*benchOut)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	if err := writeLog(bw, *benchRequests); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
}

// writeLog writes n requests of an OpenAI agent in JSON Lines: 1,000
// conversations at a time, interleaved, each of up to 40 requests whose
// trimmer keeps the system prompt, the latest user prompt and the last 20
// messages in whole units;
// one trim in 1,000 drops the system prompt, so that the log has findings.
func writeLog(w io.Writer, n int) error {
	rng := rand.New(rand.NewPCG(1, 2))
	type conv struct {
		id       int
		history  []map[string]any
		requests int
		said     int // messages added so far: ids and texts never repeat
	}
	const open = 1000
	convs := make([]*conv, open)
	next := 0
	fresh := func() *conv {
		next++
		return &conv{id: next, history: []map[string]any{{"role": "system", "content": "You are a coding agent. Use the tools; answer briefly."}}}
	}
	for i := range convs {
		convs[i] = fresh()
	}
	text := func(c *conv, k int) string {
		return fmt.Sprintf("conversation %d, message %d: %s", c.id, k, string(bytes.Repeat([]byte("lorem ipsum "), 2+rng.IntN(12))))
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for r := 0; r < n; r++ {
		i := rng.IntN(open)
		c := convs[i]
		c.said++
		k := c.said
		switch rng.IntN(3) {
		case 0:
			c.history = append(c.history, map[string]any{"role": "user", "content": "Please: " + text(c, k)})
		case 1:
			id := fmt.Sprintf("call_%d_%d", c.id, k)
			c.history = append(c.history,
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "read_file", "arguments": `{"path":"a.go"}`}}}},
				map[string]any{"role": "tool", "tool_call_id": id, "content": text(c, k)})
		default:
			c.history = append(c.history, map[string]any{"role": "assistant", "content": text(c, k)})
		}
		// Trim: the system prompt and the last 20 messages, from a unit
		// boundary (a tool message is never first), and from the latest
		// user prompt if it is older (ANY-4).
		if len(c.history) > 21 {
			cut := len(c.history) - 20
			for cut < len(c.history) && c.history[cut]["role"] == "tool" {
				cut++
			}
			for j := len(c.history) - 1; j > 0; j-- {
				if c.history[j]["role"] == "user" {
					cut = min(cut, j)
					break
				}
			}
			c.history = append(c.history[:1:1], c.history[cut:]...)
		}
		msgs := c.history
		if rng.IntN(1000) == 0 && len(msgs) > 2 {
			msgs = msgs[1:] // the fault: a trim that drops the system prompt
		}
		if err := enc.Encode(map[string]any{"model": "gpt-4o", "user": fmt.Sprintf("conv-%d", c.id), "messages": msgs}); err != nil {
			return err
		}
		c.requests++
		if c.requests == 40 {
			convs[i] = fresh()
		}
	}
	return nil
}

// BenchmarkCheck checks a generated log of 20,000 requests in process
// and reports requests per CPU-second, the rate BENCHMARKS.md states.
func BenchmarkCheck(b *testing.B) {
	var log bytes.Buffer
	if err := writeLog(&log, 20_000); err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opts Options
	}{{"shared-messages", Options{}}, {"group-by", Options{GroupBy: Pointer{"user"}}}} {
		b.Run(tc.name, func(b *testing.B) {
			cpu0 := cpuTime()
			requests := 0
			for b.Loop() {
				c := New(tc.opts)
				if err := Read("bench.jsonl", bytes.NewReader(log.Bytes()), func(r Record) { c.Add(r) }); err != nil {
					b.Fatal(err)
				}
				requests += c.Requests
			}
			b.ReportMetric(float64(requests)/(cpuTime()-cpu0).Seconds(), "req/cpu-s")
		})
	}
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
