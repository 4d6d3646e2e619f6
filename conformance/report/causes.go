package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/result"
)

// Failures grouped by cause. One bug usually fails many cases the same
// way; a report that lists 83 failures one by one hides that there are
// three things to fix.
//
// A deviation's shape is what differs and how — its first line up to the
// first colon, with numbers, message labels, free texts and JSON values
// abstracted ("trimmed differs at index N", "the estimate is N tokens,
// want N"). Shapes are one cause when they are seen together in one case
// under one clause (a scenario whose trimmed and evicted lists both
// differ), or under one clause anywhere. A property's counterexample joins the cause that holds its
// clause (else one of its case's clauses), when exactly one does;
// otherwise it is a cause of its own. A failure that is not a deviation —
// timeout, crash, protocol error — is a cause by its outcome and message.

// Cause is one reason the implementation deviates.
type Cause struct {
	// Shape is the shape of its clearest example; Shapes all of its
	// shapes, the most frequent first.
	Shape  string
	Shapes []string
	// Clauses are the clauses it was seen under, in order of first sight.
	Clauses []string
	// Cases are the IDs of the failing cases that show it.
	Cases []string
	// Example is the clearest of them: the shortest scenario deviation
	// (a property's when no scenario shows it).
	Example Example
}

// Example is one deviation of a cause.
type Example struct {
	Case   string
	Clause string
	Step   string
	Detail string
}

// seen is one deviation of one failing case, before grouping.
type seen struct {
	k        Case
	shape    string
	clause   string
	example  Example
	property bool
}

// Causes groups the failing cases of the run (those the baseline does not
// accept, not counting cases the restart limit kept from running) by
// cause, the cause with the most cases first.
func (r *Run) Causes() []Cause {
	var devs, props []seen
	for _, k := range r.Cases {
		if k.Verdict() != Failing || k.NotRun {
			continue
		}
		switch {
		case k.Kind == result.Property && len(k.Deviations) > 0:
			// One deviation per failing subject: a trimmer property's
			// failing trimmers are causes of their own (D-75).
			for _, d := range k.Deviations {
				props = append(props, seen{k: k, shape: "property: " + Shape(d.Detail), clause: d.Clause, property: true,
					example: Example{Case: k.ID, Clause: d.Clause, Detail: d.Detail}})
			}
		case len(k.Deviations) > 0:
			for _, d := range k.Deviations {
				devs = append(devs, seen{k: k, shape: Shape(d.Detail), clause: d.Clause,
					example: Example{Case: k.ID, Clause: d.Clause, Step: d.Step, Detail: d.Detail}})
			}
		default:
			devs = append(devs, seen{k: k, shape: OutcomeLabel(k.Outcome) + ": " + Shape(k.Detail), clause: firstOf(k.Clauses),
				example: Example{Case: k.ID, Clause: firstOf(k.Clauses), Detail: k.Detail}})
		}
	}

	// Union the scenarios' shapes seen in one case or under one clause.
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if p, ok := parent[x]; ok && p != x {
			parent[x] = find(p)
			return parent[x]
		}
		parent[x] = x
		return x
	}
	union := func(a, b string) { parent[find(a)] = find(b) }
	byCase, byClause := map[string]string{}, map[string]string{}
	for _, d := range devs {
		find(d.shape)
		// Seen together in one case under one clause: a Then that fails
		// under a clause of its own (a trimmer's crash, ANY-9, D-60) is
		// another cause than the deviation beside it.
		key := d.k.ID + "\x00" + d.clause
		if prev, ok := byCase[key]; ok {
			union(d.shape, prev)
		}
		byCase[key] = d.shape
		if prev, ok := byClause[d.clause]; ok && d.clause != "" {
			union(d.shape, prev)
		}
		byClause[d.clause] = d.shape
	}
	// A property joins the one group that holds its clause, or else the
	// one group that holds one of its case's clauses.
	for _, p := range props {
		join := func(clauses []string) bool {
			roots := map[string]bool{}
			for _, c := range clauses {
				if s, ok := byClause[c]; ok {
					roots[find(s)] = true
				}
			}
			if len(roots) != 1 {
				return false
			}
			for root := range roots {
				union(p.shape, root)
			}
			return true
		}
		if !join([]string{p.clause}) && !join(p.k.Clauses) {
			find(p.shape)
		}
	}

	// Gather each group into a cause.
	var order []string
	groups := map[string]*Cause{}
	shapeCount := map[string]map[string]int{}
	isProperty := map[string]bool{}
	for _, d := range append(devs, props...) {
		root := find(d.shape)
		c := groups[root]
		if c == nil {
			c = &Cause{Example: d.example}
			groups[root] = c
			shapeCount[root] = map[string]int{}
			isProperty[root] = d.property
			order = append(order, root)
		}
		shapeCount[root][d.shape]++
		if d.clause != "" && !slices.Contains(c.Clauses, d.clause) {
			c.Clauses = append(c.Clauses, d.clause)
		}
		if !slices.Contains(c.Cases, d.k.ID) {
			c.Cases = append(c.Cases, d.k.ID)
		}
		if better(d.example, c.Example, d.property, isProperty[root]) {
			c.Example = d.example
			isProperty[root] = d.property
		}
	}
	out := make([]Cause, 0, len(order))
	for _, root := range order {
		c := groups[root]
		for s := range shapeCount[root] {
			c.Shapes = append(c.Shapes, s)
		}
		slices.SortFunc(c.Shapes, func(a, b string) int {
			if d := shapeCount[root][b] - shapeCount[root][a]; d != 0 {
				return d
			}
			return strings.Compare(a, b)
		})
		c.Shape = Shape(c.Example.Detail)
		if isProperty[root] {
			c.Shape = "property: " + c.Shape
		}
		if !slices.Contains(c.Shapes, c.Shape) {
			c.Shape = c.Shapes[0]
		}
		out = append(out, *c)
	}
	slices.SortStableFunc(out, func(a, b Cause) int { return len(b.Cases) - len(a.Cases) })
	return out
}

