package steps_test

import (
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/internal/steps"
)

// BenchmarkRegister isolates what Register costs a scenario: godog runs a
// feature of empty scenarios, so each one is its ScenarioInitializer (every
// step registered) and godog's bookkeeping, and nothing else. ns/scenario
// is the cost per scenario.
func BenchmarkRegister(b *testing.B) {
	const scenarios = 100
	var feature strings.Builder
	feature.WriteString("Feature: registration\n")
	for range scenarios {
		feature.WriteString("  Scenario: empty\n")
	}
	fsys := fstest.MapFS{"register.feature": {Data: []byte(feature.String())}}
	registered := 0
	b.ResetTimer()
	for range b.N {
		suite := godog.TestSuite{
			ScenarioInitializer: func(sc *godog.ScenarioContext) {
				steps.Register(sc, nil)
				registered++
			},
			Options: &godog.Options{Format: "progress", Output: io.Discard, FS: fsys, Paths: []string{"."}, Concurrency: 1, NoColors: true},
		}
		if st := suite.Run(); st != 0 {
			b.Fatalf("suite status %d", st)
		}
	}
	b.StopTimer()
	if registered != b.N*scenarios {
		b.Fatalf("registered %d scenarios, want %d", registered, b.N*scenarios)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*scenarios), "ns/scenario")
}
