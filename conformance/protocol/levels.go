package protocol

// Levels an implementation may declare in its handshake (SPEC.md's levels,
// D-42): absent means all three.
const (
	LevelCore        = "core"
	LevelValidation  = "validation"
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
