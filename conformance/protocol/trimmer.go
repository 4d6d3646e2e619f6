package protocol

import (
	"encoding/json"
	"slices"
	"strings"
)

// The shapes of the capability trimmer: any history trimmer, whatever its
// algorithm, checked only on the guarantees it declares (SPEC "Any
// trimmer", ANY-1..ANY-10; D-35).

// CapTrimmer is the capability of trimmer.trim.
const CapTrimmer = "trimmer"

// MethodTrimmerTrim trims messages to a limit with a declared trimmer.
const MethodTrimmerTrim = "trimmer.trim"

// Guarantees a trimmer may claim in its declaration (ANY-1..ANY-9).
const (
	GuaranteeSubsequence = "subsequence" // ANY-1
	GuaranteeUnits       = "units"       // ANY-2
	GuaranteeSystem      = "system"      // ANY-3
	GuaranteeLastPrompt  = "last_prompt" // ANY-4
	GuaranteeLastUnit    = "last_unit"   // ANY-5
	GuaranteeBound       = "bound"       // ANY-6
	GuaranteeFits        = "fits"        // ANY-7
	GuaranteeIdempotent  = "idempotent"  // ANY-8
	GuaranteeTotal       = "total"       // ANY-9
	// Claimed by members of the second declaration rather than listed
	// (D-60, D-76): a declared head, a start rule, a native counter, the
	// last message when nothing fits.
	GuaranteeHead     = "head"     // ANY-11
	GuaranteeStart    = "start"    // ANY-12
	GuaranteeCounter  = "counter"  // ANY-13
	GuaranteeFallback = "fallback" // ANY-14
)

// Guarantees lists every guarantee, in the order of the spec's clauses.
func Guarantees() []string {
	return []string{GuaranteeSubsequence, GuaranteeUnits, GuaranteeSystem, GuaranteeLastPrompt,
		GuaranteeLastUnit, GuaranteeBound, GuaranteeFits, GuaranteeIdempotent, GuaranteeTotal,
		GuaranteeHead, GuaranteeStart, GuaranteeCounter, GuaranteeFallback}
}

// Bound kinds and token counters of a declaration (ANY-6).
const (
	BoundMessages = "messages"
	BoundTokens   = "tokens"
	CounterCl100k = "cl100k"
	CounterChars4 = "chars4"
	// CounterNative is the library's own counter, asked with
	// trimmer.count (D-60).
	CounterNative = "native"
)

// GuaranteeCapability is the pseudo-capability a case needs when it checks
// one guarantee: "trimmer/bound" is declared when capability trimmer is
// and some declared trimmer claims bound.
func GuaranteeCapability(guarantee string) string { return CapTrimmer + "/" + guarantee }

// IsGuaranteeCapability reports whether name is "trimmer/<guarantee>".
func IsGuaranteeCapability(name string) bool {
	g, ok := strings.CutPrefix(name, CapTrimmer+"/")
	return ok && slices.Contains(Guarantees(), g)
}

// TrimmerDecl is one trimmer of the handshake's "trimmers" member.
type TrimmerDecl struct {
	Name string `json:"name"`
	// Bound is "messages" or "tokens"; Counter names the token counter
	// ("cl100k", "chars4" or, in the second declaration, "native") when
	// Bound is "tokens".
	Bound   string `json:"bound"`
	Counter string `json:"counter,omitempty"`
	// Formats limits the tool-call formats the trimmer is given; empty
	// means both.
	Formats    []string `json:"formats,omitempty"`
	Guarantees []string `json:"guarantees"`

	// The members of the second declaration (trimmerdecl2.go, D-60).

	// Version is 2 for the second declaration; 0 (absent) or 1 is D-35's.
	Version int `json:"version,omitempty"`
	// System says which system messages "system" keeps; absent: leading.
	System string `json:"system,omitempty"`
	// Head is a number of first messages always kept (ANY-11).
	Head int `json:"head,omitempty"`
	// Markers describes the messages the trimmer inserts (ANY-1).
	Markers *MarkerDecl `json:"markers,omitempty"`
	// Slack lets a bound overshoot by one unit ("unit").
	Slack string `json:"slack,omitempty"`
	// Results "one" counts a call's results as one message (bound messages).
	Results string `json:"results,omitempty"`
	// LimitMin is the least limit of the domain; total holds above it.
	LimitMin int `json:"limit_min,omitempty"`
	// Start is the start rule (ANY-12): "user".
	Start string `json:"start,omitempty"`
	// Count says how a token bound counts.
	Count *CountDecl `json:"count,omitempty"`
	// Refuses is when the trimmer answers with an error by design:
	// "nothing_fits" (ANY-9).
	Refuses string `json:"refuses,omitempty"`
	// Fallback is what the trimmer answers when nothing fits:
	// "last_message" (ANY-14, D-76).
	Fallback string `json:"fallback,omitempty"`
}

// Claims reports whether the trimmer claims a guarantee: listed, or, in
// the second declaration, claimed by a member — head, start, a native
// counter and a fallback — or total, which every second declaration claims over its
// domain (D-60).
func (d TrimmerDecl) Claims(guarantee string) bool {
	switch {
	case slices.Contains(d.Guarantees, guarantee):
		return true
	case d.Version != 2:
		return false
	case guarantee == GuaranteeTotal:
		return true
	case guarantee == GuaranteeHead:
		return d.Head > 0
	case guarantee == GuaranteeStart:
		return d.Start != ""
	case guarantee == GuaranteeCounter:
		return d.Counter == CounterNative
	case guarantee == GuaranteeFallback:
		return d.Fallback != ""
	}
	return false
}

// Accepts reports whether the trimmer takes tool calls of a format.
func (d TrimmerDecl) Accepts(format string) bool {
	return len(d.Formats) == 0 || slices.Contains(d.Formats, format)
}

// TrimmerTrimParams asks a declared trimmer to trim messages to a limit.
type TrimmerTrimParams struct {
	Trimmer  string            `json:"trimmer"`
	Messages []json.RawMessage `json:"messages"`
	Limit    json.RawMessage   `json:"limit"`
}

// TrimmerTrimResult is what the trimmer kept.
type TrimmerTrimResult struct {
	Messages []json.RawMessage `json:"messages"`
}

// MethodTrimmerCount counts messages with a trimmer's native counter
// (D-60).
const MethodTrimmerCount = "trimmer.count"

// TrimmerCountParams asks a trimmer declared with counter "native" for its
// own count of messages.
type TrimmerCountParams struct {
	Trimmer  string            `json:"trimmer"`
	Messages []json.RawMessage `json:"messages"`
}

// TrimmerCountResult is the library's count.
type TrimmerCountResult struct {
	Count int `json:"count"`
}
