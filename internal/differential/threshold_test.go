package differential

import (
	"encoding/json"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// The threshold examples build their requests when they run: each builds
// one request of its method, and no two build the same one (an example
// that built another's — a closure over the wrong limit — would leave an
// edge unchecked).
func TestThresholdExamplesBuildTheirOwnRequests(t *testing.T) {
	for _, method := range []string{protocol.MethodBudgetCheck, protocol.MethodBudgetPrune, protocol.MethodBudgetPrepare} {
		seen := map[string]string{}
		for name, build := range thresholdCalls(method) {
			calls := build()
			if len(calls) != 1 || calls[0].Method != method {
				t.Errorf("%s %q: built %v, want one %s request", method, name, calls, method)
				continue
			}
			b, err := json.Marshal(calls[0].Params)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := seen[string(b)]; ok {
				t.Errorf("%s: %q and %q build the same request %s", method, name, other, b)
			}
			seen[string(b)] = name
		}
	}
}
