package adapters_test

// Every kit lets an adapter declare what it implements (D-42, ANY-10):
// levels, formats and trimmers, with trimmer.trim answered by the trimmer
// named. A toy trimmer declared honestly — core level, OpenAI messages,
// capability trimmer — gets nothing but passed and not applicable cases on
// each kit.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformtest"
)

// wantHandshake is what each kit's toy trimmer declares.
var wantHandshake = protocol.InitializeResult{
	Protocol:       1,
	Implementation: protocol.Implementation{Name: "toy-trimmer", Version: "0.0.0"},
	Capabilities:   []string{protocol.CapTrimmer},
	Levels:         []string{protocol.LevelCore},
	Formats:        []string{protocol.FormatOpenAI},
	Trimmers: []protocol.TrimmerDecl{
		{Name: "last-messages", Bound: "messages", Formats: []string{"openai"}, Guarantees: toyGuarantees},
		{Name: "last-chars4", Bound: "tokens", Counter: "chars4", Formats: []string{"openai"}, Guarantees: toyGuarantees},
	},
}

var toyGuarantees = []string{"subsequence", "units", "system", "last_unit", "bound", "fits", "idempotent", "total"}

// exchange starts an adapter, sends it lines and returns its answers, one
// per line sent, then closes its stdin and waits for it to exit.
func exchange(t *testing.T, dir string, command []string, lines ...string) []json.RawMessage {
	t.Helper()
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	require.NoError(t, err)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	r := bufio.NewReader(stdout)
	var out []json.RawMessage
	for _, line := range lines {
		_, err := io.WriteString(stdin, line+"\n")
		require.NoError(t, err)
		answer, err := r.ReadBytes('\n')
		require.NoError(t, err, "%s: no answer to %s", strings.Join(command, " "), line)
		out = append(out, answer)
	}
	stdin.Close()
	require.NoError(t, cmd.Wait(), "%s: exit at the end of input", strings.Join(command, " "))
	return out
}

// checkDeclarations checks a kit's toy trimmer's handshake and a
// trimmer.trim of each of its trimmers, through lines.
func checkDeclarations(t *testing.T, answers []json.RawMessage) {
	t.Helper()
	var hs struct {
		Result protocol.InitializeResult `json:"result"`
	}
	require.NoError(t, json.Unmarshal(answers[0], &hs), "%s", answers[0])
	assert.Equal(t, wantHandshake, hs.Result)
	// Two system prompts, then a user prompt and a tool call unit: limit 3
	// keeps the system prompts and the unit (the floor), by messages; by
	// chars4 limit 2 too, since the prompts count 1 each and the user prompt
	// 2, rounded per message (EST-1's single division would count 7
	// characters as 2 tokens and keep the user prompt).
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":2,"result":{"messages":[{"role":"system","content":"s"},{"role":"developer","content":"d"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":""}]}}`, string(answers[1]))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":3,"result":{"messages":[{"role":"system","content":"s"},{"role":"developer","content":"d"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":""}]}}`, string(answers[2]))
	for i, kind := range []string{"invalid_params", "invalid_params", "invalid_message"} {
		var e struct {
			Error struct {
				Data struct {
					Kind string `json:"kind"`
				} `json:"data"`
			} `json:"error"`
		}
		require.NoError(t, json.Unmarshal(answers[3+i], &e))
		assert.Equal(t, kind, e.Error.Data.Kind, "answer %d: %s", 3+i, answers[3+i])
	}
}

// declarationLines are the requests checkDeclarations checks the answers of.
var declarationLines = []string{
	`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocol":1,"suite":"convspec"}}`,
	`{"jsonrpc":"2.0","id":2,"method":"trimmer.trim","params":{"trimmer":"last-messages","limit":3,"messages":` + toyConversation + `}}`,
	`{"jsonrpc":"2.0","id":3,"method":"trimmer.trim","params":{"trimmer":"last-chars4","limit":2,"messages":` + toyConversation + `}}`,
	`{"jsonrpc":"2.0","id":4,"method":"trimmer.trim","params":{"trimmer":"nope","limit":2,"messages":[]}}`,
	`{"jsonrpc":"2.0","id":5,"method":"trimmer.trim","params":{"trimmer":"last-messages","limit":2.5,"messages":[]}}`,
	`{"jsonrpc":"2.0","id":6,"method":"trimmer.trim","params":{"trimmer":"last-messages","limit":2,"messages":[{"content":"no role"}]}}`,
}

const toyConversation = `[{"role":"system","content":"s"},{"role":"developer","content":"d"},{"role":"user","content":"12345"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":""}]`

