package mutants

// Outsider variants of the capability config (CONF-*): resolving the
// YAML and JSON configuration files.

import (
	"encoding/json"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/window"
)

func outsiderConfigMutants() []Mutant {
	return []Mutant{
		{
			// {"execution":{"max_conversation_messages":null}}: null is absent,
			// so the default 100 applies; the variant reads null as 0.
			Name: "outsider-config-null-shorthand-is-zero", Bug: "reads a null max_conversation_messages as 0 (disabled) instead of absent",
			Clauses: []string{"CONF-2", "CONF-3"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil || res.MaxMessagesFrom != config.SourceDefault {
					return res, err
				}
				exec, ok := outsiderDoc(text, f)["execution"].(map[string]any)
				if v, present := exec["max_conversation_messages"]; ok && present && v == nil {
					res.Config.MaxMessages, res.MaxMessagesFrom = 0, config.SourceShorthand
					res.Warnings = res.Config.Warnings()
				}
				return res, nil
			}},
		},
		{
			// {"execution":{"max_conversation_messages":30,"conversation":
			// {"max_messages":null}}}: the block's null max_messages is
			// absent, so the shorthand's 30 holds; the variant sees a member
			// and takes the block's default of 100, with an override warning.
			Name: "outsider-config-null-block-max-overrides", Bug: "treats a null conversation.max_messages as given, so the block's default overrides the shorthand",
			Clauses: []string{"CONF-3"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil {
					return res, err
				}
				exec, _ := outsiderDoc(text, f)["execution"].(map[string]any)
				conv, _ := exec["conversation"].(map[string]any)
				if v, present := conv["max_messages"]; present && v == nil {
					short := res.Config.MaxMessages
					res.Config.MaxMessages, res.MaxMessagesFrom = window.DefaultMaxMessages, config.SourceConversation
					res.Warnings = res.Config.Warnings()
					if _, given := exec["max_conversation_messages"]; given && short != window.DefaultMaxMessages {
						res.Warnings = append([]window.Warning{{Code: config.CodeShorthandOverridden,
							Message: "execution.max_conversation_messages is overridden by execution.conversation.max_messages"}}, res.Warnings...)
					}
				}
				return res, nil
			}},
		},
		{
			// YAML "execution:\n  conversation:\n    summarize_on_trim: yes\n":
			// under YAML 1.2's core schema yes is a string, an error; the
			// variant resolves it as YAML 1.1 does, true.
			Name: "outsider-config-yaml11-booleans", Bug: "resolves the YAML 1.1 booleans yes/no/on/off as booleans",
			Clauses: []string{"CONF-1", "CONF-4"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				if f != config.YAML {
					return config.Resolve(text, f)
				}
				var doc yaml.Node
				if yaml.Unmarshal(text, &doc) != nil {
					return config.Resolve(text, f)
				}
				changed := false
				var walk func(n *yaml.Node)
				walk = func(n *yaml.Node) {
					if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Tag != "!!str" || n.Kind == yaml.ScalarNode && n.Style == 0 {
						switch strings.ToLower(n.Value) {
						case "yes", "on", "y":
							n.Value, n.Tag, changed = "true", "!!bool", true
						case "no", "off", "n":
							n.Value, n.Tag, changed = "false", "!!bool", true
						}
					}
					for _, c := range n.Content {
						walk(c)
					}
				}
				walk(&doc)
				if !changed {
					return config.Resolve(text, f)
				}
				out, err := yaml.Marshal(&doc)
				if err != nil {
					return config.Resolve(text, f)
				}
				return config.Resolve(out, f)
			}},
		},
		{
			// {"execution":null}: no execution section, the defaults; the
			// variant fails with "execution must be a mapping".
			Name: "outsider-config-null-execution-rejected", Bug: "rejects execution: null as not a mapping instead of treating it as absent",
			Clauses: []string{"CONF-2"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				doc := outsiderDoc(text, f)
				if v, present := doc["execution"]; present && v == nil {
					return config.Resolved{}, &config.Error{Path: "execution", Reason: "must be a mapping, got null"}
				}
				return config.Resolve(text, f)
			}},
		},
		{
			// {"execution":{"max_conversation_messages":50,"conversation":
			// {"max_messages":50}}}: equal values, no warning; the variant
			// warns whenever both are given.
			Name: "outsider-config-override-warning-when-equal", Bug: "warns that the shorthand is overridden whenever both are given, even with the same value",
			Clauses: []string{"CONF-3"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil || res.MaxMessagesFrom != config.SourceConversation {
					return res, err
				}
				for _, w := range res.Warnings {
					if w.Code == config.CodeShorthandOverridden {
						return res, nil
					}
				}
				exec, _ := outsiderDoc(text, f)["execution"].(map[string]any)
				if v, given := exec["max_conversation_messages"]; given && v != nil {
					res.Warnings = append([]window.Warning{{Code: config.CodeShorthandOverridden,
						Message: "execution.max_conversation_messages is overridden by execution.conversation.max_messages"}}, res.Warnings...)
				}
				return res, nil
			}},
		},
	}
}

// outsiderDoc decodes a config file loosely, to see which members are
// present and null; nil when it does not decode.
func outsiderDoc(text []byte, f config.Format) map[string]any {
	var doc map[string]any
	if f == config.JSON {
		_ = json.Unmarshal(text, &doc)
	} else {
		_ = yaml.Unmarshal(text, &doc)
	}
	return doc
}
