package mutants

// Faulty variants of the capability config: the configuration files.

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseDoc reads a config file that config.Resolve accepted (YAML 1.2 is
// a superset of the JSON it accepts); nil for an empty document.
func parseDoc(text []byte) map[string]any {
	var doc map[string]any
	_ = yaml.Unmarshal(text, &doc)
	return doc
}

// hostKey is the first member of a config file that is not one of the two
// conversation settings, as a strict decoder would name it; "" if none.
func hostKey(doc map[string]any) string {
	var keys []string
	for k := range doc {
		if k != "execution" {
			keys = append(keys, k)
		}
	}
	if execution, ok := doc["execution"].(map[string]any); ok {
		for k := range execution {
			if k != "max_conversation_messages" && k != "conversation" {
				keys = append(keys, "execution."+k)
			}
		}
	}
	if len(keys) == 0 {
		return ""
	}
	return slices.Min(keys)
}

// hasBlock tells, well enough for a mutant, whether a config file has an
// execution.conversation block.
func hasBlock(text []byte) bool {
	return strings.Contains(string(text), "conversation:") || strings.Contains(string(text), `"conversation"`)
}
