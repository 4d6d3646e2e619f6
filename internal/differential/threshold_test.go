package differential

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/convspec/convspec/conformance/protocol"
)

// The threshold examples are named before they are built (their requests
// need the reference's counts): the names must be those of what is built.
func TestThresholdNamesAreThoseBuilt(t *testing.T) {
	for _, method := range []string{protocol.MethodBudgetCheck, protocol.MethodBudgetPrune, protocol.MethodBudgetPrepare} {
		if diff := cmp.Diff(sortedKeys(thresholdCalls(method)), thresholdNames(method)); diff != "" {
			t.Errorf("%s: thresholdNames differ from the examples built (-built +named):\n%s", method, diff)
		}
	}
}
