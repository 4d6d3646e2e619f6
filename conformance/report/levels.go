package report

import (
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
)

// A verdict per capability and level (D-42): "window core: pass,
// validation: not applicable" tells an implementation what it conforms to
// at a glance, whatever it declared.

// LevelVerdict is the verdict of the cases of one capability and level.
type LevelVerdict struct {
	// Capability is the cases' capability; "protocol" for the clauses
	// every implementation meets.
	Capability string
	Level      string
	// Verdict is "pass", "fail" or "not_applicable".
	Verdict string
	// Passed, Failing and NotApplicable count the cases; Other those that
	// were unsupported or expected failures.
	Passed, Failing, NotApplicable, Other int
}

// Level verdicts.
const (
	LevelPass          = "pass"
	LevelFail          = "fail"
	LevelNotApplicable = "not_applicable"
)

// LevelVerdicts lists a verdict for every capability and level that has
// cases in the run, in the order of protocol.Capabilities and
// protocol.Levels.
func (r *Run) LevelVerdicts() []LevelVerdict {
	type key struct{ capability, level string }
	tally := map[key]*LevelVerdict{}
	for _, k := range r.Cases {
		capability := k.Capability
		if capability == "" {
			capability = "protocol"
		}
		kk := key{capability, k.Level}
		v := tally[kk]
		if v == nil {
			v = &LevelVerdict{Capability: capability, Level: k.Level}
			tally[kk] = v
		}
		switch {
		case k.Verdict() == Failing:
			v.Failing++
		case k.Outcome == result.Passed:
			v.Passed++
		case k.Outcome == result.NotApplicable:
			v.NotApplicable++
		default:
			v.Other++
		}
	}
	var out []LevelVerdict
	for _, capability := range append([]string{"protocol"}, protocol.Capabilities()...) {
		for _, level := range protocol.Levels() {
			v := tally[key{capability, level}]
			if v == nil {
				continue
			}
			switch {
			case v.Failing > 0:
				v.Verdict = LevelFail
			case v.Passed+v.Other == 0:
				v.Verdict = LevelNotApplicable
			default:
				v.Verdict = LevelPass
			}
			out = append(out, *v)
		}
	}
	return out
}

// levelsOf groups verdicts by capability, keeping the order.
func levelsOf(vs []LevelVerdict) (capabilities []string, by map[string][]LevelVerdict) {
	by = map[string][]LevelVerdict{}
	for _, v := range vs {
		if !slices.Contains(capabilities, v.Capability) {
			capabilities = append(capabilities, v.Capability)
		}
		by[v.Capability] = append(by[v.Capability], v)
	}
	return capabilities, by
}
