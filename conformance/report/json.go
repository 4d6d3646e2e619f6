package report

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/result"
)

// SchemaURL identifies the JSON report's schema, spec/schema/report.schema.json.
const SchemaURL = "https://raw.githubusercontent.com/convspec/convspec/main/spec/schema/report.schema.json"

// JSONVersion is the version of the JSON report format; it changes only
// when a member is removed or changes meaning.
const JSONVersion = 1

// The JSON report's shape; spec/schema/report.schema.json describes it and
// a test holds the two together.
type (
	jsonReport struct {
		Schema         string            `json:"$schema"`
		Version        int               `json:"version"`
		Suite          jsonSuite         `json:"suite"`
		Implementation *jsonImpl         `json:"implementation"`
		Target         jsonTarget        `json:"target"`
		Seed           uint64            `json:"seed"`
		Checks         int               `json:"checks"`
		Selection      jsonSelection     `json:"selection"`
		Strict         bool              `json:"strict"`
		Started        string            `json:"started"`
		DurationMS     float64           `json:"duration_ms"`
		Status         string            `json:"status"`
		ExitCode       int               `json:"exit_code"`
		Interrupted    bool              `json:"interrupted"`
		RestartLimit   bool              `json:"restart_limit_reached"`
		StartError     string            `json:"start_error,omitempty"`
		Baseline       *jsonBaselineInfo `json:"baseline"`
		Counts         jsonCounts        `json:"counts"`
		Levels         []jsonLevel       `json:"levels"`
		Causes         []jsonCause       `json:"causes"`
		Cases          []jsonCase        `json:"cases"`
	}
	jsonLevel struct {
		Capability    string `json:"capability"`
		Level         string `json:"level"`
		Verdict       string `json:"verdict"`
		Passed        int    `json:"passed"`
		Failing       int    `json:"failing"`
		NotApplicable int    `json:"not_applicable"`
		Other         int    `json:"other"`
	}
	jsonCause struct {
		Shape   string      `json:"shape"`
		Clauses []string    `json:"clauses"`
		Cases   []string    `json:"cases"`
		Example jsonExample `json:"example"`
	}
	jsonExample struct {
		Case   string `json:"case"`
		Clause string `json:"clause"`
		Step   string `json:"step,omitempty"`
		Detail string `json:"detail"`
	}
	jsonDeviation struct {
		Clause string `json:"clause"`
		Step   string `json:"step,omitempty"`
		Detail string `json:"detail"`
		// What was sent, what came back and what was wanted, as the
		// harness said them apart from Detail (D-72).
		Sent string `json:"sent,omitempty"`
		Got  string `json:"got,omitempty"`
		Want string `json:"want,omitempty"`
	}
	jsonSuite struct {
		Name     string `json:"name"`
		Protocol int    `json:"protocol"`
	}
	jsonImpl struct {
		Name         string   `json:"name"`
		Version      string   `json:"version"`
		Capabilities []string `json:"capabilities"`
		Levels       []string `json:"levels"`
		Formats      []string `json:"formats"`
		// Trimmers are its trimmer declarations (ANY-10), so that a
		// compatibility page shows what each library was held to (D-60).
		Trimmers []protocol.TrimmerDecl `json:"trimmers,omitempty"`
	}
	jsonTarget struct {
		Command []string `json:"command"`
		Mutant  string   `json:"mutant,omitempty"`
		Checked *Checked `json:"checked,omitempty"`
	}
	jsonSelection struct {
		Run  string `json:"run"`
		Skip string `json:"skip"`
	}
	jsonBaselineInfo struct {
		Path           string `json:"path"`
		Implementation string `json:"implementation"`
		Entries        int    `json:"entries"`
	}
	jsonCounts struct {
		Total           int `json:"total"`
		Passed          int `json:"passed"`
		Failed          int `json:"failed"`
		Timeout         int `json:"timeout"`
		Crash           int `json:"crash"`
		ProtocolError   int `json:"protocol_error"`
		Unsupported     int `json:"unsupported"`
		NotApplicable   int `json:"not_applicable"`
		ExpectedFailure int `json:"expected_failure"`
		Stale           int `json:"stale"`
		NotRun          int `json:"not_run"`
		Failing         int `json:"failing"`
	}
	jsonCase struct {
		ID         string          `json:"id"`
		Kind       string          `json:"kind"`
		Name       string          `json:"name"`
		Clauses    []jsonClause    `json:"clauses"`
		Capability string          `json:"capability"`
		Level      string          `json:"level,omitempty"`
		Formats    []string        `json:"formats,omitempty"`
		Deviations []jsonDeviation `json:"deviations,omitempty"`
		Source     string          `json:"source,omitempty"`
		Outcome    string          `json:"outcome"`
		Verdict    string          `json:"verdict"`
		NotRun     bool            `json:"not_run"`
		Detail     string          `json:"detail"`
		Seed       *uint64         `json:"seed,omitempty"`
		Reproduce  string          `json:"reproduce,omitempty"`
		Baseline   *jsonBaseline   `json:"baseline,omitempty"`
		DurationMS float64         `json:"duration_ms"`
	}
	jsonClause struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	jsonBaseline struct {
		Reason  string   `json:"reason"`
		Issue   string   `json:"issue,omitempty"`
		Flaky   bool     `json:"flaky,omitempty"`
		Outcome string   `json:"outcome,omitempty"`
		Causes  []string `json:"causes,omitempty"`
	}
)

