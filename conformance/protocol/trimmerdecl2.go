package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
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

// memberClaims are the guarantees the second declaration's members claim.
var memberClaims = map[string]string{
	GuaranteeHead:     `"head"`,
	GuaranteeStart:    `"start"`,
	GuaranteeCounter:  `"counter": "native"`,
	GuaranteeFallback: `"fallback"`,
}

// InDomain reports whether a limit is in the trimmer's declared domain.
func (d TrimmerDecl) InDomain(limit int) bool { return limit >= d.LimitMin }

// checkVersion2 refuses a second declaration that contradicts itself, and
// its members in a declaration of another version, naming the member.
func (d TrimmerDecl) checkVersion2(at string) error {
	members := []struct {
		name string
		set  bool
	}{
		{"system", d.System != ""}, {"head", d.Head != 0}, {"markers", d.Markers != nil}, {"slack", d.Slack != ""},
		{"results", d.Results != ""}, {"limit_min", d.LimitMin != 0}, {"start", d.Start != ""}, {"count", d.Count != nil},
		{"refuses", d.Refuses != ""}, {"fallback", d.Fallback != ""},
	}
	if d.Version != 0 && d.Version != 1 && d.Version != 2 {
		return fmt.Errorf("%s.version must be 1 or 2, got %d", at, d.Version)
	}
	if d.Version != 2 {
		for _, m := range members {
			if m.set {
				return fmt.Errorf("%s.%s needs \"version\": 2", at, m.name)
			}
		}
		return nil
	}
	switch {
	case d.System != "" && !slices.Contains([]string{SystemLeading, SystemFirst, SystemFirstAnywhere, SystemAll}, d.System):
		return fmt.Errorf("%s.system must be %q, %q, %q or %q, got %q", at, SystemLeading, SystemFirst, SystemFirstAnywhere, SystemAll, d.System)
	case d.System != "" && !d.Claims(GuaranteeSystem):
		return fmt.Errorf("%s.system says which system messages are kept, but the trimmer does not claim %q", at, GuaranteeSystem)
	case d.Head < 0:
		return fmt.Errorf("%s.head must be a count of messages, got %d", at, d.Head)
	case d.Markers != nil && d.Markers.Prefix == "":
		return fmt.Errorf("%s.markers.prefix is missing: a marker is recognized by the text it starts with", at)
	case d.Markers != nil && d.Markers.Role != "" && !slices.Contains([]string{"system", "user", "assistant"}, d.Markers.Role):
		return fmt.Errorf("%s.markers.role must be \"system\", \"user\" or \"assistant\", got %q", at, d.Markers.Role)
	case d.Slack != "" && d.Slack != SlackUnit:
		return fmt.Errorf("%s.slack must be %q, got %q", at, SlackUnit, d.Slack)
	case d.Slack != "" && !d.Claims(GuaranteeBound):
		return fmt.Errorf("%s.slack qualifies the bound, but the trimmer does not claim %q", at, GuaranteeBound)
	case d.Results != "" && d.Results != ResultsOne:
		return fmt.Errorf("%s.results must be %q, got %q", at, ResultsOne, d.Results)
	case d.Results != "" && d.Bound != BoundMessages:
		return fmt.Errorf("%s.results counts messages, but the bound is %q", at, d.Bound)
	case d.LimitMin < 0:
		return fmt.Errorf("%s.limit_min must be a count, got %d", at, d.LimitMin)
	case d.Refuses != "" && d.Refuses != RefusesNothingFits:
		return fmt.Errorf("%s.refuses must be %q, got %q", at, RefusesNothingFits, d.Refuses)
	case d.Start != "" && d.Start != StartUser:
		return fmt.Errorf("%s.start must be %q, got %q", at, StartUser, d.Start)
	case d.Count != nil && d.Bound != BoundTokens:
		return fmt.Errorf("%s.count says how tokens are counted, but the bound is %q", at, d.Bound)
	case d.Count != nil && d.Count.Over != "" && d.Count.Over != CountOverMessage && d.Count.Over != CountOverJoined:
		return fmt.Errorf("%s.count.over must be %q or %q, got %q", at, CountOverMessage, CountOverJoined, d.Count.Over)
	case d.Count != nil && d.Count.Separator != nil && d.Count.Over != CountOverJoined:
		return fmt.Errorf("%s.count.separator joins texts, but count.over is not %q", at, CountOverJoined)
	case d.Count != nil && d.Counter == CounterNative && (d.Count.Separator != nil || d.Count.ToolPayloads != nil):
		return fmt.Errorf("%s.count: a native counter counts what the library counts; only count.over may be declared", at)
	}
	return d.checkFallback(at)
}

// checkFallback refuses a fallback that another member or claim
// contradicts (ANY-14, D-76): the lone last message may split its unit,
// a floor with the latest prompt or the last unit already says what is
// answered when nothing fits, and so does a declared refusal.
func (d TrimmerDecl) checkFallback(at string) error {
	if d.Fallback == "" {
		return nil
	}
	if d.Fallback != FallbackLastMessage {
		return fmt.Errorf("%s.fallback must be %q, got %q", at, FallbackLastMessage, d.Fallback)
	}
	for _, g := range []string{GuaranteeUnits, GuaranteeLastPrompt, GuaranteeLastUnit} {
		if slices.Contains(d.Guarantees, g) {
			return fmt.Errorf("%s.fallback keeps the last message alone when nothing fits, which contradicts the claim %q", at, g)
		}
	}
	if d.Refuses != "" {
		return fmt.Errorf("%s.fallback answers the last message when nothing fits, but refuses says the trimmer refuses then", at)
	}
	return nil
}

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