// better says whether a is a clearer example than b: a scenario's over a
// property's, then the shorter.
func better(a, b Example, aProperty, bProperty bool) bool {
	if aProperty != bProperty {
		return !aProperty
	}
	return len(a.Detail) < len(b.Detail)
}

func firstOf(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}

// FailingCount is the number of cases the causes cover.
func FailingCount(causes []Cause) int {
	seen := map[string]bool{}
	for _, c := range causes {
		for _, id := range c.Cases {
			seen[id] = true
		}
	}
	return len(seen)
}

// CausesLine is the opening line of the grouped summary: "3 causes across
// 83 failing cases".
func CausesLine(causes []Cause) string {
	n := FailingCount(causes)
	return fmt.Sprintf("%d %s across %d failing %s", len(causes), plural(len(causes), "cause", "causes"), n, plural(n, "case", "cases"))
}

var (
	rapidPrefix = regexp.MustCompile(`^\[rapid\] failed after \d+ tests?: `)
	clauseLead  = regexp.MustCompile(`^[A-Z]+-[0-9]+: `)
	quotedText  = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)
	identifier  = regexp.MustCompile(`^"[a-z_.]+"$`)
	flatObject  = regexp.MustCompile(`\{[^{}]*\}`)
	flatArray   = regexp.MustCompile(`\[[^\[\]]*\]`)
	number      = regexp.MustCompile(`\b[a-z]?-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?\b`)
	spaces      = regexp.MustCompile(`\s+`)
)

// Shape abstracts a deviation to what it has in common with the other
// deviations of its kind: its first line up to the first colon (what
// differs and how, not the particulars after it), without the clause it
// starts with, with every number or message label as N, every quoted text
// but an identifier (a code, a member) as "…", and every JSON object or
// array as {…} or […].
func Shape(detail string) string {
	line := FirstLine(detail, 1<<20)
	line = rapidPrefix.ReplaceAllString(line, "")
	line = clauseLead.ReplaceAllString(line, "")
	line = quotedText.ReplaceAllStringFunc(line, func(q string) string {
		if identifier.MatchString(q) {
			return q
		}
		return `"…"`
	})
	for {
		next := flatArray.ReplaceAllString(flatObject.ReplaceAllString(line, "{…}"), "[…]")
		if next == line {
			break
		}
		line = next
	}
	for _, cut := range []string{": ", " (role "} {
		if i := strings.Index(line, cut); i > 0 {
			line = line[:i]
		}
	}
	line = strings.TrimSuffix(line, ":")
	line = number.ReplaceAllString(line, "N")
	line = strings.TrimSpace(spaces.ReplaceAllString(line, " "))
	return clip(line, 200)
}
