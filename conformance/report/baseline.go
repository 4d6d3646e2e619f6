package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/result"
)

// BaselineVersion is the version of the baseline file format.
const BaselineVersion = 1

// TODOReason is the reason `conform baseline` writes for a new entry.
const TODOReason = "TODO: explain"

// Baseline is a file of accepted deviations (spec/schema/baseline.schema.json):
// cases that are known to fail and must not fail the run. A listed case
// that fails is an expected failure; one that no longer fails is stale and
// fails the run until its entry is removed, so the file only ever shrinks.
type Baseline struct {
	Version int `json:"version"`
	// Implementation names the implementation the baseline was written
	// for (its handshake name); informative.
	Implementation string  `json:"implementation"`
	Entries        []Entry `json:"entries"`
}

// Entry is one accepted deviation.
type Entry struct {
	// ID is the case's stable ID (`conform list`).
	ID string `json:"id"`
	// Reason says why the deviation is accepted.
	Reason string `json:"reason"`
	// Issue optionally links to where the deviation is tracked.
	Issue string `json:"issue,omitempty"`
	// Flaky marks a case known to fail only sometimes: its failure is
	// expected and its pass is not stale, so neither fails the run and the
	// entry never has to be removed.
	Flaky bool `json:"flaky,omitempty"`
	// Outcome is the failing outcome the entry accepts (D-50). Absent, it
	// accepts failed, and unsupported (judged with -strict): the outcomes
	// of an implementation that answered. A timeout, a crash or a protocol
	// error is accepted only by an entry that names it.
	Outcome result.Outcome `json:"outcome,omitempty"`
	// Causes are the causes the entry accepts: the shapes of the case's
	// failure (CaseCauses), as the causes table shows them. A failure with
	// a shape not listed is not the deviation that was accepted, and fails;
	// absent, any cause of the outcome is accepted.
	Causes []string `json:"causes,omitempty"`
}

// Accepts says whether the entry describes r's failure: its outcome and,
// when the entry lists causes, every one of r's causes (D-50). A failure
// it does not describe fails the run.
func (e *Entry) Accepts(r result.Result) bool {
	switch {
	case e.Outcome == "" && r.Outcome != result.Failed && r.Outcome != result.Unsupported:
		return false
	case e.Outcome != "" && e.Outcome != r.Outcome:
		return false
	}
	if len(e.Causes) == 0 {
		return true
	}
	for _, c := range CaseCauses(r) {
		if !slices.Contains(e.Causes, c) {
			return false
		}
	}
	return true
}

// Mismatch says, for a failing case that its entry does not accept, what
// the entry accepts and what happened instead.
func (e *Entry) Mismatch(r result.Result) string {
	want := e.Outcome
	if want == "" {
		want = result.Failed
	}
	if want != r.Outcome && !(e.Outcome == "" && r.Outcome == result.Unsupported) {
		return fmt.Sprintf("the baseline accepts %s, but it is %s", OutcomeLabel(want), OutcomeLabel(r.Outcome))
	}
	var other []string
	for _, c := range CaseCauses(r) {
		if !slices.Contains(e.Causes, c) {
			other = append(other, strconv.Quote(c))
		}
	}
	return fmt.Sprintf("the baseline accepts %s with causes %s, but it failed with %s", OutcomeLabel(want), quoteAll(e.Causes), strings.Join(other, ", "))
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// CaseCauses are the shapes of a failing case's failure, as Causes groups
// them: each deviation's (a property's prefixed "property: "), or for
// a failure that is not a deviation its outcome and the shape of its
// detail.
func CaseCauses(r result.Result) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	switch {
	case r.Kind == result.Property && len(r.Deviations) > 0:
		for _, d := range r.Deviations {
			add("property: " + Shape(d.Detail))
		}
	case len(r.Deviations) > 0:
		for _, d := range r.Deviations {
			add(Shape(d.Detail))
		}
	case Shape(r.Detail) == "":
		add(OutcomeLabel(r.Outcome))
	default:
		add(OutcomeLabel(r.Outcome) + ": " + Shape(r.Detail))
	}
	return out
}

// Kind is how the entry reads in a report: "baseline", or "baseline,
// flaky" for a known-flaky case.
func (e *Entry) Kind() string {
	if e.Flaky {
		return "baseline, flaky"
	}
	return "baseline"
}

