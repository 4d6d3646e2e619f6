package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The second trimmer declaration (SPEC §8d, ANY-10 – ANY-13, D-60): what
// real libraries promise beyond D-35's nine guarantees. Every member is
// optional and needs "version": 2; a declaration without them means what
// it meant under D-35.

// Which system messages a trimmer claiming system keeps (ANY-3).
const (
	SystemLeading       = "leading"        // every leading system message (D-35's meaning)
	SystemFirst         = "first"          // in[0], when it is a system message
	SystemFirstAnywhere = "first_anywhere" // the first system message, wherever it stands
	SystemAll           = "all"            // every system message, wherever it stands
)

// Slack of a bound (ANY-6).
const SlackUnit = "unit" // the output may overshoot by its oldest kept unit outside the floor

// Results counting of a message bound (ANY-6).
const ResultsOne = "one" // the results that follow one call count as one message

// Refusals a trimmer may declare (ANY-9).
const RefusesNothingFits = "nothing_fits" // an error answer when no message beyond the kept ones fits

// Fallbacks a trimmer may declare (ANY-14, D-76).
const FallbackLastMessage = "last_message" // when nothing beyond the kept messages fits, they and the last message

// Start rules (ANY-12).
const StartUser = "user" // after the kept system messages and head, the output starts on a user prompt

// What a token count is taken over (ANY-6).
const (
	CountOverMessage = "message" // per message, summed; a native counter so declared is additive
	CountOverJoined  = "joined"  // over the texts joined with a separator
)

// MarkerDecl recognizes an inserted marker message: its role (any when
// empty) and the text its content starts with.
type MarkerDecl struct {
	Role   string `json:"role,omitempty"`
	Prefix string `json:"prefix"`
}

// CountDecl says how a token bound counts a list of messages.
type CountDecl struct {
	// Over is "message" (the default) or "joined".
	Over string `json:"over,omitempty"`
	// Separator joins the texts when Over is "joined".
	Separator *string `json:"separator,omitempty"`
	// ToolPayloads says whether tool calls' payloads count (default true).
	ToolPayloads *bool `json:"tool_payloads,omitempty"`
}

// CountsToolPayloads reports whether tool calls' payloads count.
func (c *CountDecl) CountsToolPayloads() bool {
	return c == nil || c.ToolPayloads == nil || *c.ToolPayloads
}

// Joined reports whether the count is taken over the joined texts, and
// the separator.
func (c *CountDecl) Joined() (bool, string) {
	if c == nil || c.Over != CountOverJoined {
		return false, ""
	}
	if c.Separator == nil {
		return true, ""
	}
	return true, *c.Separator
}

// InDomain reports whether a limit is in the trimmer's declared domain.
func (d TrimmerDecl) InDomain(limit int) bool { return limit >= d.LimitMin }

// DecodeTrimmerCount reads a trimmer.count result: an object whose member
// "count" is an integer (ANY-13), as the result schema describes it.
func DecodeTrimmerCount(raw json.RawMessage) (int, error) {
	var r struct {
		Count *json.Number `json:"count"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return 0, fmt.Errorf("%s returned %s, not an object {\"count\": n}: %w", MethodTrimmerCount, raw, err)
	}
	if r.Count == nil {
		return 0, fmt.Errorf("%s returned %s: result.count is missing", MethodTrimmerCount, raw)
	}
	n, err := r.Count.Int64()
	if err != nil {
		f, ferr := r.Count.Float64()
		if ferr != nil || f != float64(int64(f)) {
			return 0, fmt.Errorf("%s returned count %s, not an integer", MethodTrimmerCount, r.Count)
		}
		n = int64(f)
	}
	return int(n), nil
}
