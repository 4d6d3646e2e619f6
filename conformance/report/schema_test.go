package report_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/report"
	"github.com/convspec/convspec/spec/schema"
)

// TestJSONReportMatchesSchema: every shape of run the JSON report can take
// validates against the published schema, spec/schema/report.schema.json.
func TestJSONReportMatchesSchema(t *testing.T) {
	for name, run := range sampleRuns() {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.JSON(&buf, run); err != nil {
				t.Fatal(err)
			}
			errs, err := schema.Validate(schema.Report, buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			for _, err := range errs {
				t.Error(err)
			}
		})
	}
}

// TestBaselineMatchesSchema: what `conform baseline` writes validates
// against spec/schema/baseline.schema.json.
func TestBaselineMatchesSchema(t *testing.T) {
	run := sampleRuns()["failures"]
	b := report.NewBaseline("my-trimmer", resultsOf(run.Cases), &report.Baseline{Entries: []report.Entry{{ID: "WIN-2/b", Reason: "known", Issue: "https://example.com/1"}}}, false)
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	errs, err := schema.Validate(schema.Baseline, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range errs {
		t.Error(err)
	}
}

// TestSchemaCatchesMistakes: the published schema is not vacuous: each
// mistake in an otherwise valid report is a violation.
func TestSchemaCatchesMistakes(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, report.JSON(&buf, sampleRuns()["failures"]))
	for name, mutate := range map[string]func(m map[string]any){
		"missing counts":  func(m map[string]any) { delete(m, "counts") },
		"unknown member":  func(m map[string]any) { m["extra"] = true },
		"bad status":      func(m map[string]any) { m["status"] = "maybe" },
		"seed a string":   func(m map[string]any) { m["seed"] = "12" },
		"strict a string": func(m map[string]any) { m["strict"] = "yes" },
		"case no outcome": func(m map[string]any) { delete(m["cases"].([]any)[0].(map[string]any), "outcome") },
		"bad outcome":     func(m map[string]any) { m["cases"].([]any)[1].(map[string]any)["outcome"] = "exploded" },
		"negative count":  func(m map[string]any) { m["counts"].(map[string]any)["crash"] = json.Number("-1") },
	} {
		t.Run(name, func(t *testing.T) {
			var doc map[string]any
			dec := json.NewDecoder(bytes.NewReader(buf.Bytes()))
			dec.UseNumber()
			require.NoError(t, dec.Decode(&doc))
			mutate(doc)
			mutated, err := json.Marshal(doc)
			require.NoError(t, err)
			errs, err := schema.Validate(schema.Report, mutated)
			require.NoError(t, err)
			assert.NotEmpty(t, errs, "the schema accepted it")
		})
	}
}
