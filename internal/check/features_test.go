package check_test

import (
	"io"
	"testing"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/steps"
)

// TestFeatures runs features/check on the checker alone: its scenarios
// talk to no implementation (D-56), so they need none here, where the
// checker is changed and tested.
func TestFeatures(t *testing.T) {
	suite := godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) { steps.Register(sc, nil) },
		Options: &godog.Options{Format: "pretty", Output: io.Discard, FS: features.FS, Paths: []string{"check"},
			Concurrency: 1, NoColors: true, Strict: true, TestingT: t},
	}
	if st := suite.Run(); st != 0 {
		t.Fatalf("features/check: godog status %d", st)
	}
}