// ReadBaseline decodes and checks a baseline: version 1, no unknown
// members, every entry with an ID and a reason, no ID twice.
func ReadBaseline(r io.Reader) (*Baseline, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("not a baseline file: %w", err)
	}
	// Only white space may follow the value: dec.More says false before a
	// stray ] or }, which would pass unread.
	rest, err := io.ReadAll(io.MultiReader(dec.Buffered(), r))
	if err != nil {
		return nil, fmt.Errorf("not a baseline file: %w", err)
	}
	if len(bytes.TrimLeft(rest, " \t\r\n")) > 0 {
		return nil, errors.New("not a baseline file: more than one JSON value")
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("baseline version %d is not supported (this conform reads version %d)", b.Version, BaselineVersion)
	}
	if b.Entries == nil {
		return nil, errors.New(`baseline has no "entries" array`)
	}
	seen := map[string]bool{}
	for i, e := range b.Entries {
		switch {
		case strings.TrimSpace(e.ID) == "":
			return nil, fmt.Errorf("baseline entry %d has no id", i)
		case strings.TrimSpace(e.Reason) == "":
			return nil, fmt.Errorf("baseline entry %s has no reason: say why the deviation is accepted", e.ID)
		case seen[e.ID]:
			return nil, fmt.Errorf("baseline lists %s twice", e.ID)
		case e.Outcome != "" && !Fails(e.Outcome, true):
			return nil, fmt.Errorf("baseline entry %s: outcome %q is not a failing outcome (failed, unsupported, timeout, crash, protocol_error)", e.ID, e.Outcome)
		case slices.ContainsFunc(e.Causes, func(c string) bool { return strings.TrimSpace(c) == "" }):
			return nil, fmt.Errorf("baseline entry %s has an empty cause", e.ID)
		}
		seen[e.ID] = true
	}
	return &b, nil
}

// LoadBaseline reads a baseline file.
func LoadBaseline(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	b, err := ReadBaseline(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// Check refuses entries that name no case: a typo, or a case that was
// renamed, would otherwise accept nothing and go unnoticed.
func (b *Baseline) Check(cases []result.Case) error {
	known := map[string]bool{}
	for _, c := range cases {
		known[c.ID] = true
	}
	var unknown []string
	for _, e := range b.Entries {
		if !known[e.ID] {
			unknown = append(unknown, e.ID)
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("the baseline lists %s, which %s no case (see `conform list`): fix or remove %s",
			strings.Join(unknown, ", "), plural(len(unknown), "names", "name"), plural(len(unknown), "it", "them"))
	}
	return nil
}

// Lookup finds the entry for a case ID.
func (b *Baseline) Lookup(id string) *Entry {
	if b == nil {
		return nil
	}
	for i := range b.Entries {
		if b.Entries[i].ID == id {
			return &b.Entries[i]
		}
	}
	return nil
}

// NewBaseline is the baseline that accepts every failing result; with
// strict, the unsupported ones too (conform baseline -strict). An entry of
// previous for a case that still fails keeps its reason and issue; a new
// one gets TODOReason. A flaky entry of previous is kept whether its case
// failed or not: a flaky case that happened to pass is still flaky.
func NewBaseline(implementation string, results []result.Result, previous *Baseline, strict bool) *Baseline {
	b := &Baseline{Version: BaselineVersion, Implementation: implementation, Entries: []Entry{}}
	if previous != nil {
		for _, e := range previous.Entries {
			if e.Flaky {
				b.Entries = append(b.Entries, e)
			}
		}
	}
	for _, r := range results {
		if !Fails(r.Outcome, strict) {
			continue
		}
		e := Entry{ID: r.ID, Reason: TODOReason}
		if old := previous.Lookup(r.ID); old != nil {
			e = *old
		}
		// The entry names what it accepts (D-50): this outcome, these causes.
		e.Outcome, e.Causes = r.Outcome, CaseCauses(r)
		b.Entries = append(b.Entries, e)
	}
	slices.SortFunc(b.Entries, func(x, y Entry) int { return strings.Compare(x.ID, y.ID) })
	b.Entries = slices.CompactFunc(b.Entries, func(x, y Entry) bool { return x.ID == y.ID })
	return b
}

// Write encodes the baseline deterministically: entries sorted by ID, two
// spaces of indent, a final newline.
func (b *Baseline) Write(w io.Writer) error {
	out := *b
	out.Entries = slices.Clone(b.Entries)
	if out.Entries == nil {
		out.Entries = []Entry{}
	}
	slices.SortFunc(out.Entries, func(x, y Entry) int { return strings.Compare(x.ID, y.ID) })
	return writeJSON(w, out)
}

// Judge pairs results with the baseline's entries. With strict, an
// unsupported result fails like a failed one (conform -strict); set
// Run.Strict to the same value.
func Judge(results []result.Result, b *Baseline, strict bool) []Case {
	cases := make([]Case, len(results))
	for i, r := range results {
		cases[i] = Case{Result: r, Baseline: b.Lookup(r.ID), Strict: strict}
	}
	return cases
}
