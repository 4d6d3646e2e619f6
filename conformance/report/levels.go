package report

import (
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/spec"
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
// protocol.Levels. Every case is in one row: a trimmer guarantee's case
// (capability trimmer/<guarantee>) in trimmer's, a case of no capability
// in protocol's, a case that names no level in its first clause's level,
// and a row of a capability or level the order does not know comes last —
// a failure is never left out of the table.
func (r *Run) LevelVerdicts() []LevelVerdict {
	type key struct{ capability, level string }
	tally := map[key]*LevelVerdict{}
	var order []key
	for _, k := range r.Cases {
		capability := k.Capability
		switch {
		case capability == "":
			capability = "protocol"
		case protocol.IsGuaranteeCapability(capability):
			capability = protocol.CapTrimmer
		}
		kk := key{capability, levelOfCase(k)}
		v := tally[kk]
		if v == nil {
			v = &LevelVerdict{Capability: capability, Level: kk.level}
			tally[kk] = v
			order = append(order, kk)
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
	capabilities := append([]string{"protocol"}, protocol.Capabilities()...)
	slices.SortStableFunc(order, func(a, b key) int {
		if c := rank(capabilities, a.capability, b.capability); c != 0 {
			return c
		}
		return rank(protocol.Levels(), a.level, b.level)
	})
	out := make([]LevelVerdict, 0, len(order))
	for _, kk := range order {
		v := tally[kk]
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
	return out
}

// rank orders a and b by their place in known; what known does not hold
// comes after it, in order of first appearance (a stable sort keeps it).
func rank(known []string, a, b string) int {
	ia, ib := slices.Index(known, a), slices.Index(known, b)
	if ia < 0 {
		ia = len(known)
	}
	if ib < 0 {
		ib = len(known)
	}
	return ia - ib
}

// levelOfCase is a case's level: its own, or else its first clause's
// (D-42).
func levelOfCase(k Case) string {
	if k.Level != "" || len(k.Clauses) == 0 {
		return k.Level
	}
	if c, ok := spec.Lookup(k.Clauses[0]); ok {
		return c.Level
	}
	return ""
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
