package runner

import (
	"regexp"
	"slices"
	"strings"

	messages "github.com/cucumber/messages/go/v21"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/spec"
)

// Whether a case applies to an implementation: its capability, its level
// and its provider formats must all be declared (PROTO-1, D-42).

// levelOf is the level of a case: that of its first clause, the one that
// names it. The steps of a scenario that check a warning or an exact text
// are diagnostics wherever they appear; package steps skips them for an
// implementation that does not declare diagnostics.
func levelOf(clauses []string) string {
	if len(clauses) == 0 {
		return ""
	}
	c, ok := spec.Lookup(clauses[0])
	if !ok {
		return ""
	}
	return c.Level
}

// Provider-format markers of a scenario: a message's tool members (CLS-1)
// in a doc string or a table, or the format named in a step's text ("the
// Anthropic conversation", "an OpenAI run").
var (
	anthropicMarker = regexp.MustCompile(`"type"\s*:\s*"tool_(?:use|result)"|\bAnthropic\b`)
	openaiMarker    = regexp.MustCompile(`"tool_calls"\s*:|"tool_call_id"\s*:|"role"\s*:\s*"tool"|\bOpenAI\b`)
	// A literal that each alternative of the marker above contains.
	anthropicLiterals = []string{`"tool_`, "Anthropic"}
	openaiLiterals    = []string{`"tool_call`, `"tool"`, "OpenAI"}
)

// levelTags state a scenario's level outright, for a scenario that checks
// another level than its first clause's: refusing a malformed parameter of
// a core operation is validation (D-42).
var levelTags = map[string]string{"@core": spec.LevelCore, "@validation": spec.LevelValidation, "@diagnostics": spec.LevelDiagnostics}

// formatTags are the tags that state a scenario's formats outright.
var formatTags = map[string]string{"@openai": protocol.FormatOpenAI, "@anthropic": protocol.FormatAnthropic}

// pickleFormats lists the provider formats a scenario's messages use: the
// formats its tags name, or else those its steps' texts and arguments
// show. A scenario whose messages carry no tool member uses none and runs
// for every implementation.
func pickleFormats(p *messages.Pickle) []string {
	var out []string
	for _, t := range p.Tags {
		if f, ok := formatTags[t.Name]; ok && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if out != nil {
		return out
	}
	var text strings.Builder
	for _, st := range p.Steps {
		text.WriteString(st.Text + "\n")
		if a := st.Argument; a != nil {
			if a.DocString != nil {
				text.WriteString(a.DocString.Content + "\n")
			}
			if a.DataTable != nil {
				for _, r := range a.DataTable.Rows {
					for _, c := range r.Cells {
						text.WriteString(c.Value + "\n")
					}
				}
			}
		}
	}
	s := text.String()
	if containsAny(s, openaiLiterals) && openaiMarker.MatchString(s) {
		out = append(out, protocol.FormatOpenAI)
	}
	if containsAny(s, anthropicLiterals) && anthropicMarker.MatchString(s) {
		out = append(out, protocol.FormatAnthropic)
	}
	return out
}

// containsAny reports whether s contains one of subs. The markers'
// regexps run only on a text holding one of their literals: every listing
// of the suite (each conform run) reads every scenario, most of which name
// no format, and the regexps' backtracking over them was a tenth of a
// one-case run's CPU.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// notApplicable is NotApplicable, under the name the runner's files use.
var notApplicable = NotApplicable

// NotApplicable says why a case does not apply to the implementation, or
// "" when it does: the one filter of capabilities, levels and formats that
// conform and conform replay share (D-42).
func NotApplicable(info target.Info, c result.Case) string {
	switch {
	case c.Capability != "" && !info.Has(c.Capability):
		return "capability " + c.Capability + " not declared"
	case c.Level != "" && !info.HasLevel(c.Level):
		return "level " + c.Level + " not declared"
	}
	for _, f := range c.Formats {
		if !info.HasFormat(f) {
			return "format " + f + " not declared"
		}
	}
	return ""
}

// CheckerCapability is the capability of the provider acceptance clauses
// (SPEC §8e): they belong to conform check, not to any implementation.
const CheckerCapability = "check"

// AboutTheChecker says whether a case checks conform check rather than an
// implementation: its first clause is of capability check. Such scenarios
// read recorded requests and talk to no implementation (D-56), so a run
// against an implementation leaves them out — counted there they would be
// passes that say nothing of it; `go test ./internal/check` runs them, and
// conform list and the trace show them.
func AboutTheChecker(c result.Case) bool {
	if len(c.Clauses) == 0 {
		return false
	}
	cl, ok := spec.Lookup(c.Clauses[0])
	return ok && cl.Capability == CheckerCapability
}

// RunCases are the cases a run against an implementation may hold: Cases
// without those about the checker.
func RunCases(opts Options) ([]result.Case, error) {
	all, err := Cases(opts)
	if err != nil {
		return nil, err
	}
	out := all[:0:0]
	for _, c := range all {
		if !AboutTheChecker(c) {
			out = append(out, c)
		}
	}
	return out, nil
}
