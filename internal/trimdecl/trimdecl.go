// Package trimdecl checks the trimmer declarations of a handshake
// (ANY-10, D-35, D-60): what the harness refuses at the handshake and the
// Go kit refuses at start. The declaration is a wire type
// (protocol.TrimmerDecl); refusing a contradictory one is the harness's,
// so it is not in the public protocol package.
package trimdecl

import (
	"fmt"
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
)

// CheckTrimmers checks the trimmer declarations of a handshake (ANY-10):
// with capability trimmer they must be present and valid; without it they
// are ignored (a protocol-1 handshake has none).
func CheckTrimmers(capabilities []string, decls []protocol.TrimmerDecl) error {
	if !slices.Contains(capabilities, protocol.CapTrimmer) {
		return nil
	}
	if len(decls) == 0 {
		return fmt.Errorf("capability %q needs a non-empty \"trimmers\" list", protocol.CapTrimmer)
	}
	seen := map[string]bool{}
	for i, d := range decls {
		at := fmt.Sprintf("trimmers[%d]", i)
		switch {
		case d.Name == "":
			return fmt.Errorf("%s.name is missing", at)
		case seen[d.Name]:
			return fmt.Errorf("%s.name %q is declared twice", at, d.Name)
		case d.Bound != protocol.BoundMessages && d.Bound != protocol.BoundTokens:
			return fmt.Errorf("%s.bound must be %q or %q, got %q", at, protocol.BoundMessages, protocol.BoundTokens, d.Bound)
		case d.Bound == protocol.BoundTokens && d.Counter == protocol.CounterNative && d.Version != 2:
			return fmt.Errorf("%s.counter %q needs \"version\": 2", at, protocol.CounterNative)
		case d.Bound == protocol.BoundTokens && d.Counter != protocol.CounterCl100k && d.Counter != protocol.CounterChars4 && d.Counter != protocol.CounterNative:
			return fmt.Errorf("%s.counter must be %q, %q or %q for a token bound, got %q", at, protocol.CounterCl100k, protocol.CounterChars4, protocol.CounterNative, d.Counter)
		case d.Bound == protocol.BoundMessages && d.Counter != "":
			return fmt.Errorf("%s.counter must be absent for a message bound, got %q", at, d.Counter)
		}
		seen[d.Name] = true
		for _, f := range d.Formats {
			if f != protocol.FormatOpenAI && f != protocol.FormatAnthropic {
				return fmt.Errorf("%s.formats: unknown format %q", at, f)
			}
		}
		for _, g := range d.Guarantees {
			if claimedBy, ok := memberClaims[g]; ok {
				return fmt.Errorf("%s.guarantees: %q is not listed; it is claimed by the member %s (version 2)", at, g, claimedBy)
			}
			if !slices.Contains(listedGuarantees(), g) {
				return fmt.Errorf("%s.guarantees: unknown guarantee %q", at, g)
			}
		}
		if err := checkVersion2(d, at); err != nil {
			return err
		}
	}
	return nil
}

// listedGuarantees are the guarantees a declaration lists; the others are
// claimed by its members (D-60).
func listedGuarantees() []string { return protocol.Guarantees()[:9] }

// memberClaims are the guarantees the second declaration's members claim.
var memberClaims = map[string]string{
	protocol.GuaranteeHead:     `"head"`,
	protocol.GuaranteeStart:    `"start"`,
	protocol.GuaranteeCounter:  `"counter": "native"`,
	protocol.GuaranteeFallback: `"fallback"`,
}

