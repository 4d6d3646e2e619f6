package prop

import (
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
)

// Diagnostics reports whether tg's implementation declares the
// diagnostics level (D-42): a property of another level checks warnings
// and exact texts only then.
func Diagnostics(tg target.Target) bool { return tg.Info().HasLevel(protocol.LevelDiagnostics) }

// Validation says whether tg declares the validation level (D-42):
// whether it is sent malformed input to refuse.
func Validation(tg target.Target) bool { return tg.Info().HasLevel(protocol.LevelValidation) }

// ProviderFormats are the provider formats the generated requests may use
// against a target: nil means both, and units that mix them. This is the
// one place to narrow it when the handshake declares formats.
func ProviderFormats(info target.Info) []string { return info.Formats }
