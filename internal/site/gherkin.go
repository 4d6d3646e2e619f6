package site

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v26"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/convspec/convspec/internal/runner"
)

// feature is one parsed .feature file.
type feature struct {
	uri        string
	name       string
	desc       string
	background *messages.Background
	scenarios  []*Scenario
}

// Scenario is one scenario (or outline) as written, with the case IDs of
// its pickles: one for a scenario, one per example row for an outline.
type Scenario struct {
	feature *feature
	ast     *messages.Scenario
	// IDs are the stable case IDs, in example order.
	IDs []string
	// Clauses are the clause tags, the feature's and the scenario's.
	Clauses []string
	// Anchor is the element ID of the scenario's block: its first case ID.
	Anchor string
}

// Home is the clause under which the scenario is shown in full: the one
// its ID names.
func (s *Scenario) Home() string { return s.Clauses[0] }

func parseFeatures(files map[string]string) ([]*feature, error) {
	uris := make([]string, 0, len(files))
	for u := range files {
		uris = append(uris, u)
	}
	slices.Sort(uris)
	var out []*feature
	for _, uri := range uris {
		n := 0
		newID := func() string { n++; return strconv.Itoa(n) }
		doc, err := gherkin.ParseGherkinDocument(strings.NewReader(files[uri]), newID)
		if err != nil {
			return nil, fmt.Errorf("features/%s: %w", uri, err)
		}
		if doc.Feature == nil {
			continue
		}
		f := &feature{uri: uri, name: doc.Feature.Name, desc: doc.Feature.Description}
		byAST := map[string]*Scenario{}
		var children []*messages.FeatureChild = doc.Feature.Children
		for _, ch := range children {
			switch {
			case ch.Background != nil:
				f.background = ch.Background
			case ch.Scenario != nil:
				s := &Scenario{feature: f, ast: ch.Scenario}
				f.scenarios = append(f.scenarios, s)
				byAST[ch.Scenario.Id] = s
			case ch.Rule != nil:
				return nil, fmt.Errorf("features/%s: Rule blocks are not rendered", uri)
			}
		}
		for _, p := range gherkin.Pickles(*doc, uri, newID) {
			tags := make([]string, len(p.Tags))
			for i, t := range p.Tags {
				tags[i] = t.Name
			}
			c, err := runner.ScenarioCase(p.Name, uri, tags)
			if err != nil {
				return nil, err
			}
			s := byAST[p.AstNodeIds[0]]
			if s == nil {
				return nil, fmt.Errorf("features/%s: pickle %q has no scenario", uri, p.Name)
			}
			s.IDs = append(s.IDs, c.ID)
			if s.Clauses == nil {
				s.Clauses = c.Clauses
				s.Anchor = c.ID
			}
		}
		out = append(out, f)
	}
	return out, nil
}

// writeScenario renders a scenario as Gherkin: keywords, steps, doc
// strings as code, data tables and examples as tables, and under each
// case its golden exchanges.
func (p *pages) writeScenario(w *strings.Builder, s *Scenario) {
	fmt.Fprintf(w, `<div class="scenario" id="%s">`, esc(s.Anchor))
	fmt.Fprintf(w, `<div class="tags">features/%s · %s</div>`, esc(s.feature.uri), p.clauseLinks(s.Clauses))
	fmt.Fprintf(w, `<div><span class="kw">%s:</span> <span class="title">%s</span></div>`, esc(s.ast.Keyword), esc(s.ast.Name))
	if bg := s.feature.background; bg != nil {
		fmt.Fprintf(w, `<details class="small"><summary class="muted">%s (every scenario of the feature)</summary>`, esc(bg.Keyword))
		writeSteps(w, bg.Steps)
		w.WriteString(`</details>`)
	}
	writeSteps(w, s.ast.Steps)
	for _, ex := range s.ast.Examples {
		fmt.Fprintf(w, `<div class="examples"><span class="kw">%s:</span> %s`, esc(ex.Keyword), esc(ex.Name))
		w.WriteString(`<div class="scroll"><table>`)
		if ex.TableHeader != nil {
			writeRow(w, ex.TableHeader, "th")
		}
		for _, r := range ex.TableBody {
			writeRow(w, r, "td")
		}
		w.WriteString(`</table></div></div>`)
	}
	for _, id := range s.IDs {
		p.writeGolden(w, id, len(s.IDs) > 1)
	}
	w.WriteString(`</div>`)
}

func writeSteps(w *strings.Builder, steps []*messages.Step) {
	w.WriteString(`<ul class="steps">`)
	for _, st := range steps {
		fmt.Fprintf(w, `<li><span class="kw">%s</span>%s`, esc(st.Keyword), esc(st.Text))
		if ds := st.DocString; ds != nil {
			fmt.Fprintf(w, `<pre><code>%s</code></pre>`, esc(ds.Content))
		}
		if dt := st.DataTable; dt != nil {
			w.WriteString(`<div class="scroll"><table>`)
			for _, r := range dt.Rows {
				writeRow(w, r, "td")
			}
			w.WriteString(`</table></div>`)
		}
		w.WriteString(`</li>`)
	}
	w.WriteString(`</ul>`)
}

func writeRow(w *strings.Builder, r *messages.TableRow, cell string) {
	w.WriteString(`<tr>`)
	for _, c := range r.Cells {
		fmt.Fprintf(w, `<%s>%s</%s>`, cell, esc(c.Value), cell)
	}
	w.WriteString(`</tr>`)
}
