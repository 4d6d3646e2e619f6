package main

import (
	"bytes"
	"testing"
)

// TestTraceOfTheRepository: `conform trace` finds no gap in
// spec/traceability.md. The rules are trace.Build's, tested in packages
// trace (TestBuildTrace) and spec (TestTraceability); this checks the command, and
// testdata/script/trace.txtar its output, flags and exit status.
func TestTraceOfTheRepository(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := traceCommand([]string{"-f", "../../spec/traceability.md", "-gaps"}, &out, &errOut); code != exitOK {
		t.Errorf("conform trace exited %d:\n%s%s", code, out.String(), errOut.String())
	}
}
