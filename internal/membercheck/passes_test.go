package membercheck

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// resultTypes are the Go types of the protocol's results.
var resultTypes = []func() any{
	func() any { return new(protocol.InitializeResult) }, func() any { return new(protocol.WindowCreateResult) },
	func() any { return new(protocol.WindowTrimResult) }, func() any { return new(protocol.WindowEstimateResult) },
	func() any { return new(protocol.WindowSummarizeResult) }, func() any { return new(protocol.TokensEncodeResult) },
	func() any { return new(protocol.BudgetCountResult) }, func() any { return new(protocol.BudgetCheckResult) },
	func() any { return new(protocol.BudgetPruneResult) }, func() any { return new(protocol.BudgetCompressResult) },
	func() any { return new(protocol.BudgetPrepareResult) }, func() any { return new(protocol.HistoryClassifyResult) },
	func() any { return new(protocol.HistoryPruneResult) }, func() any { return new(protocol.HistoryBuildResult) },
	func() any { return new(protocol.ConfigResolveResult) }, func() any { return new(protocol.LoopRunResult) },
	func() any { return new(protocol.TrimmerTrimResult) }, func() any { return new(protocol.TrimmerCountResult) },
	func() any { return new(map[string][]protocol.Count) }, func() any { return new(any) },
}

// FuzzPassesAsCheckValue: of a valid JSON text, Passes says true only
// where CheckValue of its tree finds no member at fault, for every result
// type (and a map, and an any) (D-89); it never panics.
func FuzzPassesAsCheckValue(f *testing.F) {
	samples, err := os.ReadFile("../../spec/schema/testdata/results.json")
	if err != nil {
		f.Fatal(err)
	}
	members, _ := jsonscan.SplitObject(samples)
	for _, m := range members {
		f.Add(m.Value)
	}
	for _, seed := range []string{`{"tokens":3.0}`, `{"tokens":-0}`, `{"tokens":1,"tokens":"x"}`, `{"a":[1],"a":[-1]}`, `{"\u0074okens":"x"}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, newV := range resultTypes {
			passes := Passes(raw, newV())
			if !json.Valid(raw) || !passes {
				continue
			}
			tree, err := DecodeValue(raw)
			if err != nil {
				t.Fatal(err)
			}
			if err := CheckValue(tree, newV()); err != nil {
				t.Fatalf("%q into %T: Passes, but CheckValue says %v", raw, newV(), err)
			}
		}
	})
}
