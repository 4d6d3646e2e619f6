package report_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/conformance/result"
)

// TestLevelVerdictsShowEveryFailure: every failing case counts in a row of
// the verdict table — a trimmer guarantee's case in trimmer's, and a case
// of no capability and no level (lifecycle/shutdown) in protocol's, at its
// clause's level.
func TestLevelVerdictsShowEveryFailure(t *testing.T) {
	c := func(id, capability, level string, clauses []string, o result.Outcome) report.Case {
		return report.Case{Result: result.Result{Case: result.Case{ID: id, Kind: result.Scenario, Capability: capability, Level: level, Clauses: clauses}, Outcome: o}}
	}
	run := &report.Run{Seed: 1, Cases: []report.Case{
		c("ANY-10/declared", protocol.CapTrimmer, protocol.LevelValidation, []string{"ANY-10"}, result.Passed),
		c("ANY-10/unknown", protocol.CapTrimmer, protocol.LevelValidation, []string{"ANY-10"}, result.Passed),
		c("ANY-3/keeps-system", protocol.GuaranteeCapability(protocol.GuaranteeSystem), protocol.LevelCore, []string{"ANY-3"}, result.Failed),
		c("ANY-1/subsequence", protocol.GuaranteeCapability(protocol.GuaranteeSubsequence), protocol.LevelCore, []string{"ANY-1"}, result.Passed),
		c("lifecycle/shutdown", "", "", []string{"PROTO-1"}, result.Failed),
	}}
	failing := 0
	for _, v := range run.LevelVerdicts() {
		failing += v.Failing
		if v.Capability == protocol.CapTrimmer && v.Level == protocol.LevelCore {
			assert.Equal(t, report.LevelFail, v.Verdict, "trimmer core")
			assert.Equal(t, 1, v.Failing, "trimmer core failing")
			assert.Equal(t, 1, v.Passed, "trimmer core passed")
		}
		if v.Capability == "protocol" {
			assert.Equal(t, protocol.LevelCore, v.Level, "lifecycle/shutdown's level is PROTO-1's")
		}
	}
	assert.Equal(t, 2, failing, "failing cases counted in the table")
	var text strings.Builder
	require.NoError(t, report.Text(&text, run, report.TextOptions{}))
	assert.Contains(t, text.String(), "trimmer           core FAIL (1 of 2), validation pass (2)")
	assert.Contains(t, text.String(), "protocol          core FAIL (1 of 1)")
}
