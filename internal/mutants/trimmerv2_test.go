package mutants_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
)

// modelsEngine is the reference serving the model trimmers beside its own.
type modelsEngine struct{ server.Reference }

func (modelsEngine) Trimmers() []server.Trimmer {
	return append(server.ReferenceTrimmers(), server.ModelTrimmers()...)
}

// TestTrimmerScenariosJudgeTheSecondDeclaration: the trimmer scenarios pass
// the model trimmers of the second declaration (D-60) and their new
// scenarios apply to them, and they fail the faulty variants of the
// promises they check.
func TestTrimmerScenariosJudgeTheSecondDeclaration(t *testing.T) {
	run := func(t *testing.T, name string) []result.Result {
		var engine server.Engine = modelsEngine{}
		if name != "" {
			m, ok := mutants.Lookup(name)
			if !ok {
				t.Fatalf("no mutant %s", name)
			}
			engine = m.Engine
		}
		tg, err := inprocess.New(engine)
		if err != nil {
			t.Fatal(err)
		}
		defer tg.Close()
		results, err := runner.Run(context.Background(), tg, runner.Options{Run: regexp.MustCompile(`^ANY-`), Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return results
	}
	applied := 0
	for _, r := range run(t, "") {
		if r.Outcome == result.Passed && regexp.MustCompile(`^ANY-1[1234]/`).MatchString(r.ID) {
			applied++
		}
		if r.Outcome.IsFailure() {
			t.Errorf("the honest models fail %s: %s", r.ID, r.Detail)
		}
	}
	if applied < 5 {
		t.Errorf("%d scenarios of ANY-11 – ANY-14 passed on the models; want the 5 of them", applied)
	}
	for name, scenario := range map[string]string{
		"trimmer-head-short":               "ANY-11/the-declared-head-survives-a-tight-limit",
		"trimmer-start-only-when-trimming": "ANY-12/the-start-rule-applies-when-nothing-is-trimmed",
		"trimmer-native-counter-negative":  "ANY-13/a-native-counter-never-counts-a-tool-call-negative",
		"trimmer-slack-two-units":          "ANY-6/",
		"trimmer-fallback-returns-nothing": "ANY-14/the-last-message-is-kept-when-nothing-else-fits",
	} {
		failed := false
		for _, r := range run(t, name) {
			if strings.HasPrefix(r.ID, scenario) && r.Outcome.IsFailure() {
				failed = true
			}
		}
		if !failed {
			t.Errorf("%s passes scenario %s", name, scenario)
		}
	}
}
