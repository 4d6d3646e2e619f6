package mutants

// The catalogue as a report: for every variant, the bug it models and the
// cases that killed it; and the clauses no variant breaks. `make mutants`
// prints it (report_test.go runs the suite; this package cannot import the
// runner, whose properties import the catalogue in their own tests).

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convspec/convspec/spec"
)

// Failure is one case that failed against a variant.
type Failure struct {
	ID string
	// Property says that the case is a property (otherwise a scenario);
	// Differential that it is one of the differential properties, which
	// compare with the reference (or the exact token vectors).
	Property, Differential bool
	Clauses                []string
}

// Verdict is what the suite made of one variant.
type Verdict struct {
	Mutant Mutant
	// Killers are the failures tagged with a clause the variant breaks;
	// Others the failures of other cases. A variant is killed when Killers
	// is not empty; failing only Others is a catch by accident.
	Killers, Others []Failure
	// Seeds says, for every seed the properties ran with (the first is
	// the one Killers and Others come from), whether the variant was
	// killed. A variant killed under some seeds only is seed-dependent.
	Seeds []bool
}

// NewVerdict sorts a run's failures into killers and others.
func NewVerdict(m Mutant, failures []Failure) Verdict {
	v := Verdict{Mutant: m}
	for _, f := range failures {
		if v.breaks(f) {
			v.Killers = append(v.Killers, f)
		} else {
			v.Others = append(v.Others, f)
		}
	}
	v.Seeds = []bool{v.Killed()}
	return v
}

func (v Verdict) breaks(f Failure) bool {
	return slices.ContainsFunc(f.Clauses, func(c string) bool { return slices.Contains(v.Mutant.Clauses, c) })
}

// AddSeed records whether the failures of a run under another seed kill
// the variant.
func (v *Verdict) AddSeed(failures []Failure) {
	v.Seeds = append(v.Seeds, slices.ContainsFunc(failures, v.breaks))
}

// SeedDependent says that the variant was killed under some seeds and not
// under others: a kill a CI gate cannot rely on.
func (v Verdict) SeedDependent() bool {
	return slices.Contains(v.Seeds, true) && slices.Contains(v.Seeds, false)
}

// ByDifferential says that a differential property is among the killers:
// the differential properties alone kill the variant.
func (v Verdict) ByDifferential() bool {
	return slices.ContainsFunc(v.Killers, func(f Failure) bool { return f.Differential })
}

// ByOthers says that a case other than the differential properties is
// among the killers: the suite without them kills the variant.
func (v Verdict) ByOthers() bool {
	return slices.ContainsFunc(v.Killers, func(f Failure) bool { return !f.Differential })
}

// Killed says that a case of one of the variant's clauses failed.
func (v Verdict) Killed() bool { return len(v.Killers) > 0 }

// KillingClauses are the variant's clauses that a killing case names, in
// the variant's order.
func (v Verdict) KillingClauses() []string {
	var out []string
	for _, c := range v.Mutant.Clauses {
		if slices.ContainsFunc(v.Killers, func(f Failure) bool { return slices.Contains(f.Clauses, c) }) {
			out = append(out, c)
		}
	}
	return out
}

// killers lists the IDs of the killing scenarios or properties.
func (v Verdict) killers(property bool) []string {
	var out []string
	for _, f := range v.Killers {
		if f.Property == property {
			out = append(out, f.ID)
		}
	}
	return out
}

// Unbroken lists the clauses of SPEC.md that no variant of ms names: a
// clause whose violation the catalogue never shows the suite catching.
func Unbroken(ms []Mutant) []spec.Clause {
	named := map[string]bool{}
	for _, m := range ms {
		for _, c := range m.Clauses {
			named[c] = true
		}
	}
	var out []spec.Clause
	for _, c := range spec.Clauses() {
		if !named[c.ID] {
			out = append(out, c)
		}
	}
	return out
}

