package properties

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/internal/testflags"
	"github.com/convspec/convspec/spec"
)

// declaring is a target that declares only some levels and formats.
type declaring struct {
	target.Target
	levels, formats []string
}

func (d declaring) Info() target.Info {
	i := d.Target.Info()
	i.Levels, i.Formats = d.levels, d.formats
	return i
}

// TestCoreOnlyStillCatchesCoverage: without diagnostics the state machine
// does not compare the prompt's exact text (SUM-1), but it still checks
// that the prompt covers every message evicted since the last summary,
// those the rate limit held back included (SUM-4).
func TestCoreOnlyStillCatchesCoverage(t *testing.T) {
	quietRapid(t)
	for _, name := range []string{"summary-covers-only-this-trim", "summary-counter-resets-on-failure"} {
		t.Run(name, func(t *testing.T) {
			tg, err := inprocess.New(mutantNamed(t, name).Engine)
			if err != nil {
				t.Fatal(err)
			}
			core := declaring{Target: tg, levels: []string{protocol.LevelCore}}
			p := lookup(t, "prop/summarize-state-machine")
			failed, out := runCaptured(p.ID, func(rt *rapid.T) { p.Check(rt, core) })
			switch {
			case !failed:
				t.Fatalf("a core-only run does not catch %s", name)
			case !reportsUnder(out, []string{"SUM-4", "SUM-7"}):
				t.Fatalf("caught, but not under SUM-4 or SUM-7:\n%s", clip(out))
			case !strings.Contains(failureMessage(out), "held back"):
				t.Errorf("the failure does not say the message was held back:\n%s", clip(failureMessage(out)))
			}
		})
	}
}

// withFormats is the recorder of runCaptured with the formats a property
// may generate in its context, as the runner sets them.
type withFormats struct {
	*recorder
	ctx context.Context
}

func (w withFormats) Context() context.Context { return w.ctx }

// anthropicSpy fails a request that carries an Anthropic message or run.
type anthropicSpy struct {
	target.Target
	seen *int
}

var anthropicShape = regexp.MustCompile(`"type":\s*"tool_(?:use|result)"|"provider":\s*"anthropic"`)

func (a anthropicSpy) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	b, _ := json.Marshal(params)
	if anthropicShape.Match(b) {
		*a.seen++
	}
	return a.Target.Call(ctx, method, params)
}

// TestGeneratorsKeepToDeclaredFormats: for an implementation that declares
// only openai, no generator produces an Anthropic message or run (D-42);
// without the declaration they do.
func TestGeneratorsKeepToDeclaredFormats(t *testing.T) {
	quietRapid(t)
	ref, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"prop/window-units-whole", "prop/history-classify", "prop/build-repairs", "prop/loop-requests-valid-and-bounded", "prop/summarize-state-machine"} {
		t.Run(id, func(t *testing.T) {
			p := lookup(t, id)
			for _, tc := range []struct {
				formats []string
				some    bool
			}{{[]string{protocol.FormatOpenAI}, false}, {nil, true}} {
				seen := 0
				spy := anthropicSpy{Target: ref, seen: &seen}
				rec := withFormats{recorder: &recorder{name: id}, ctx: gen.WithFormats(context.Background(), tc.formats)}
				func() {
					defer func() {
						if r := recover(); r != nil && r != errStop {
							t.Fatalf("panic: %v", r)
						}
					}()
					rapid.Check(rec, func(rt *rapid.T) { p.Check(rt, spy) })
				}()
				if rec.failed {
					t.Fatalf("formats %v: the property failed against the reference:\n%s", tc.formats, clip(rec.out.String()))
				}
				if (seen > 0) != tc.some {
					t.Errorf("formats %v: %d requests carried Anthropic messages", tc.formats, seen)
				}
			}
		})
	}
}

// validationSpy declares level core and format openai, and counts the
// requests it is sent that the reference refuses as malformed — refusing
// malformed input is level validation (D-42), never asked of an
// implementation that does not declare it — or that carry Anthropic's
// format.
type validationSpy struct {
	target.Target
	sent *[]string
}

func (v validationSpy) Info() target.Info {
	i := v.Target.Info()
	i.Levels = []string{protocol.LevelCore}
	i.Formats = []string{protocol.FormatOpenAI}
	return i
}

func (v validationSpy) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if !gen.SendsOnly([]string{protocol.FormatOpenAI}, params) {
		b, _ := json.Marshal(params)
		*v.sent = append(*v.sent, fmt.Sprintf("%s %s → Anthropic's format, not declared", method, clip(string(b))))
	}
	res, err := v.Target.Call(ctx, method, params)
	var pe *protocol.Error
	if errors.As(err, &pe) && protocol.IsValidationKind(pe.Kind()) {
		b, _ := json.Marshal(params)
		*v.sent = append(*v.sent, fmt.Sprintf("%s %s → %s", method, clip(string(b)), pe.Kind()))
	}
	return res, err
}

// TestCoreOnlyIsSentNoValidationWork: every property that applies to an
// implementation declaring only level core and format openai —
// differential ones included — sends it only valid requests in its format.
// Its edge examples and 10 random checks a property run in make test, as
// the package's other tests of the properties do (D-86); make test-full
// runs it with -rapid.checks 100 (D-91).
func TestCoreOnlyIsSentNoValidationWork(t *testing.T) {
	quietRapid(t)
	testflags.FewChecks(t, 10)
	ref, err := inprocess.New(server.Reference{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range every() {
		level := p.Level
		if c, ok := spec.Lookup(p.Clauses[0]); ok && level == "" {
			level = c.Level
		}
		if level != protocol.LevelCore {
			continue
		}
		t.Run(p.ID, func(t *testing.T) {
			var sent []string
			spy := validationSpy{Target: ref, sent: &sent}
			for _, ex := range p.Examples {
				rec := &recorder{name: p.ID + "/" + ex.Name}
				func() {
					defer func() {
						if r := recover(); r != nil && r != errStop {
							t.Fatalf("%s: panic: %v", ex.Name, r)
						}
					}()
					ex.Run(rec, spy)
				}()
				if rec.failed {
					t.Errorf("example %s fails against the core-only reference:\n%s", ex.Name, clip(rec.out.String()))
				}
			}
			if p.Check == nil {
				return
			}
			// The runner hands the declared formats to the generators
			// through the case's context, as here.
			rec := withFormats{recorder: &recorder{name: p.ID}, ctx: gen.WithFormats(context.Background(), spy.Info().Formats)}
			func() {
				defer func() {
					if r := recover(); r != nil && r != errStop {
						t.Fatalf("panic: %v", r)
					}
				}()
				rapid.Check(rec, func(rt *rapid.T) { p.Check(rt, spy) })
			}()
			if rec.failed {
				t.Errorf("the property fails against the core-only reference:\n%s", clip(rec.out.String()))
			}
			if len(sent) > 0 {
				t.Errorf("%d requests a core-only implementation must not be sent, e.g.\n  %s", len(sent), strings.Join(sent[:min(3, len(sent))], "\n  "))
			}
		})
	}
}
