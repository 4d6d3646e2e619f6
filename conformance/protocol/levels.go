package protocol

// Levels an implementation may declare in its handshake (SPEC.md's levels,
// D-42): absent means all three. They are the levels of the clauses too
// (package spec).
const (
	// LevelCore: what the algorithm does with valid input.
	LevelCore = "core"
	// LevelValidation: refusing malformed input with the right typed error.
	LevelValidation = "validation"
	// LevelDiagnostics: warnings, their codes and exact free-text formats.
	LevelDiagnostics = "diagnostics"
)

// Levels lists every level, in the order of SPEC.md.
func Levels() []string { return []string{LevelCore, LevelValidation, LevelDiagnostics} }

// Provider formats an implementation may declare in its handshake (D-42):
// absent means both.
const (
	FormatOpenAI    = "openai"
	FormatAnthropic = "anthropic"
)

// Formats lists every provider format.
func Formats() []string { return []string{FormatOpenAI, FormatAnthropic} }
