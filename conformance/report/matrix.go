package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/webui"
	"github.com/convspec/convspec/spec"
)

// MatrixReport is one JSON report (`conform -json`) for the matrix.
type MatrixReport struct {
	// Name says where the report came from (its file), in errors.
	Name string
	Data []byte
}

// matrixColumn is one implementation of the matrix, decoded.
type matrixColumn struct {
	label string
	rep   jsonReport
	// run is the report's cases judged again: its verdicts, counts and
	// status are recomputed from each case's outcome and baseline entry,
	// never read from what the report says of itself (D-52).
	run    *Run
	counts Counts
	// byClause and byCapability tally the cases of each clause and
	// capability.
	byClause, byCapability map[string]*cellTally
}

// cellTally counts cases by verdict, and those that do not fail by
// outcome: a cell of the matrix, a row of the report's capability table.
type cellTally struct {
	passed, failing, expected, unsupported, na, total int
	// first is the first failing case (or expected failure), which the
	// cell links to.
	first string
}

func (t *cellTally) add(k Case) {
	t.total++
	switch v := k.Verdict(); {
	case v == Failing || v == Stale:
		t.failing++
		if t.first == "" {
			t.first = k.ID
		}
	case v == Expected:
		t.expected++
	case k.Outcome == result.Passed:
		t.passed++
	case k.Outcome == result.Unsupported:
		t.unsupported++
	default: // a verdict of ok leaves only not_applicable
		t.na++
	}
}