// JSON writes the machine-readable report.
func JSON(w io.Writer, run *Run) error {
	c := run.Count()
	out := jsonReport{
		Schema:       SchemaURL,
		Version:      JSONVersion,
		Suite:        jsonSuite{Name: "convspec", Protocol: protocol.Version},
		Target:       jsonTarget{Command: run.Command, Mutant: run.Mutant, Checked: run.Checked},
		Seed:         run.Seed,
		Checks:       run.Checks,
		Selection:    jsonSelection{Run: run.RunPattern, Skip: run.SkipPattern},
		Strict:       run.Strict,
		Started:      run.Started.UTC().Format(time.RFC3339),
		DurationMS:   millis(run.Duration),
		Status:       run.Status(),
		ExitCode:     run.ExitCode(),
		Interrupted:  run.Interrupted,
		RestartLimit: run.RestartLimit,
		StartError:   run.StartError,
		Counts: jsonCounts{
			Total:           c.Total,
			Passed:          c.Outcomes[result.Passed],
			Failed:          c.Outcomes[result.Failed],
			Timeout:         c.Outcomes[result.Timeout],
			Crash:           c.Outcomes[result.Crash],
			ProtocolError:   c.Outcomes[result.ProtocolError],
			Unsupported:     c.Outcomes[result.Unsupported],
			NotApplicable:   c.Outcomes[result.NotApplicable],
			ExpectedFailure: c.Expected,
			Stale:           c.Stale,
			NotRun:          c.NotRun,
			Failing:         c.Failing,
		},
		Cases: []jsonCase{},
	}
	if info := run.Implementation; info != nil {
		// Levels and formats as they apply: what was declared, or all.
		out.Implementation = &jsonImpl{Name: info.Name, Version: info.Version, Capabilities: info.Capabilities, Trimmers: info.Trimmers,
			Levels: info.Levels, Formats: info.AllowedFormats()}
		if out.Implementation.Capabilities == nil {
			out.Implementation.Capabilities = []string{}
		}
		if out.Implementation.Levels == nil {
			out.Implementation.Levels = protocol.Levels()
		}
	}
	if run.Baseline != nil {
		out.Baseline = &jsonBaselineInfo{Path: run.Baseline.Path, Implementation: run.Baseline.Implementation, Entries: len(run.Baseline.Entries)}
	}
	out.Levels = []jsonLevel{}
	for _, v := range run.LevelVerdicts() {
		out.Levels = append(out.Levels, jsonLevel{Capability: v.Capability, Level: v.Level, Verdict: v.Verdict,
			Passed: v.Passed, Failing: v.Failing, NotApplicable: v.NotApplicable, Other: v.Other})
	}
	out.Causes = []jsonCause{}
	for _, c := range run.Causes() {
		out.Causes = append(out.Causes, jsonCause{Shape: c.Shape, Clauses: nonNil(c.Clauses), Cases: c.Cases,
			Example: jsonExample{Case: c.Example.Case, Clause: c.Example.Clause, Step: c.Example.Step, Detail: c.Example.Detail}})
	}
	for _, k := range run.Cases {
		jc := jsonCase{
			ID: k.ID, Kind: string(k.Kind), Name: k.Name, Clauses: []jsonClause{}, Capability: k.Capability, Source: k.Source,
			Outcome: string(k.Outcome), Verdict: string(k.Verdict()), NotRun: k.NotRun, Detail: k.Detail,
			Reproduce: k.Reproduce, DurationMS: millis(k.Duration), Level: k.Level, Formats: k.Formats,
		}
		for _, d := range k.Deviations {
			jc.Deviations = append(jc.Deviations, jsonDeviation{Clause: d.Clause, Step: d.Step, Detail: d.Detail, Sent: d.Sent, Got: d.Got, Want: d.Want})
		}
		for _, id := range k.Clauses {
			cl := jsonClause{ID: id}
			if t := ClauseTitle(id); t != id {
				cl.Title = t[len(id)+len(" — "):]
			}
			jc.Clauses = append(jc.Clauses, cl)
		}
		if k.Kind == result.Property && k.Seed != 0 {
			seed := k.Seed
			jc.Seed = &seed
		}
		if k.Baseline != nil {
			jc.Baseline = &jsonBaseline{Reason: k.Baseline.Reason, Issue: k.Baseline.Issue, Flaky: k.Baseline.Flaky,
				Outcome: string(k.Baseline.Outcome), Causes: k.Baseline.Causes}
		}
		out.Cases = append(out.Cases, jc)
	}
	return writeJSON(w, out)
}

// writeJSON writes v as indented JSON (two spaces, a final newline), with
// <, > and & as they are, and all of it or nothing: w sees one write.
func writeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Microsecond)) / 1000
}

// nonNil is ss, or an empty list for nil: the schema wants an array.
func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
