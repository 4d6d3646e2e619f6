package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Decoding a result, with the members the protocol requires.

// required lists, per result type, the members an implementation must send;
// a missing one is a protocol error, not a zero value.
var required = map[string][]string{
	"InitializeResult":      {"protocol", "implementation", "capabilities"},
	"WindowCreateResult":    {"window", "config", "warnings"},
	"WindowTrimResult":      {"trimmed", "evicted", "metrics", "warnings"},
	"WindowEstimateResult":  {"tokens"},
	"HistoryClassifyResult": {"classes", "units"},
	"TokensEncodeResult":    {"tokens", "count"},
	"BudgetCountResult":     {"tokens", "per_message"},
	"BudgetCheckResult":     {"tokens", "limit", "approaching", "at_limit"},
	"BudgetPruneResult":     {"messages", "removed"},
	"BudgetCompressResult":  {"messages", "summarizer_calls"},
	"BudgetPrepareResult":   {"messages", "events", "summarizer_calls"},
	"HistoryPruneResult":    {"messages", "removed"},
	"HistoryBuildResult":    {"messages", "warnings"},
	"ConfigResolveResult":   {"config", "max_messages_from", "warnings"},
	"LoopRunResult":         {"config", "requests", "iterations", "summarizer_calls"},
	"LoopRequest":           {"iteration", "messages"},
	"LoopIterationResult":   {"state", "metrics", "events"},
	"ConversationMetrics":   {"messageCount", "estimatedTokens"},
	"WindowConfig":          {"max_messages", "summarize_on_trim", "preserve_first_n", "preserve_last_n"},
	"Metrics":               {"totalMessages", "preservedMessages", "evictedMessages", "estimatedTokens"},
}

// ErrSchema is wrapped by DecodeResult when a result breaks the protocol's
// shapes: the implementation answered, but not in protocol v1.
var ErrSchema = errors.New("result does not match protocol v1")

// DecodeResult decodes a result into v (a pointer to one of this package's
// result types), checking that every required member is present, nested
// objects included, and that every member has the JSON type the protocol
// gives it. A missing or mistyped member is a *MemberError naming it and
// the rule (a deviation of the implementation, which the harness reports
// as a failure); ErrSchema is left for what the checks cannot name.
func DecodeResult(raw json.RawMessage, v any) error {
	name := strings.TrimPrefix(fmt.Sprintf("%T", v), "*protocol.")
	if err := checkRequired(raw, name, "result"); err != nil {
		return err
	}
	if err := checkMembers(raw, reflect.TypeOf(v).Elem(), "result"); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(v); err != nil {
		// 3.0 and 3e0 are the integer 3 (checkMembers let them through),
		// which encoding/json cannot put in an int: decode them as 3.
		if plain, ok := integralNumbers(raw); ok && json.Unmarshal(plain, v) == nil {
			return nil
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return nil
}

func checkRequired(raw json.RawMessage, typeName, path string) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil || members == nil {
		return &MemberError{Path: path, Rule: "an object", Got: abbreviate(raw)}
	}
	for _, m := range required[typeName] {
		v, ok := members[m]
		if !ok || string(v) == "null" {
			return &MemberError{Path: join(path, m), Rule: "a member the protocol requires", Got: "nothing"}
		}
	}
	nested := map[string]string{"config": "WindowConfig", "metrics": "Metrics"}
	if typeName == "LoopIterationResult" {
		nested["metrics"] = "ConversationMetrics"
	}
	for member, t := range nested {
		if v, ok := members[member]; ok && contains(required[typeName], member) {
			if err := checkRequired(v, t, join(path, member)); err != nil {
				return err
			}
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// abbreviate shortens raw JSON for an error message.
func abbreviate(raw []byte) string {
	const limit = 200
	s := string(raw)
	if len(s) > limit {
		return s[:limit] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	if s == "" {
		return "nothing"
	}
	return s
}
