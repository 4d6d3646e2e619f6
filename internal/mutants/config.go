package mutants

// Faulty variants of the capability config: the configuration files.

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/window"
	"go.yaml.in/yaml/v3"
)

// parseDoc reads a config file that config.Resolve accepted (YAML 1.2 is
// a superset of the JSON it accepts); nil for an empty document.
func parseDoc(text []byte) map[string]any {
	var doc map[string]any
	_ = yaml.Unmarshal(text, &doc)
	return doc
}

// refusingAlso resolves config files as the reference does and also
// refuses, with the error refuse gives, a file the reference accepts;
// refuse reads the file as parseDoc does.
func refusingAlso(refuse func(doc map[string]any) error) replaced {
	return replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
		res, err := config.Resolve(text, f)
		if err != nil {
			return res, err
		}
		if err := refuse(parseDoc(text)); err != nil {
			return config.Resolved{}, err
		}
		return res, nil
	}}
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

// configCatalogue is the catalogue's variants of capability config: the
// configuration files.
func configCatalogue() []Mutant {
	return []Mutant{
		{Name: "config-block-replaces-shorthand", Clauses: []string{"CONF-3"},
			Bug: "lets a conversation block without max_messages reset the shorthand's cap to the default",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err == nil && res.MaxMessagesFrom == config.SourceShorthand && hasBlock(text) {
					res.Config.MaxMessages, res.MaxMessagesFrom = window.DefaultMaxMessages, config.SourceDefault
				}
				return res, err
			}}},
		{Name: "config-error-without-path", Clauses: []string{"CONF-4"},
			Bug: "reports an invalid config without the field path",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if ce, ok := err.(*config.Error); ok {
					return res, &config.Error{Reason: ce.Reason}
				}
				return res, err
			}}},
		{
			Name:    "config-json-duplicates-last",
			Bug:     "reads JSON config files with a plain JSON parser, which silently keeps the last of a key given twice",
			Clauses: []string{"CONF-6"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				var ce *config.Error
				if f != config.JSON || !errors.As(err, &ce) || ce.Reason != "is given twice" {
					return res, err
				}
				dec := json.NewDecoder(bytes.NewReader(text))
				dec.UseNumber()
				var v any
				if dec.Decode(&v) != nil {
					return res, err
				}
				last, _ := json.Marshal(v) // encoding/json kept the last value of each name
				return config.Resolve(last, f)
			}},
		},
		{Name: "config-requires-execution", Clauses: []string{"CONF-2"},
			Bug: "reads execution.max_conversation_messages without checking that execution exists, failing on a file without it",
			Engine: refusingAlso(func(doc map[string]any) error {
				if doc == nil || doc["execution"] == nil {
					return errors.New("TypeError: cannot read properties of undefined (reading 'max_conversation_messages')")
				}
				return nil
			})},
		{Name: "config-shorthand-ignored", Clauses: []string{"CONF-1", "CONF-3"},
			Bug: "reads only execution.conversation, so max_conversation_messages alone leaves the cap at 100",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err == nil && res.MaxMessagesFrom == config.SourceShorthand && !hasBlock(text) {
					res.Config.MaxMessages, res.MaxMessagesFrom = window.DefaultMaxMessages, config.SourceDefault
				}
				return res, err
			}}},
		{Name: "config-silent-override", Clauses: []string{"CONF-3", "CONF-7"},
			Bug: "lets the block override the shorthand's cap without a warning",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				var kept []window.Warning
				for _, w := range res.Warnings {
					if w.Code != config.CodeShorthandOverridden {
						kept = append(kept, w)
					}
				}
				res.Warnings = kept
				return res, err
			}}},
		{Name: "config-strict-host-keys", Clauses: []string{"CONF-5"},
			Bug: "decodes the whole file with unknown fields refused, so the host's own keys fail",
			Engine: refusingAlso(func(doc map[string]any) error {
				if path := hostKey(doc); path != "" {
					return &config.Error{Path: path, Reason: "field not found in type Config"}
				}
				return nil
			})},
	}
}
