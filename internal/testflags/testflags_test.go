package testflags

import (
	"flag"
	"testing"

	_ "pgregory.net/rapid" // registers -rapid.checks
)

// FewChecks sets rapid's number of checks for the test and sets it back
// after, unless the command line gave it.
func TestFewChecksIsForOneTest(t *testing.T) {
	before := flag.Lookup("rapid.checks").Value.String()
	if given("rapid.checks") {
		t.Skip("-rapid.checks given: FewChecks leaves it as given")
	}
	t.Run("inner", func(t *testing.T) {
		FewChecks(t, 7)
		if got := flag.Lookup("rapid.checks").Value.String(); got != "7" {
			t.Errorf("rapid.checks is %s during the test, want 7", got)
		}
	})
	if got := flag.Lookup("rapid.checks").Value.String(); got != before {
		t.Errorf("rapid.checks is %s after the test, want %s as before", got, before)
	}
}
