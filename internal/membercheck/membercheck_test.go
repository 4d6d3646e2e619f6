package membercheck

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/conformance/protocol"
)

// TestMemberErrors: a well-formed result with a member of the wrong JSON
// type or value is a MemberError that names the member and the rule in
// the protocol's words, never Go's types.
func TestMemberErrors(t *testing.T) {
	create := `{"window":"w1","config":{"max_messages":%s,"summarize_on_trim":false,"preserve_first_n":1,"preserve_last_n":20},"warnings":[]}`
	for _, tc := range []struct {
		name, raw, want string
		into            any
	}{
		{"fraction", strings.Replace(create, "%s", "2.5", 1), "config.max_messages: want a non-negative integer, got 2.5", &protocol.WindowCreateResult{}},
		{"string", strings.Replace(create, "%s", `"100"`, 1), `config.max_messages: want a non-negative integer, got "100"`, &protocol.WindowCreateResult{}},
		{"boolean", strings.Replace(create, "%s", "true", 1), "config.max_messages: want a non-negative integer, got true", &protocol.WindowCreateResult{}},
		{"negative", strings.Replace(create, "%s", "-1", 1), "config.max_messages: want a non-negative integer, got -1", &protocol.WindowCreateResult{}},
		{"nested", `{"trimmed":[],"evicted":[],"metrics":{"totalMessages":0,"preservedMessages":0,"evictedMessages":0,"estimatedTokens":0},"warnings":[{"code":7,"message":"x"}]}`,
			"warnings[0].code: want a string, got 7", &protocol.WindowTrimResult{}},
		{"array", `{"tokens":"many"}`, `tokens: want a non-negative integer, got "many"`, &protocol.WindowEstimateResult{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMembers([]byte(tc.raw), tc.into)
			var me *MemberError
			require.ErrorAs(t, err, &me)
			assert.EqualError(t, err, tc.want)
			assert.NotContains(t, err.Error(), "Go ", "the message leaks Go types")
			assert.False(t, strings.Contains(err.Error(), "int") && !strings.Contains(err.Error(), "integer"), "the message leaks Go types: %s", err)
		})
	}
	assert.NoError(t, CheckMembers([]byte(strings.Replace(create, "%s", "3e0", 1)), &protocol.WindowCreateResult{}), "3e0 is the count 3")
}
