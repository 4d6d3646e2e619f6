package runner

import (
	"testing"

	messages "github.com/cucumber/messages/go/v21"
	"github.com/stretchr/testify/assert"
)

// TestPickleFormatsEveryMarker: each alternative of each format marker,
// alone in a doc string, a table cell or a step's text, gives its format;
// so the literals that decide whether a marker's regexp runs at all
// cannot leave one out. TestScenarioFormats checks the suite's own
// scenarios, which do not use every alternative alone.
func TestPickleFormatsEveryMarker(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{`{"role": "assistant", "tool_calls" : []}`, []string{"openai"}},
		{`{"tool_call_id":"c1"}`, []string{"openai"}},
		{`{"role"  :  "tool", "content": "x"}`, []string{"openai"}},
		{`an OpenAI run`, []string{"openai"}},
		{`{"type": "tool_use", "id": "t1"}`, []string{"anthropic"}},
		{`{"type":"tool_result"}`, []string{"anthropic"}},
		{`the Anthropic conversation`, []string{"anthropic"}},
		{`{"role": "tool"} in an Anthropic run`, []string{"openai", "anthropic"}},
		{`{"role": "user", "content": "a tool_use and OpenAIs"}`, nil},
		{`{"role": "toolbox"}`, nil},
	} {
		for _, where := range []string{"text", "doc string", "table"} {
			step := &messages.PickleStep{Text: "a step"}
			switch where {
			case "text":
				step.Text = c.text
			case "doc string":
				step.Argument = &messages.PickleStepArgument{DocString: &messages.PickleDocString{Content: c.text}}
			case "table":
				step.Argument = &messages.PickleStepArgument{DataTable: &messages.PickleTable{
					Rows: []*messages.PickleTableRow{{Cells: []*messages.PickleTableCell{{Value: "x"}, {Value: c.text}}}}}}
			}
			got := pickleFormats(&messages.Pickle{Steps: []*messages.PickleStep{step}})
			assert.Equal(t, c.want, got, "%s in the %s", c.text, where)
		}
	}
	// A format tag states the formats outright, whatever the text shows.
	tagged := &messages.Pickle{Tags: []*messages.PickleTag{{Name: "@anthropic"}},
		Steps: []*messages.PickleStep{{Text: `{"tool_call_id": "c1"}`}}}
	assert.Equal(t, []string{"anthropic"}, pickleFormats(tagged))
}
