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
	// byClause and byCapability tally the cases of each clause and
	// capability.
	byClause, byCapability map[string]*cellTally
}

type cellTally struct {
	passed, failing, expected, unsupported, na int
	// first is the first failing case (or expected failure), which the
	// cell links to.
	first string
}

func (t *cellTally) add(c jsonCase) {
	switch {
	case c.Verdict == string(Failing) || c.Verdict == string(Stale):
		t.failing++
		if t.first == "" {
			t.first = c.ID
		}
	case c.Verdict == string(Expected):
		t.expected++
	case c.Outcome == string(result.Passed):
		t.passed++
	case c.Outcome == string(result.Unsupported):
		t.unsupported++
	default:
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
		for _, c := range rep.Cases {
			for _, cl := range c.Clauses {
				if col.byClause[cl.ID] == nil {
					col.byClause[cl.ID] = &cellTally{}
				}
				col.byClause[cl.ID].add(c)
			}
			if col.byCapability[c.Capability] == nil {
				col.byCapability[c.Capability] = &cellTally{}
			}
			col.byCapability[c.Capability].add(c)
		}
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
		verdict, key := `<span class="badge fail">`+webui.Esc(col.rep.Status)+`</span>`, 0
		if col.rep.Status == "passed" {
			verdict, key = `<span class="badge pass">passed</span>`, 1
		}
		caps := ""
		if col.rep.Implementation != nil {
			caps = strings.Join(col.rep.Implementation.Capabilities, ", ")
		}
		fmt.Fprintf(&b, `<tr><td><a href="#impl-%d">%s</a></td><td data-sort="%d">%s</td><td>%d</td><td>%d</td><td class="small">%s</td><td class="small">%s</td></tr>`,
			i, webui.Esc(col.label), key, verdict, col.rep.Counts.Passed, col.rep.Counts.Failing, webui.Esc(caps), webui.Esc(reports[i].Name))
	}
	b.WriteString(`</tbody></table></div>`)

	// Capabilities.
	var capabilities []string
	for _, c := range protocol.Capabilities() {
		for _, col := range cols {
			if col.byCapability[c] != nil && !slices.Contains(capabilities, c) {
				capabilities = append(capabilities, c)
			}
		}
	}
	for _, col := range cols {
		for c := range col.byCapability {
			if !slices.Contains(capabilities, c) {
				capabilities = append(capabilities, c)
			}
		}
	}
	b.WriteString(`<h2 id="by-capability">By capability</h2>`)
	writeMatrixTable(&b, "capabilities", "capability", cols, capabilities, func(c string) string { return `<code>` + webui.Esc(orEvery(c)) + `</code>` },
		func(col *matrixColumn, c string) *cellTally { return col.byCapability[c] }, nil)

	// Clauses, in the spec's order.
	var clauses []string
	for _, c := range spec.Clauses() {
		clauses = append(clauses, c.ID)
	}
	for _, col := range cols {
		for id := range col.byClause {
			if !slices.Contains(clauses, id) {
				clauses = append(clauses, id)
			}
		}
	}
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
			webui.Esc(col.rep.Status), webui.Esc(countsLine(col.rep.Counts)))
		n := 0
		for _, c := range col.rep.Cases {
			if c.Verdict != string(Failing) && c.Verdict != string(Stale) && c.Verdict != string(Expected) {
				continue
			}
			n++
			writeFailureHTML(&b, matrixCase(c), fmt.Sprintf("f-%d-", i), opts.SpecURL)
		}
		if n == 0 {
			b.WriteString(`<p>No case fails.</p>`)
		}
	}
	htmlFoot(&b)
	_, err := io.WriteString(w, b.String())
	return err
}

func countsLine(c jsonCounts) string {
	return fmt.Sprintf("%d passed, %d failed, %d timeout, %d crash, %d protocol error, %d unsupported, %d not applicable",
		c.Passed, c.Failed, c.Timeout, c.Crash, c.ProtocolError, c.Unsupported, c.NotApplicable)
}

// matrixCase turns a reported case back into a Case for writeFailureHTML.
func matrixCase(c jsonCase) Case {
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
	if c.Baseline != nil {
		k.Baseline = &Entry{ID: c.ID, Reason: c.Baseline.Reason, Issue: c.Baseline.Issue, Flaky: c.Baseline.Flaky,
			Outcome: result.Outcome(c.Baseline.Outcome), Causes: c.Baseline.Causes}
	}
	if c.Verdict == string(Failing) && !Fails(k.Outcome, false) {
		k.Strict = true // an unsupported case that failed a strict run
	}
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
