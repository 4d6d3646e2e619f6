package mutants

// Faulty variants of what every implementation must do, whatever its
// capabilities: the protocol clauses.

import (
	"encoding/json"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/window"
)

// assertingParse reads every count with an unchecked type assertion
// before validating, as `int(m["max_messages"].(float64))` would.
func assertingParse(raw json.RawMessage) (window.Config, error) {
	var m map[string]any
	if json.Unmarshal(raw, &m) == nil {
		for _, k := range []string{"max_messages", "preserve_first_n", "preserve_last_n"} {
			if v, ok := m[k]; ok && v != nil {
				_ = int(v.(float64)) // panics on a string, a boolean, an array
			}
		}
	}
	return window.ParseConfig(raw)
}

// namelessEngine is the reference with an empty implementation name.
type namelessEngine struct{ server.Reference }

func (namelessEngine) Name() string { return "" }

// protocolCatalogue is the catalogue's variants of the protocol itself:
// the handshake and answering a bad request.
func protocolCatalogue() []Mutant {
	return []Mutant{
		variant("config-type-panics", "reads counts with an unchecked type assertion, so a string where a count belongs panics and is answered internal_error", parsedWith{parse: assertingParse}, "PROTO-2", "CFG-3"),
		variant("handshake-without-name", "takes its name from build metadata that is not set, so the handshake names no implementation", namelessEngine{}, "PROTO-1"),
	}
}
