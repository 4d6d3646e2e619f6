package adapters_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/kitprobe"
)

// TestKitsMatchTheSchema: the Node and the Python kit, served with a probe
// adapter of every group (node/test/schema-probe.cjs,
// python/tests/schema_probe.py), answer every method, refuse a request only
// without a member the schema requires, and write results the schema
// describes, member by member (D-63).
func TestKitsMatchTheSchema(t *testing.T) {
	for _, kit := range []struct{ name, program, probe string }{
		{"node", "node", "node/test/schema-probe.cjs"},
		{"python", "python3", "python/tests/schema_probe.py"},
	} {
		t.Run(kit.name, func(t *testing.T) {
			if _, err := exec.LookPath(kit.program); err != nil {
				t.Skipf("%s is not installed, so the %s kit is not checked against the schema", kit.program, kit.name)
			}
			cmd := exec.Command(kit.program, kit.probe)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			lines := bufio.NewReader(stdout)
			call := func(request []byte) ([]byte, error) {
				if _, err := stdin.Write(append(request, '\n')); err != nil {
					return nil, fmt.Errorf("writing %s: %w (stderr: %s)", request, err, stderr.String())
				}
				line, err := lines.ReadBytes('\n')
				if err != nil {
					return nil, fmt.Errorf("reading the answer to %s: %w (stderr: %s)", request, err, stderr.String())
				}
				return line, nil
			}
			answered := kitprobe.Check(t, call)
			_ = stdin.Close()
			var exit *exec.ExitError
			if err := cmd.Wait(); err != nil && !errors.As(err, &exit) {
				t.Error(err)
			}
			var all []string
			for _, m := range protocol.Methods() {
				if m != protocol.MethodInitialize && m != protocol.MethodShutdown {
					all = append(all, m)
				}
			}
			assert.Equal(t, all, answered, "the probe adapter declares every group: the kit answers every method")
		})
	}
}
