package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/result"
)

// The JUnit XML shape most CI systems read (Jenkins, GitLab, GitHub
// reporters): testsuites > testsuite > testcase, with failure, error,
// skipped and system-out.
type (
	junitSuites struct {
		XMLName xml.Name `xml:"testsuites"`
		Name    string   `xml:"name,attr"`
		junitCounts
		Suites []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name string `xml:"name,attr"`
		junitCounts
		Timestamp  string          `xml:"timestamp,attr,omitempty"`
		Properties []junitProperty `xml:"properties>property,omitempty"`
		Cases      []junitCase     `xml:"testcase"`
	}
	// junitCounts are the attributes testsuites and testsuite share.
	junitCounts struct {
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Time     string `xml:"time,attr"`
	}
	junitProperty struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		Classname string        `xml:"classname,attr"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure,omitempty"`
		Error     *junitProblem `xml:"error,omitempty"`
		Skipped   *junitSkipped `xml:"skipped,omitempty"`
		SystemOut string        `xml:"system-out,omitempty"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Text    string `xml:",chardata"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
)

// JUnit writes the report as JUnit XML: one testsuite per kind of case
// (scenario, property), one testcase per case. A failed case is a
// <failure>, and so is an unsupported one in a strict run; a timeout,
// crash or protocol error is an <error>; a case not applicable,
// unsupported (not strict) or failing as the baseline expects is <skipped>;
// a stale baseline entry is a <failure>. A property's seed and every
// failure's reproduce command are in <system-out>. An interrupted run, or
// one whose implementation could not be started, adds a testsuite "conform"
// with a testcase in error that says so.
func JUnit(w io.Writer, run *Run) error {
	props := []junitProperty{{"target", run.Target()}, {"seed", fmt.Sprint(run.Seed)}}
	name := "convspec conformance: " + run.Target()
	if info := run.Implementation; info != nil {
		name = "convspec conformance: " + strings.TrimSpace(info.Name+" "+info.Version)
		props = append(props,
			junitProperty{"implementation", strings.TrimSpace(info.Name + " " + info.Version)},
			junitProperty{"capabilities", strings.Join(info.Capabilities, ",")})
	}
	if run.Baseline != nil {
		props = append(props, junitProperty{"baseline", run.Baseline.Path})
	}
	if run.Strict {
		props = append(props, junitProperty{"strict", "true"})
	}
	for _, v := range run.LevelVerdicts() {
		props = append(props, junitProperty{"level." + v.Capability + "." + v.Level, v.Verdict})
	}
	causes := run.Causes()
	causeOf := map[string]int{}
	if len(causes) > 0 {
		props = append(props, junitProperty{"causes", CausesLine(causes)})
	}
	for i, c := range causes {
		props = append(props, junitProperty{fmt.Sprintf("cause.%d", i+1),
			fmt.Sprintf("[%s] %s (%d %s; e.g. %s)", strings.Join(c.Clauses, " "), c.Shape, len(c.Cases), plural(len(c.Cases), "case", "cases"), c.Example.Case)})
		for _, id := range c.Cases {
			if _, ok := causeOf[id]; !ok {
				causeOf[id] = i + 1
			}
		}
	}
	timestamp := ""
	if !run.Started.IsZero() {
		timestamp = run.Started.UTC().Format("2006-01-02T15:04:05")
	}
	suites := map[result.Kind]*junitSuite{}
	var order []result.Kind
	for _, kind := range []result.Kind{result.Scenario, result.Property} {
		suites[kind] = &junitSuite{Name: string(kind), Timestamp: timestamp, Properties: props}
		order = append(order, kind)
	}
	var durations = map[result.Kind]time.Duration{}
	for _, k := range run.Cases {
		s, ok := suites[k.Kind]
		if !ok {
			s = &junitSuite{Name: string(k.Kind), Timestamp: timestamp, Properties: props}
			suites[k.Kind] = s
			order = append(order, k.Kind)
		}
		c := junitCaseOf(run, k, s)
		if n, ok := causeOf[k.ID]; ok && c.Failure != nil {
			c.Failure.Message = fmt.Sprintf("%s [cause %d]", c.Failure.Message, n)
		}
		s.Cases = append(s.Cases, c)
		durations[k.Kind] += k.Duration
	}
	all := junitSuites{Name: name, junitCounts: junitCounts{Time: seconds(run.Duration)}}
	if run.StartError != "" || run.Interrupted {
		s := &junitSuite{Name: "conform", Timestamp: timestamp, Properties: props}
		c := junitCase{Name: "conform/run", Classname: "conform", Time: seconds(0)}
		if run.StartError != "" {
			c.Error = &junitProblem{Type: "not_started", Message: run.Verdict(), Text: run.StartError}
		} else {
			c.Error = &junitProblem{Type: "interrupted", Message: run.Verdict(), Text: "the run was interrupted; the cases that had not completed are missing from this report"}
		}
		s.Cases, s.Tests, s.Errors = []junitCase{c}, 1, 1
		suites["conform"] = s
		order = append(order, "conform")
	}
	for _, kind := range order {
		s := suites[kind]
		if len(s.Cases) == 0 {
			continue
		}
		s.Tests = len(s.Cases)
		s.Time = seconds(durations[kind])
		all.Suites = append(all.Suites, *s)
		all.add(s.junitCounts)
	}
	all.escape()
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// escape is the JUnit report's escaping layer (D-52): CI systems show
// these texts in logs and pages, so every control character in them is a
// visible escape (encoding/xml escapes markup, and writes a character XML
// cannot hold as U+FFFD, but leaves ESC, CR and the like as they are). An
// attribute is one line; a body keeps its line breaks.
func (all *junitSuites) escape() {
	all.Name = textLine(all.Name)
	for i := range all.Suites {
		s := &all.Suites[i]
		s.Name = textLine(s.Name)
		props := make([]junitProperty, len(s.Properties))
		for j, p := range s.Properties {
			props[j] = junitProperty{Name: textLine(p.Name), Value: textLine(p.Value)}
		}
		s.Properties = props
		for j := range s.Cases {
			c := &s.Cases[j]
			c.Name, c.Classname, c.SystemOut = textLine(c.Name), textLine(c.Classname), EscapeText(c.SystemOut)
			for _, p := range []*junitProblem{c.Failure, c.Error} {
				if p != nil {
					p.Message, p.Type, p.Text = textLine(p.Message), textLine(p.Type), EscapeText(p.Text)
				}
			}
			if c.Skipped != nil {
				c.Skipped.Message = textLine(c.Skipped.Message)
			}
		}
	}
}

// add adds the cases of c to n; the time is each one's own.
func (n *junitCounts) add(c junitCounts) {
	n.Tests += c.Tests
	n.Failures += c.Failures
	n.Errors += c.Errors
	n.Skipped += c.Skipped
}

func junitCaseOf(run *Run, k Case, s *junitSuite) junitCase {
	classname := string(k.Kind)
	if len(k.Clauses) > 0 {
		classname = k.Clauses[0]
	}
	c := junitCase{Name: k.ID, Classname: classname, Time: seconds(k.Duration)}
	var out []string
	if k.Kind == result.Property && k.Seed != 0 {
		out = append(out, fmt.Sprintf("seed: %d", k.Seed))
	}
	if k.Reproduce != "" {
		out = append(out, "reproduce: "+k.Reproduce)
	}
	c.SystemOut = strings.Join(out, "\n")
	text := junitText(k)
	switch k.Verdict() {
	case Failing:
		p := &junitProblem{Type: string(k.Outcome), Message: label(k.Outcome) + ": " + problemLine(k), Text: text}
		if k.NotRun {
			p.Message = result.NotRunDetail
		}
		if k.Outcome == result.Failed || k.Outcome == result.Unsupported {
			c.Failure = p
			s.Failures++
		} else {
			c.Error = p
			s.Errors++
		}
	case Stale:
		c.Failure = &junitProblem{Type: "stale", Message: "STALE: " + run.StaleAdvice(k)}
		s.Failures++
	case Expected:
		c.Skipped = &junitSkipped{Message: fmt.Sprintf("expected %s (%s: %s)", OutcomeLabel(k.Outcome), k.Baseline.Kind(), k.Baseline.Reason)}
		c.SystemOut = strings.TrimSpace(c.SystemOut + "\n" + text)
		s.Skipped++
	default:
		if k.Outcome != result.Passed {
			c.Skipped = &junitSkipped{Message: OutcomeLabel(k.Outcome) + ": " + FirstLine(k.Detail, 200)}
			s.Skipped++
		}
	}
	return c
}

// problemLine is a failure in one line: its first deviation, and how many
// more there are.
func problemLine(k Case) string {
	if len(k.Deviations) < 2 {
		return FirstLine(k.Detail, 200)
	}
	more := len(k.Deviations) - 1
	return fmt.Sprintf("%s (and %d more %s)", FirstLine(k.Deviations[0].Detail, 200), more, plural(more, "deviation", "deviations"))
}

// junitText is a failure's body: the clauses, then the detail.
func junitText(k Case) string {
	var b strings.Builder
	for _, id := range k.FailingClauses() {
		fmt.Fprintln(&b, ClauseTitle(id))
	}
	if k.Kind == result.Scenario && k.Source != "" {
		fmt.Fprintf(&b, "scenario: %q (features/%s)\n", k.Name, k.Source)
	}
	b.WriteString(k.Detail)
	return b.String()
}

func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", d.Seconds())
}
