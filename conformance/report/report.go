// Package report renders the results of a conformance run for people.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/convspec/convspec/conformance/runner"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

// Counts tallies results by outcome.
type Counts map[runner.Outcome]int

// Count tallies results.
func Count(results []runner.Result) Counts {
	c := Counts{}
	for _, r := range results {
		c[r.Outcome]++
	}
	return c
}

// Failures is the number of results that fail a run.
func (c Counts) Failures() int {
	n := 0
	for o, k := range c {
		if o.IsFailure() {
			n += k
		}
	}
	return n
}

// Summary is the closing line: "N passed, N failed, N not applicable",
// where failed counts every failing outcome.
func (c Counts) Summary() string {
	return fmt.Sprintf("%d passed, %d failed, %d not applicable", c[runner.Passed], c.Failures(), c[runner.NotApplicable])
}

// Breakdown names the failing outcomes other than plain failures, e.g.
// "of the failures: 1 timeout, 2 crash"; empty when there are none.
func (c Counts) Breakdown() string {
	var parts []string
	for _, o := range []runner.Outcome{runner.Timeout, runner.Crash, runner.ProtocolError} {
		if c[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[o], o))
		}
	}
	if c[runner.Unsupported] > 0 {
		parts = append(parts, fmt.Sprintf("%d unsupported (not counted as failures)", c[runner.Unsupported]))
	}
	if len(parts) == 0 {
		return ""
	}
	return "including " + strings.Join(parts, ", ")
}

// TextOptions tune the text report.
type TextOptions struct {
	// Verbose lists passing and not-applicable cases too.
	Verbose bool
	// Reproduce returns a command line that reruns one case; nil for none.
	Reproduce func(runner.Result) string
}

// Text writes the human-readable report: one block per failing case with
// its clause, what was sent, what came back and what was wanted, then the
// closing line.
func Text(w io.Writer, info target.Info, results []runner.Result, opts TextOptions) {
	fmt.Fprintf(w, "convspec conformance: %s %s (capabilities: %s)\n", info.Name, info.Version, strings.Join(info.Capabilities, ", "))
	for _, r := range results {
		switch {
		case r.Outcome.IsFailure():
			fmt.Fprintf(w, "--- %s %s [%s]\n", label(r.Outcome), r.ID, strings.Join(r.Clauses, " "))
			for _, id := range r.Clauses {
				if c, ok := spec.Lookup(id); ok {
					fmt.Fprintf(w, "    %s — %s\n", c.ID, c.Title)
				}
			}
			if r.Kind == runner.Scenario {
				fmt.Fprintf(w, "    scenario: %q (features/%s)\n", r.Name, r.Source)
			}
			fmt.Fprintln(w, indent(r.Detail, "    "))
			if opts.Reproduce != nil {
				fmt.Fprintf(w, "    reproduce: %s\n", opts.Reproduce(r))
			}
		case opts.Verbose:
			fmt.Fprintf(w, "--- %s %s\n", label(r.Outcome), r.ID)
		}
	}
	c := Count(results)
	if b := c.Breakdown(); b != "" {
		fmt.Fprintln(w, b)
	}
	fmt.Fprintln(w, c.Summary())
}

func label(o runner.Outcome) string {
	switch o {
	case runner.Passed:
		return "ok  "
	case runner.NotApplicable:
		return "n/a "
	default:
		return strings.ToUpper(string(o))
	}
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
