package properties

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
)

// declaring is a target that declares only some levels and formats.
type declaring struct {
	target.Target
	levels, formats []string
}

func (d declaring) Info() target.Info {
	i := d.Target.Info()
	i.Levels, i.Formats = d.levels, d.formats
	return i
}

// TestCoreOnlyStillCatchesCoverage: without diagnostics the state machine
// does not compare the prompt's exact text (SUM-1), but it still checks
// that the prompt covers every message evicted since the last summary,
// those the rate limit held back included (SUM-4).
func TestCoreOnlyStillCatchesCoverage(t *testing.T) {
	quietRapid(t)
	for _, name := range []string{"summary-covers-only-this-trim", "summary-counter-resets-on-failure"} {
		t.Run(name, func(t *testing.T) {
			tg, err := inprocess.New(mutantNamed(t, name).Engine)
			if err != nil {
				t.Fatal(err)
			}
			core := declaring{Target: tg, levels: []string{protocol.LevelCore}}
			p := lookup(t, "prop/summarize-state-machine")
			failed, out := runCaptured(p.ID, func(rt *rapid.T) { p.Check(rt, core) })
			switch {
			case !failed:
				t.Fatalf("a core-only run does not catch %s", name)
			case !reportsUnder(out, []string{"SUM-4", "SUM-7"}):
				t.Fatalf("caught, but not under SUM-4 or SUM-7:\n%s", clip(out))
			case !strings.Contains(failureMessage(out), "held back"):
				t.Errorf("the failure does not say the message was held back:\n%s", clip(failureMessage(out)))
			}
		})
	}
}