// Matrix writes one self-contained HTML page comparing implementations:
// a table of capabilities and one of clauses, a column per report, each
// cell counting the cases that pass and fail and linking to the first
// failure, shown in full further down; a click on a header sorts by it.
// Each report must be a JSON report of this suite (version 1).
func Matrix(w io.Writer, reports []MatrixReport, opts HTMLOptions) error {
	if len(reports) == 0 {
		return fmt.Errorf("no report to compare")
	}
	var cols []*matrixColumn
	for _, r := range reports {
		dec := json.NewDecoder(bytes.NewReader(r.Data))
		dec.DisallowUnknownFields()
		var rep jsonReport
		if err := dec.Decode(&rep); err != nil {
			return fmt.Errorf("%s: not a conform JSON report: %w", r.Name, err)
		}
		if rep.Version != JSONVersion || rep.Suite.Name != "convspec" {
			return fmt.Errorf("%s: a report of suite %q version %d; this conform reads convspec version %d", r.Name, rep.Suite.Name, rep.Version, JSONVersion)
		}
		col := &matrixColumn{rep: rep, byClause: map[string]*cellTally{}, byCapability: map[string]*cellTally{}}
		col.label = r.Name
		if rep.Implementation != nil {
			col.label = strings.TrimSpace(rep.Implementation.Name + " " + rep.Implementation.Version)
		}
		if rep.Target.Mutant != "" {
			col.label += " (mutant " + rep.Target.Mutant + ")"
		}
		col.run = &Run{Strict: rep.Strict, Interrupted: rep.Interrupted, RestartLimit: rep.RestartLimit, StartError: rep.StartError}
		if rep.Implementation != nil {
			col.run.Implementation = &target.Info{Name: rep.Implementation.Name, Version: rep.Implementation.Version,
				Capabilities: rep.Implementation.Capabilities, Levels: rep.Implementation.Levels, Formats: rep.Implementation.Formats}
		}
		col.run.Cases = make([]Case, len(rep.Cases))
		for i, c := range rep.Cases {
			k := matrixCase(c, rep.Strict)
			col.run.Cases[i] = k
			for _, cl := range k.Clauses {
				if col.byClause[cl] == nil {
					col.byClause[cl] = &cellTally{}
				}
				col.byClause[cl].add(k)
			}
			if col.byCapability[k.Capability] == nil {
				col.byCapability[k.Capability] = &cellTally{}
			}
			col.byCapability[k.Capability].add(k)
		}
		col.counts = col.run.Count()
		cols = append(cols, col)
	}

	// Two runs of one implementation (two versions of a build, say) are
	// told apart by their files.
	for i, col := range cols {
		for j, other := range cols {
			if i != j && col.label == other.label {
				col.label += " [" + reports[i].Name + "]"
				break
			}
		}
	}
	var b strings.Builder
	htmlHead(&b, "convspec conformance matrix")
	b.WriteString(`<div class="wrap"><h1>convspec conformance matrix</h1>`)
	fmt.Fprintf(&b, `<p class="muted">%d implementations. Each cell counts the cases that pass (✓) and fail (✗); a failing cell links to its first failure, shown below. Click a header to sort.</p>`, len(cols))
	b.WriteString(`<div class="scroll"><table class="matrix sortable-table" id="implementations"><thead><tr><th class="sortable">implementation</th><th class="sortable">verdict</th><th class="sortable">passed</th><th class="sortable">failing</th><th>capabilities</th><th>report</th></tr></thead><tbody>`)
	for i, col := range cols {
		status := col.run.Status()
		verdict, key := `<span class="badge fail">`+webui.Esc(status)+`</span>`, 0
		if status == "passed" {
			verdict, key = `<span class="badge pass">passed</span>`, 1
		}
		caps := ""
		if col.rep.Implementation != nil {
			caps = strings.Join(col.rep.Implementation.Capabilities, ", ")
		}
		fmt.Fprintf(&b, `<tr><td><a href="#impl-%d">%s</a></td><td data-sort="%d">%s</td><td>%d</td><td>%d</td><td class="small">%s</td><td class="small">%s</td></tr>`,
			i, webui.Esc(col.label), key, verdict, col.counts.Outcomes[result.Passed], col.counts.Failing, webui.Esc(caps), webui.Esc(reports[i].Name))
	}
	b.WriteString(`</tbody></table></div>`)

	// Capabilities, in the protocol's order, then any other a report
	// names (sorted: a map's order is not a page's). Each row is listed
	// once by a set, in time linear in the rows (D-52).
	var capabilities []string
	listed := map[string]bool{}
	for _, c := range protocol.Capabilities() {
		for _, col := range cols {
			if col.byCapability[c] != nil && !listed[c] {
				listed[c] = true
				capabilities = append(capabilities, c)
			}
		}
	}
	capabilities = append(capabilities, unlisted(listed, cols, func(col *matrixColumn) map[string]*cellTally { return col.byCapability })...)
	b.WriteString(`<h2 id="by-capability">By capability</h2>`)
	writeMatrixTable(&b, "capabilities", "capability", cols, capabilities, func(c string) string { return `<code>` + webui.Esc(orEvery(c)) + `</code>` },
		func(col *matrixColumn, c string) *cellTally { return col.byCapability[c] }, nil)

	// Clauses, in the spec's order.
	var clauses []string
	listed = map[string]bool{}
	for _, c := range spec.Clauses() {
		clauses = append(clauses, c.ID)
		listed[c.ID] = true
	}
	clauses = append(clauses, unlisted(listed, cols, func(col *matrixColumn) map[string]*cellTally { return col.byClause })...)
	b.WriteString(`<h2 id="by-clause">By clause</h2>`)
	writeMatrixTable(&b, "clauses", "clause", cols, clauses, func(id string) string {
		return fmt.Sprintf(`<a href="%s"><code>%s</code></a> <span class="small">%s</span>`, webui.Esc(clauseHref(opts.SpecURL, id)), webui.Esc(id), webui.Esc(strings.TrimPrefix(ClauseTitle(id), id+" — ")))
	}, func(col *matrixColumn, id string) *cellTally { return col.byClause[id] }, func(id string) string {
		if c, ok := spec.Lookup(id); ok {
			return orEvery(c.Capability)
		}
		return ""
	})

	// The failures, per implementation.
	for i, col := range cols {
		fmt.Fprintf(&b, `<h2 id="impl-%d">%s</h2><p class="small muted">%s · status %s · %s</p>`, i, webui.Esc(col.label), webui.Esc(reports[i].Name),
			webui.Esc(col.run.Status()), webui.Esc(col.counts.Summary()))
		if col.run.Status() != col.rep.Status || col.counts.Failing != col.rep.Counts.Failing || col.counts.Total != len(col.rep.Cases) {
			fmt.Fprintf(&b, `<p class="small"><b>The report says of itself status %s, %d failing; its cases say otherwise, and the matrix shows what they say.</b></p>`,
				webui.Esc(col.rep.Status), col.rep.Counts.Failing)
		}
		n := 0
		for _, k := range col.run.Cases {
			if v := k.Verdict(); v != Failing && v != Stale && v != Expected {
				continue
			}
			n++
			writeFailureHTML(&b, k, fmt.Sprintf("f-%d-", i), opts.SpecURL)
		}
		if n == 0 {
			b.WriteString(`<p>No case fails.</p>`)
		}
	}
	htmlFoot(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

// unlisted are the rows the columns name that are not listed yet, sorted.
func unlisted(listed map[string]bool, cols []*matrixColumn, rows func(*matrixColumn) map[string]*cellTally) []string {
	var out []string
	for _, col := range cols {
		for id := range rows(col) {
			if !listed[id] {
				listed[id] = true
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out
}

// matrixCase turns a reported case back into a Case, judged again by its
// outcome and baseline entry (strict as its run was).
func matrixCase(c jsonCase, strict bool) Case {
	k := Case{Result: result.Result{
		Case:    result.Case{ID: c.ID, Kind: result.Kind(c.Kind), Name: c.Name, Capability: c.Capability, Source: c.Source},
		Outcome: result.Outcome(c.Outcome), Detail: c.Detail, NotRun: c.NotRun,
	}, Reproduce: c.Reproduce}
	for _, cl := range c.Clauses {
		k.Clauses = append(k.Clauses, cl.ID)
	}
	if c.Seed != nil {
		k.Seed = *c.Seed
	}
	for _, d := range c.Deviations { // the causes a baseline entry accepts are read from them
		k.Deviations = append(k.Deviations, result.Deviation{Clause: d.Clause, Step: d.Step, Detail: d.Detail, Sent: d.Sent, Got: d.Got, Want: d.Want})
	}
	if c.Baseline != nil {
		k.Baseline = &Entry{ID: c.ID, Reason: c.Baseline.Reason, Issue: c.Baseline.Issue, Flaky: c.Baseline.Flaky,
			Outcome: result.Outcome(c.Baseline.Outcome), Causes: c.Baseline.Causes}
	}
	k.Strict = strict
	return k
}

// writeMatrixTable writes rows × implementations; group, when not nil,
// adds a sortable column naming each row's capability.
func writeMatrixTable(b *strings.Builder, id, what string, cols []*matrixColumn, rows []string, label func(string) string,
	cell func(*matrixColumn, string) *cellTally, group func(string) string) {
	fmt.Fprintf(b, `<div class="scroll"><table class="matrix sortable-table" id="%s"><thead><tr><th class="sortable">%s</th>`, id, what)
	if group != nil {
		b.WriteString(`<th class="sortable">capability</th>`)
	}
	for _, col := range cols {
		fmt.Fprintf(b, `<th class="sortable">%s</th>`, webui.Esc(col.label))
	}
	b.WriteString(`</tr></thead><tbody>`)
	for ri, r := range rows {
		fmt.Fprintf(b, `<tr><td data-sort="%06d">%s</td>`, ri, label(r))
		if group != nil {
			fmt.Fprintf(b, `<td><code>%s</code></td>`, webui.Esc(group(r)))
		}
		for i, col := range cols {
			t := cell(col, r)
			switch {
			case t == nil:
				b.WriteString(`<td class="cell na" data-sort="-1">—</td>`)
			case t.failing > 0:
				fmt.Fprintf(b, `<td class="cell fail" data-sort="%d"><a href="#f-%d-%s">✗ %d</a> <span class="small muted">✓ %d</span></td>`,
					1000+t.failing, i, webui.Esc(t.first), t.failing, t.passed)
			case t.expected > 0:
				fmt.Fprintf(b, `<td class="cell exp" data-sort="%d">≈ %d <span class="small">✓ %d</span></td>`, 500+t.expected, t.expected, t.passed)
			case t.passed > 0:
				fmt.Fprintf(b, `<td class="cell pass" data-sort="%d">✓ %d</td>`, -2-t.passed, t.passed)
			case t.unsupported > 0:
				fmt.Fprintf(b, `<td class="cell na" data-sort="0">unsupported</td>`)
			default:
				b.WriteString(`<td class="cell na" data-sort="-1">n/a</td>`)
			}
		}
		b.WriteString(`</tr>`)
	}
	b.WriteString(`</tbody></table></div>`)
}
