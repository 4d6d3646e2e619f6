// Package testflags sets the flags of a test binary that the project's
// tests change for what their subject needs (D-86), unless the command line
// gave them: how many cases a rapid check draws, and how many tests run
// side by side.
package testflags

import (
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

// given reports whether the command line set the flag name.
func given(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// FewChecks makes each rapid.Check of the test draw n cases instead of
// rapid's 100, unless -rapid.checks was given on the command line; the flag
// is restored after. The suite at full strength is the runner's
// TestReferenceInProcess (D-86). The test must not run in parallel with
// others: the flag is the process's.
func FewChecks(t testing.TB, n int) {
	t.Helper()
	if given("rapid.checks") {
		return
	}
	f := flag.Lookup("rapid.checks")
	if f == nil {
		t.Fatal("rapid has no flag rapid.checks")
	}
	old := f.Value.String()
	if err := flag.Set("rapid.checks", fmt.Sprint(n)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = flag.Set("rapid.checks", old) })
}

// WaitersInParallel lets four tests a core run side by side, unless
// -test.parallel was given; call it from TestMain. For a package whose
// tests mostly wait on the processes they start (hanging, crashing or deaf
// children, go install, Chromium, stopped process groups): at go test's
// default of one a core, two waiting tests hold both slots while the cores
// idle (D-86). What the tests wait for is bounded for a loaded machine
// (D-44).
func WaitersInParallel() {
	flag.Parse()
	if !given("test.parallel") {
		_ = flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}
