package runner_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/internal/runner"
)

// TestScenarioFormats: a scenario's formats are those its messages show
// (tool members in a document, a format named in a step), none for plain
// messages, and a case's level is its first clause's.
func TestScenarioFormats(t *testing.T) {
	cases, err := runner.Cases(runner.Options{})
	require.NoError(t, err)
	byID := map[string]result.Case{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	for id, want := range map[string][]string{
		"CLS-1/openai-classes-and-units":                                      {"openai"},
		"CLS-1/anthropic-classes-and-units":                                   {"anthropic"},
		"CLS-1/an-assistant-message-may-carry-calls-of-both-formats":          {"openai", "anthropic"},
		"SUM-6/anthropic-tool-results-and-blank-text-are-not-meaningful-text": {"anthropic"},
		"LOOP-1/requests-are-numbered-by-iteration-from-0-on-the-wire-d-43":   {"openai"},
		"WIN-1/under-the-cap-nothing-changes":                                 nil,
	} {
		c, ok := byID[id]
		if !assert.True(t, ok, "no case %s", id) {
			continue
		}
		if want == nil {
			assert.Empty(t, c.Formats, "%s: formats", id) // nil or empty alike
		} else {
			assert.Equal(t, want, c.Formats, "%s: formats", id)
		}
	}
	for id, want := range map[string]string{
		"WIN-1/under-the-cap-nothing-changes":     "core",
		"prop/window-warning":                     "diagnostics",
		"prop/summarize-state-machine":            "core",
		"prop/summarize-prompt":                   "diagnostics",
		"prop/window-refuses-broken-tools":        "validation",
		"BUILD-3/max-messages-minus-1-is-refused": "validation",
	} {
		assert.Equal(t, want, byID[id].Level, "%s: level", id)
	}
}