func TestKitDeclarations(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)

	t.Run("go", func(t *testing.T) {
		impl := goToyTrimmer()
		r, w := io.Pipe()
		var out strings.Builder
		done := make(chan error, 1)
		go func() { done <- adapter.Serve(context.Background(), impl, r, &out) }()
		for _, line := range declarationLines {
			_, err := io.WriteString(w, line+"\n")
			require.NoError(t, err)
		}
		w.Close()
		require.NoError(t, <-done)
		var answers []json.RawMessage
		for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			answers = append(answers, json.RawMessage(l))
		}
		require.Len(t, answers, len(declarationLines))
		checkDeclarations(t, answers)
	})
	t.Run("node", func(t *testing.T) {
		if _, err := exec.LookPath("node"); err != nil {
			t.Skip("skipping the Node kit: node is not on PATH")
		}
		checkDeclarations(t, exchange(t, filepath.Join(root, "adapters", "node", "test"), []string{"node", "trimmer-adapter.cjs"}, declarationLines...))
	})
	t.Run("python", func(t *testing.T) {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("skipping the Python kit: python3 is not on PATH")
		}
		checkDeclarations(t, exchange(t, filepath.Join(root, "adapters", "python", "tests"), []string{"python3", "-B", "trimmer_adapter.py"}, declarationLines...))
	})
}

// TestToyTrimmersConform runs the suite on each kit's toy trimmer: declared
// core/openai with capability trimmer, it must get 0 failures.
func TestToyTrimmersConform(t *testing.T) {
	t.Parallel() // it waits on processes, as TestKitsConform does
	t.Run("go", func(t *testing.T) {
		t.Parallel()
		conformtest.Run(t, goToyTrimmer())
	})
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	for _, c := range []struct {
		tool, dir string
		toy       toy
	}{
		{"node", "adapters/node/test", toy{"test/trimmer-adapter.cjs", []string{"node", "trimmer-adapter.cjs"}, []string{"trimmer"}}},
		{"python3", "adapters/python/tests", toy{"tests/trimmer_adapter.py", []string{"python3", "-B", "trimmer_adapter.py"}, []string{"trimmer"}}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			t.Parallel()
			if _, err := exec.LookPath(c.tool); err != nil {
				t.Skipf("skipping: %s is not on PATH", c.tool)
			}
			// built only for a toy that runs as a process: the Go toy
			// runs in process (D-91)
			checkConform(t, buildConform(t), filepath.Join(root, c.dir), c.toy)
		})
	}
}

// goToyTrimmer is the toy trimmer of the other kits, on the Go kit.
func goToyTrimmer() adapter.Implementation {
	decls := wantHandshake.Trimmers
	by := func(d protocol.TrimmerDecl) adapter.Trimmer {
		t := adapter.Trimmer{TrimmerDecl: d}
		t.Trim = func(_ context.Context, msgs []json.RawMessage, limit int) ([]json.RawMessage, error) {
			return keepLast(msgs, limit, t.Count), nil
		}
		return t
	}
	return adapter.Implementation{Name: "toy-trimmer", Version: "0.0.0", Levels: []string{"core"}, Formats: []string{"openai"},
		Trimmers: []adapter.Trimmer{by(decls[0]), by(decls[1])}}
}

// keepLast keeps the leading system messages, then whole units from the end
// while they fit; the floor (those and the last unit) when nothing fits.
func keepLast(msgs []json.RawMessage, limit int, count func([]json.RawMessage) int) []json.RawMessage {
	if count(msgs) <= limit {
		return msgs
	}
	type m struct {
		Role      string            `json:"role"`
		ToolCalls []json.RawMessage `json:"tool_calls"`
	}
	parsed := make([]m, len(msgs))
	for i, raw := range msgs {
		_ = json.Unmarshal(raw, &parsed[i]) // the kit has checked MSG-1
	}
	head := 0
	for head < len(msgs) && (parsed[head].Role == "system" || parsed[head].Role == "developer") {
		head++
	}
	var starts []int
	for i := head; i < len(msgs); {
		starts = append(starts, i)
		end := i + 1
		if parsed[i].Role == "assistant" && len(parsed[i].ToolCalls) > 0 {
			for end < len(msgs) && parsed[end].Role == "tool" {
				end++
			}
		}
		i = end
	}
	from := len(msgs)
	if len(starts) > 0 {
		from = starts[len(starts)-1]
	}
	system := msgs[:head:head]
	for k := len(starts) - 2; k >= 0; k-- {
		if count(append(system, msgs[starts[k]:]...)) > limit {
			break
		}
		from = starts[k]
	}
	return append(system, msgs[from:]...)
}
