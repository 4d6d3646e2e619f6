//go:build unix

// The build constraint is for processCPU (getrusage): the benchmarks report
// CPU time per run, which a shared machine disturbs far less than wall time.

package budget

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/convspec/convspec/reference/message"
)

// The benchmarks of counting and pruning whole conversations, at about
// 10,000, 100,000 and 1,000,000 tokens. BENCHMARKS.md (the "Budget pruning"
// section) records them and the ratios between sizes. Run them with
//
//	go test -run '^$' -bench . -count 6 ./reference/budget | benchstat -
//
// Prune counts each message once (PRN-5), so pruning a conversation costs
// about as much as counting it, whatever the number of units removed: the
// prune/count ratio at each size, not an absolute time, is the check.

// benchSizes are the conversation sizes, in tokens (budget.Count).
var benchSizes = []int{10_000, 100_000, 1_000_000}

// benchConversation is a conversation of at least tokens tokens, the shape
// of an agent's history: a system prompt, then turns of a user prompt and
// an assistant answer, every third turn with a tool call and its result (a
// JSON document, code, or a minified blob without spaces), ending with a
// user prompt. Turns differ by their number, so that no two messages are
// equal.
func benchConversation(tb testing.TB, tokens int) []message.Message {
	tb.Helper()
	raws := []json.RawMessage{mustJSON(tb, map[string]any{
		"role":    "system",
		"content": "You are a careful coding agent. Use the tools to read and change files; answer briefly.",
	})}
	total := messageTokensOf(tb, raws[0])
	add := func(m map[string]any) {
		raw := mustJSON(tb, m)
		raws = append(raws, raw)
		total += messageTokensOf(tb, raw)
	}
	for turn := 0; total < tokens; turn++ {
		add(map[string]any{"role": "user", "content": fmt.Sprintf(
			"Turn %d: the test TestParse%d fails with \"unexpected EOF\" on line %d. Can you find out why, and fix it without changing the public API?",
			turn, turn, 40+turn%300)})
		if turn%3 == 0 {
			id := fmt.Sprintf("call_%06d", turn)
			add(map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": id, "type": "function",
				"function": map[string]any{"name": "read_file", "arguments": fmt.Sprintf(`{"path":"internal/parse/parse_%d.go"}`, turn)},
			}}})
			add(map[string]any{"role": "tool", "tool_call_id": id, "content": toolResult(turn)})
		}
		add(map[string]any{"role": "assistant", "content": fmt.Sprintf(
			"The parser in turn %d stops at the first quote because readString returns io.EOF when the buffer ends "+
				"inside an escape sequence. I changed it to read the next chunk before giving up, added a test with "+
				"a string split across two reads (%d bytes each), and the whole suite passes now:\n\n"+
				"```\nok  \texample.com/parse\t0.%03ds\n```\n\nShall I also check the other %d callers?",
			turn, 512+turn, turn%1000, turn%17)})
	}
	add(map[string]any{"role": "user", "content": "Thanks. Please summarize what changed."})
	msgs, err := message.FromRaw(raws)
	if err != nil {
		tb.Fatal(err)
	}
	if got := Count(msgs); got != total {
		tb.Fatalf("Count = %d, the sum of MessageTokens = %d", got, total)
	}
	return msgs
}

// toolResult is the content of a tool result: in turn, a JSON document, a
// file of Go code, or a minified blob without spaces (one long piece for
// the tokenizer).
func toolResult(turn int) string {
	switch turn % 9 {
	case 0:
		var b strings.Builder
		b.WriteString(`{"files":[`)
		for i := range 12 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"path":"internal/parse/file_%d_%d.go","size":%d,"mode":"0644","modified":"2025-03-%02dT10:%02d:00Z"}`, turn, i, 1000+37*i+turn, 1+i%28, i%60)
		}
		b.WriteString(`]}`)
		return b.String()
	case 3:
		var b strings.Builder
		fmt.Fprintf(&b, "package parse\n\n// readString%d reads a quoted string.\nfunc readString%d(r *bufio.Reader) (string, error) {\n", turn, turn)
		for i := range 10 {
			fmt.Fprintf(&b, "\tif c, err := r.ReadByte(); err != nil {\n\t\treturn \"\", fmt.Errorf(\"byte %d: %%w\", err)\n\t} else if c == '\\\\' {\n\t\tcontinue\n\t}\n", i)
		}
		b.WriteString("\treturn \"\", nil\n}\n")
		return b.String()
	default:
		// A base64-like blob of 2,000 letters and digits, no spaces.
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
		b := make([]byte, 2000)
		x := uint32(turn + 1)
		for i := range b {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b[i] = alphabet[x%uint32(len(alphabet))]
		}
		return string(b)
	}
}

func mustJSON(tb testing.TB, v any) json.RawMessage {
	tb.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// messageTokensOf parses one raw message and counts it.
func messageTokensOf(tb testing.TB, raw json.RawMessage) int {
	tb.Helper()
	m, err := message.Parse(raw)
	if err != nil {
		tb.Fatal(err)
	}
	return MessageTokens(m)
}

// BenchmarkCount is budget.Count (estimateTokenCount) of whole
// conversations.
func BenchmarkCount(b *testing.B) {
	for _, size := range benchSizes {
		msgs := benchConversation(b, size)
		n := Count(msgs)
		b.Run(fmt.Sprintf("tokens=%d", size), func(b *testing.B) {
			measure(b, n, func() { Count(msgs) })
			b.ReportMetric(float64(len(msgs)), "messages")
		})
	}
}

// BenchmarkPrune is budget.Prune (pruneMessages) of whole conversations
// down to 80% of a limit of half their count: it removes most units, each
// after a check of the running total, never a recount.
func BenchmarkPrune(b *testing.B) {
	for _, size := range benchSizes {
		msgs := benchConversation(b, size)
		n := Count(msgs)
		limit := n / 2
		kept, removed, err := Prune(msgs, limit, WarnPercent)
		if err != nil {
			b.Fatal(err)
		}
		if k := Count(kept); 100*k >= WarnPercent*limit || len(removed) == 0 {
			b.Fatalf("Prune kept %d of %d tokens, removed %d messages: not below %d%% of %d", k, n, len(removed), WarnPercent, limit)
		}
		b.Run(fmt.Sprintf("tokens=%d", size), func(b *testing.B) {
			measure(b, n, func() {
				if _, _, err := Prune(msgs, limit, WarnPercent); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(float64(len(removed)), "removed")
		})
	}
}

// measure runs f in the benchmark loop and reports tokens/s (tokens per
// run, by wall time) and cpu-ms/op, the CPU time of the process per run.
func measure(b *testing.B, tokens int, f func()) {
	cpu0 := processCPU()
	for b.Loop() {
		f()
	}
	b.ReportMetric(float64(tokens)*float64(b.N)/b.Elapsed().Seconds(), "tokens/s")
	if cpu1 := processCPU(); cpu0 >= 0 && cpu1 >= 0 {
		b.ReportMetric(float64(cpu1-cpu0)/1e6/float64(b.N), "cpu-ms/op")
	}
}

// processCPU is the CPU time (user and system) of the process on every
// thread, or -1 if it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