// WriteReport renders the verdicts as a Markdown table, then the
// survivors, the seed-dependent kills, and the clauses no variant breaks.
func WriteReport(w io.Writer, vs []Verdict, all []Mutant) error {
	var b strings.Builder
	killed, byDiff, byOthers, onlyDiff := 0, 0, 0, 0
	for _, v := range vs {
		if v.Killed() {
			killed++
		}
		if v.ByDifferential() {
			byDiff++
			if !v.ByOthers() {
				onlyDiff++
			}
		}
		if v.ByOthers() {
			byOthers++
		}
	}
	fmt.Fprintf(&b, "## Faulty variants: %d of %d killed\n\n", killed, len(vs))
	fmt.Fprintf(&b, "The differential properties alone kill %d; the suite without them %d; %d only the differential properties kill.\n\n", byDiff, byOthers, onlyDiff)
	b.WriteString("| variant | the realistic bug it models | breaks | killed by clause | killing scenarios | killing properties | differential | seeds killed | other failures |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
	for _, v := range vs {
		by := "**SURVIVED**"
		if v.Killed() {
			by = strings.Join(v.KillingClauses(), ", ")
		}
		diff := "—"
		if v.ByDifferential() {
			diff = "yes"
			if !v.ByOthers() {
				diff = "**only**"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %d |\n",
			v.Mutant.Name, cell(v.Mutant.Bug), strings.Join(v.Mutant.Clauses, ", "), by,
			firstOf(v.killers(false)), firstOf(v.killers(true)), diff, seedCell(v), len(v.Others))
	}
	var survivors, dependent []string
	for _, v := range vs {
		if !v.Killed() {
			why := "no case failed"
			if len(v.Others) > 0 {
				why = fmt.Sprintf("only cases of other clauses failed (%s): add a case for %s", firstOf(ids(v.Others)), strings.Join(v.Mutant.Clauses, ", "))
			}
			survivors = append(survivors, fmt.Sprintf("- `%s` (%s): %s\n", v.Mutant.Name, v.Mutant.Bug, why))
		}
		if v.SeedDependent() {
			dependent = append(dependent, fmt.Sprintf("- `%s` (%s): killed under %d of %d seeds (%v): make the case that kills it an example, or its generator reach the input on purpose\n", v.Mutant.Name, v.Mutant.Bug, v.kills(), len(v.Seeds), v.Seeds))
		}
	}
	if len(survivors) > 0 {
		fmt.Fprintf(&b, "\n### Survivors\n\n%s", strings.Join(survivors, ""))
	}
	fmt.Fprintf(&b, "\n### Kills that depend on the seed: %d\n\n", len(dependent))
	if len(dependent) == 0 {
		b.WriteString("none\n")
	}
	b.WriteString(strings.Join(dependent, ""))
	unbroken := Unbroken(all)
	fmt.Fprintf(&b, "\n### Clauses no variant breaks: %d of %d\n\n", len(unbroken), len(spec.Clauses()))
	if len(unbroken) == 0 {
		b.WriteString("none\n")
	}
	for _, c := range unbroken {
		fmt.Fprintf(&b, "- %s — %s\n", c.ID, c.Title)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// kills is how many seeds killed the variant.
func (v Verdict) kills() int {
	n := 0
	for _, k := range v.Seeds {
		if k {
			n++
		}
	}
	return n
}

// seedCell is how many seeds killed the variant, flagged when not all did.
func seedCell(v Verdict) string {
	n := v.kills()
	if v.SeedDependent() {
		return fmt.Sprintf("**%d/%d SEED-DEPENDENT**", n, len(v.Seeds))
	}
	return fmt.Sprintf("%d/%d", n, len(v.Seeds))
}

func ids(fs []Failure) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.ID
	}
	return out
}

// firstOf shows how many and the first: "3: `WIN-4/x`, …".
func firstOf(ids []string) string {
	switch len(ids) {
	case 0:
		return "—"
	case 1:
		return "`" + ids[0] + "`"
	}
	return fmt.Sprintf("%d: `%s`, …", len(ids), ids[0])
}

// cell escapes text for a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
