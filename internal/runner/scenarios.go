package runner

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/features"
)

// scenario is one pickle of a feature file: the scenario (or outline
// example) it comes from and its case.
type scenario struct {
	pickle *messages.Pickle
	source *messages.Scenario
	c      result.Case
}

// embeddedScenarios are the scenarios of features.FS, read once per
// process: the embedded files cannot change, and a run lists its cases,
// orders its results and selects its scenarios by them, each of which
// parsed every feature file again (Gherkin's parser was half of the CPU
// of a conform process that runs one case). The pickles are shared, so
// nothing may change them.
var embeddedScenarios = sync.OnceValues(func() ([]scenario, error) { return readScenarios(features.FS) })

// eachScenario calls fn with every scenario of the features in fsys, in
// file order: its pickle, the scenario it comes from and its case.
func eachScenario(fsys fs.FS, fn func(p *messages.Pickle, sc *messages.Scenario, c result.Case) error) error {
	var all []scenario
	var err error
	if e, ok := fsys.(embed.FS); ok && e == features.FS {
		all, err = embeddedScenarios()
	} else {
		all, err = readScenarios(fsys)
	}
	if err != nil {
		return err
	}
	for _, s := range all {
		c := s.c // the slices are the cache's: a caller may keep and change its own
		c.Clauses, c.Formats = slices.Clone(c.Clauses), slices.Clone(c.Formats)
		if err := fn(s.pickle, s.source, c); err != nil {
			return err
		}
	}
	return nil
}

// readScenarios parses the feature files of fsys.
func readScenarios(fsys fs.FS) ([]scenario, error) {
	suite := godog.TestSuite{Options: &godog.Options{FS: fsys, Paths: []string{"."}}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, fmt.Errorf("reading features: %w", err)
	}
	var out []scenario
	for _, f := range feats {
		for _, p := range f.Pickles {
			c, err := PickleCase(p, p.Uri)
			if err != nil {
				return nil, err
			}
			out = append(out, scenario{pickle: p, source: f.FindScenario(p.AstNodeIds[0]), c: c})
		}
	}
	return out, nil
}