// checkVersion2 refuses a second declaration that contradicts itself, and
// its members in a declaration of another version, naming the member.
func checkVersion2(d protocol.TrimmerDecl, at string) error {
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
	case d.System != "" && !slices.Contains([]string{protocol.SystemLeading, protocol.SystemFirst, protocol.SystemFirstAnywhere, protocol.SystemAll}, d.System):
		return fmt.Errorf("%s.system must be %q, %q, %q or %q, got %q", at, protocol.SystemLeading, protocol.SystemFirst, protocol.SystemFirstAnywhere, protocol.SystemAll, d.System)
	case d.System != "" && !d.Claims(protocol.GuaranteeSystem):
		return fmt.Errorf("%s.system says which system messages are kept, but the trimmer does not claim %q", at, protocol.GuaranteeSystem)
	case d.Head < 0:
		return fmt.Errorf("%s.head must be a count of messages, got %d", at, d.Head)
	case d.Markers != nil && d.Markers.Prefix == "":
		return fmt.Errorf("%s.markers.prefix is missing: a marker is recognized by the text it starts with", at)
	case d.Markers != nil && d.Markers.Role != "" && !slices.Contains([]string{"system", "user", "assistant"}, d.Markers.Role):
		return fmt.Errorf("%s.markers.role must be \"system\", \"user\" or \"assistant\", got %q", at, d.Markers.Role)
	case d.Slack != "" && d.Slack != protocol.SlackUnit:
		return fmt.Errorf("%s.slack must be %q, got %q", at, protocol.SlackUnit, d.Slack)
	case d.Slack != "" && !d.Claims(protocol.GuaranteeBound):
		return fmt.Errorf("%s.slack qualifies the bound, but the trimmer does not claim %q", at, protocol.GuaranteeBound)
	case d.Results != "" && d.Results != protocol.ResultsOne:
		return fmt.Errorf("%s.results must be %q, got %q", at, protocol.ResultsOne, d.Results)
	case d.Results != "" && d.Bound != protocol.BoundMessages:
		return fmt.Errorf("%s.results counts messages, but the bound is %q", at, d.Bound)
	case d.LimitMin < 0:
		return fmt.Errorf("%s.limit_min must be a count, got %d", at, d.LimitMin)
	case d.Refuses != "" && d.Refuses != protocol.RefusesNothingFits:
		return fmt.Errorf("%s.refuses must be %q, got %q", at, protocol.RefusesNothingFits, d.Refuses)
	case d.Start != "" && d.Start != protocol.StartUser:
		return fmt.Errorf("%s.start must be %q, got %q", at, protocol.StartUser, d.Start)
	case d.Count != nil && d.Bound != protocol.BoundTokens:
		return fmt.Errorf("%s.count says how tokens are counted, but the bound is %q", at, d.Bound)
	case d.Count != nil && d.Count.Over != "" && d.Count.Over != protocol.CountOverMessage && d.Count.Over != protocol.CountOverJoined:
		return fmt.Errorf("%s.count.over must be %q or %q, got %q", at, protocol.CountOverMessage, protocol.CountOverJoined, d.Count.Over)
	case d.Count != nil && d.Count.Separator != nil && d.Count.Over != protocol.CountOverJoined:
		return fmt.Errorf("%s.count.separator joins texts, but count.over is not %q", at, protocol.CountOverJoined)
	case d.Count != nil && d.Counter == protocol.CounterNative && (d.Count.Separator != nil || d.Count.ToolPayloads != nil):
		return fmt.Errorf("%s.count: a native counter counts what the library counts; only count.over may be declared", at)
	}
	return checkFallback(d, at)
}

// checkFallback refuses a fallback that another member or claim
// contradicts (ANY-14, D-76): the lone last message may split its unit,
// a floor with the latest prompt or the last unit already says what is
// answered when nothing fits, and so does a declared refusal.
func checkFallback(d protocol.TrimmerDecl, at string) error {
	if d.Fallback == "" {
		return nil
	}
	if d.Fallback != protocol.FallbackLastMessage {
		return fmt.Errorf("%s.fallback must be %q, got %q", at, protocol.FallbackLastMessage, d.Fallback)
	}
	for _, g := range []string{protocol.GuaranteeUnits, protocol.GuaranteeLastPrompt, protocol.GuaranteeLastUnit} {
		if slices.Contains(d.Guarantees, g) {
			return fmt.Errorf("%s.fallback keeps the last message alone when nothing fits, which contradicts the claim %q", at, g)
		}
	}
	if d.Refuses != "" {
		return fmt.Errorf("%s.fallback answers the last message when nothing fits, but refuses says the trimmer refuses then", at)
	}
	return nil
}
