package site

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/convspec/convspec/internal/golden"
	"github.com/convspec/convspec/internal/prop"
	"github.com/convspec/convspec/internal/trace"
	"github.com/convspec/convspec/spec"
)

// Input is everything the site is generated from. Build fills it from
// what conform embeds; tests may pass their own.
type Input struct {
	// Spec, Decisions, Protocol and Traceability are the Markdown texts of
	// SPEC.md, decisions.md, protocol.md and traceability.md.
	Spec, Decisions, Protocol, Traceability string
	// Features holds the Gherkin files by path relative to features/.
	Features map[string]string
	// Properties are the suite's properties (only their IDs, clauses,
	// capabilities and docs are used).
	Properties []prop.Property
	// Golden are the golden case files.
	Golden []golden.File
	// Version and Digest say which conform and suite the site shows.
	Version, Digest string
}

// Clause is a clause with everything that concerns it.
type Clause struct {
	spec.Clause
	// Level is the clause's conformance level (core, validation,
	// diagnostics) where SPEC.md marks one; empty otherwise. See
	// clauseLevel.
	Level string
	// Scenarios are the scenarios tagged with the clause; Home says for
	// each whether this clause is the one the scenario's ID names (the
	// scenario is shown in full there and linked elsewhere).
	Scenarios  []*Scenario
	Properties []prop.Property
	Decisions  []*Decision
	Items      []trace.Item
}

// Decision is one section "## D-n — Title" of decisions.md.
type Decision struct {
	ID, Title, Body string
	// Clauses are the clause IDs the decision names.
	Clauses []string
}

// model is the site's content, joined.
type model struct {
	in        Input
	clauses   []*Clause
	byID      map[string]*Clause
	decisions []*Decision
	decByID   map[string]*Decision
	features  []*feature
	golden    map[string]*golden.File // by case ID
	// home is the page and anchor of every case ID and clause ID.
	scenarioOf map[string]*Scenario // by case ID
}

var (
	decisionHeading = regexp.MustCompile(`^## (D-[0-9]+) — (.+)$`)
	clauseRef       = regexp.MustCompile(`\b[A-Z]+-[0-9]+\b`)
	decisionRef     = regexp.MustCompile(`\bD-[0-9]+\b`)
)

// clauseLevel is a clause's level (core, validation, diagnostics; D-42):
// the contents page groups each capability's clauses by it and every
// clause shows a level badge.
func clauseLevel(c spec.Clause) string { return c.Level }

func buildModel(in Input) (*model, error) {
	cs, err := spec.Parse(in.Spec)
	if err != nil {
		return nil, fmt.Errorf("SPEC.md: %w", err)
	}
	m := &model{in: in, byID: map[string]*Clause{}, decByID: map[string]*Decision{}, golden: map[string]*golden.File{}, scenarioOf: map[string]*Scenario{}}
	for _, c := range cs {
		cl := &Clause{Clause: c, Level: clauseLevel(c)}
		m.clauses = append(m.clauses, cl)
		m.byID[c.ID] = cl
	}
	m.decisions = parseDecisions(in.Decisions)
	for _, d := range m.decisions {
		m.decByID[d.ID] = d
	}
	// A decision concerns a clause when either names the other.
	for _, cl := range m.clauses {
		for _, d := range m.decisions {
			if slices.Contains(d.Clauses, cl.ID) || slices.Contains(decisionRef.FindAllString(cl.Text, -1), d.ID) {
				cl.Decisions = append(cl.Decisions, d)
			}
		}
	}
	for i := range in.Golden {
		g := &in.Golden[i]
		m.golden[g.ID] = g
	}
	if m.features, err = parseFeatures(in.Features); err != nil {
		return nil, err
	}
	var cases []trace.Case
	for _, f := range m.features {
		for _, s := range f.scenarios {
			for _, id := range s.IDs {
				m.scenarioOf[id] = s
				cases = append(cases, trace.Case{ID: id, Clauses: s.Clauses})
			}
			for _, id := range s.Clauses {
				if cl, ok := m.byID[id]; ok {
					cl.Scenarios = append(cl.Scenarios, s)
				}
			}
		}
	}
	for _, p := range in.Properties {
		cases = append(cases, trace.Case{ID: p.ID, Clauses: p.Clauses, Property: true})
		for _, id := range p.Clauses {
			if cl, ok := m.byID[id]; ok {
				cl.Properties = append(cl.Properties, p)
			}
		}
	}
	if in.Traceability != "" {
		t := trace.Build("traceability.md", in.Traceability, cs, cases)
		for _, it := range t.Items {
			for _, id := range it.Clauses {
				if cl, ok := m.byID[id]; ok {
					cl.Items = append(cl.Items, it)
				}
			}
		}
	}
	return m, nil
}

func parseDecisions(doc string) []*Decision {
	var out []*Decision
	var cur *Decision
	var body []string
	flush := func() {
		if cur != nil {
			cur.Body = strings.TrimSpace(strings.Join(body, "\n"))
			for _, id := range clauseRef.FindAllString(cur.Title+"\n"+cur.Body, -1) {
				if !strings.HasPrefix(id, "D-") && !slices.Contains(cur.Clauses, id) {
					cur.Clauses = append(cur.Clauses, id)
				}
			}
			out = append(out, cur)
		}
		cur, body = nil, nil
	}
	for _, line := range strings.Split(doc, "\n") {
		if m := decisionHeading.FindStringSubmatch(line); m != nil {
			flush()
			cur = &Decision{ID: m[1], Title: m[2]}
			continue
		}
		if strings.HasPrefix(line, "## ") || strings.HasPrefix(line, "# ") {
			flush()
			continue
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	flush()
	return out
}

// capabilityOrder lists the capabilities of the clauses in the order they
// first appear in SPEC.md, "" (every implementation) included.
func (m *model) capabilityOrder() []string {
	var out []string
	for _, c := range m.clauses {
		if !slices.Contains(out, c.Capability) {
			out = append(out, c.Capability)
		}
	}
	return out
}
