package golden

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/features"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/runner"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/steps"
)

// Generate runs every scenario against the reference, each on a fresh
// in-process server (so that every case stands alone and its window
// handles start again at the first), and records its exchanges. It fails
// when a scenario fails against the reference. fsys nil means the
// embedded features.
func Generate(fsys fs.FS) ([]Case, error) {
	return GenerateWith(fsys, server.Reference{})
}

// GenerateWith is Generate against another engine (tests use it to show
// that a faulty variant records different vectors).
func GenerateWith(fsys fs.FS, engine server.Engine) ([]Case, error) {
	if fsys == nil {
		fsys = features.FS
	}
	suite := godog.TestSuite{Options: &godog.Options{FS: fsys, Paths: []string{"."}}}
	feats, err := suite.RetrieveFeatures()
	if err != nil {
		return nil, fmt.Errorf("reading features: %w", err)
	}
	titles := map[string]string{}
	for _, f := range feats {
		titles[f.Uri] = strings.TrimSpace(f.GherkinDocument.Feature.Name)
	}
	var cases []Case

	var errs []error
	run := godog.TestSuite{
		Name: "convspec-golden",
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			// godog calls this once per scenario: a fresh server and recorder.
			rec := &recorder{}
			steps.Register(sc, rec)
			var current Case
			sc.Before(func(ctx context.Context, p *godog.Scenario) (context.Context, error) {
				c, err := runner.PickleCase(p, p.Uri)
				if err != nil {
					errs = append(errs, err)
					return ctx, godog.ErrSkip
				}
				if runner.AboutTheChecker(c) {
					// conform check's scenarios send no request: a golden
					// case of them would be an empty exchange that every
					// implementation passes (D-56).
					return ctx, godog.ErrSkip
				}
				tg, err := inprocess.New(engine)
				if err != nil {
					errs = append(errs, err)
					return ctx, godog.ErrSkip
				}
				if c.Capability != "" && !tg.Info().Has(c.Capability) {
					// A case whose capability the engine does not declare
					// records no vector: there is nothing of it to replay.
					_ = tg.Close()
					return ctx, godog.ErrSkip
				}
				rec.tg = tg
				current = Case{Format: FormatVersion, ID: c.ID, Name: c.Name, Feature: c.Source, Title: titles[c.Source],
					Clauses: c.Clauses, Capability: c.Capability, Level: c.Level, Formats: c.Formats}
				return ctx, nil
			})
			sc.After(func(ctx context.Context, p *godog.Scenario, err error) (context.Context, error) {
				switch {
				case current.ID == "":
				case err != nil:
					errs = append(errs, fmt.Errorf("%s fails against %s: %v", current.ID, engine.Name(), err))
				case rec.err != nil:
					errs = append(errs, fmt.Errorf("%s: %v", current.ID, rec.err))
				default:
					current.Steps = rec.steps
					if current.Steps == nil {
						current.Steps = []Step{}
					}
					cases = append(cases, current)
				}
				return ctx, nil
			})
		},
		Options: &godog.Options{
			Format:      "progress",
			Output:      io.Discard,
			FS:          fsys,
			Paths:       []string{"."},
			Strict:      true,
			Concurrency: 1,
			NoColors:    true,
		},
	}
	run.Run()
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return cases, nil
}

// recorder is a target.Target (and LineSender) that records every
// exchange with the in-process server it wraps.
type recorder struct {
	tg    *inprocess.Target
	steps []Step
	err   error
}

func (r *recorder) Info() target.Info { return r.tg.Info() }
func (r *recorder) Close() error      { return r.tg.Close() }

func (r *recorder) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding params of %s: %w", method, err)
	}
	res, err := r.tg.Call(ctx, method, json.RawMessage(p))
	step := Step{Method: method, Params: p}
	var pe *protocol.Error
	switch {
	case err == nil:
		step.Result = res
	case errors.As(err, &pe):
		step.Error = pe
	default:
		r.err = fmt.Errorf("%s: %w", method, err)
		return res, err
	}
	r.steps = append(r.steps, step)
	return res, err
}

func (r *recorder) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	resp, err := r.tg.SendLine(ctx, line)
	if err != nil {
		r.err = fmt.Errorf("(raw line): %w", err)
		return resp, err
	}
	l := string(line)
	step := Step{Line: &l}
	if resp != nil {
		var rr protocol.Response
		if err := json.Unmarshal(resp, &rr); err != nil {
			r.err = fmt.Errorf("(raw line): the reference answered %q: %w", resp, err)
			return resp, err
		}
		step.ID, step.Result, step.Error = rr.ID, rr.Result, rr.Error
	}
	r.steps = append(r.steps, step)
	return resp, nil
}
