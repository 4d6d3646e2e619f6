// Package config resolves the conversation settings of an execution config
// file (004, tasks 114 and 120): the shorthand
// `execution.max_conversation_messages` and the full
// `execution.conversation` block, in YAML or JSON, into the effective
// window.Config (spec CONF-*).
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/convspec/convspec/reference/window"
)

// Format is the syntax of a config file.
type Format string

// The formats a config file may be written in.
const (
	YAML Format = "yaml"
	JSON Format = "json"
)

// ParseFormat checks a format name.
func ParseFormat(s string) (Format, error) {
	switch f := Format(s); f {
	case YAML, JSON:
		return f, nil
	}
	return "", fmt.Errorf("unknown config format %q (known: yaml, json)", s)
}

// CodeShorthandOverridden warns that both forms set the cap and the full
// form won (CONF-3).
const CodeShorthandOverridden = "config_shorthand_overridden"

// Where the effective max_messages came from (CONF-3).
const (
	SourceDefault      = "default"
	SourceShorthand    = "shorthand"
	SourceConversation = "conversation"
)

// Resolved is the effective configuration of a config file.
type Resolved struct {
	Config window.Config
	// MaxMessagesFrom says which form set max_messages.
	MaxMessagesFrom string
	// Warnings are CONF-3's override warning and the configuration's own
	// (CFG-6).
	Warnings []window.Warning
}

// Error is an invalid config file. Path names the offending member from the
// document root (`execution.conversation.preserve_last_n`); it is empty when
// the document as a whole is wrong.
type Error struct {
	Path   string
	Reason string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "config file: " + e.Reason
	}
	return e.Path + ": " + e.Reason
}

// Unwrap makes every Error an window.ErrInvalidConfig, the one sentinel of
// a bad configuration.
func (e *Error) Unwrap() error { return window.ErrInvalidConfig }

const (
	pathExecution    = "execution"
	pathShorthand    = "execution.max_conversation_messages"
	pathConversation = "execution.conversation"
)

// Resolve reads a config file and returns its effective conversation
// configuration. Members other than the two conversation settings belong to
// the host application and are ignored (CONF-5), so existing config files
// load unchanged; within `execution.conversation`, every member is checked as
// window.ParseConfig checks a ConversationHistoryConfig (CFG-3, CFG-4).
func Resolve(text []byte, f Format) (Resolved, error) {
	var doc json.RawMessage
	var err error
	switch f {
	case YAML:
		doc, err = yamlToJSON(text)
	case JSON:
		doc, err = checkedJSON(text)
	default:
		_, err = ParseFormat(string(f))
	}
	if err != nil {
		return Resolved{}, err
	}
	root, err := mapping(doc, "")
	if err != nil {
		return Resolved{}, err
	}
	execution, err := mapping(value(root, "execution"), pathExecution)
	if err != nil {
		return Resolved{}, err
	}
	if execution == nil {
		return resolved(window.DefaultConfig(), SourceDefault, nil), nil
	}
	shorthand, block := value(execution, "max_conversation_messages"), value(execution, "conversation")

	cfg, from := window.DefaultConfig(), SourceDefault
	short := -1
	if shorthand != nil {
		n, err := window.ParseCount("max_conversation_messages", shorthand)
		if err != nil {
			return Resolved{}, &Error{Path: pathShorthand, Reason: reasonOf(err)}
		}
		short, cfg.MaxMessages, from = n, n, SourceShorthand
	}
	var warnings []window.Warning
	if block != nil {
		full, err := window.ParseConfig(block)
		if err != nil {
			var ce *window.ConfigError
			if errors.As(err, &ce) && ce.Field != "" {
				return Resolved{}, &Error{Path: pathConversation + "." + ce.Field, Reason: ce.Reason}
			}
			return Resolved{}, &Error{Path: pathConversation, Reason: "must be a mapping of max_messages, summarize_on_trim, preserve_first_n and preserve_last_n"}
		}
		conversation, _ := mapping(block, pathConversation) // an object: ParseConfig accepted it
		if value(conversation, "max_messages") != nil {
			from = SourceConversation
			if short >= 0 && short != full.MaxMessages {
				warnings = append(warnings, window.Warning{
					Code: CodeShorthandOverridden,
					Message: fmt.Sprintf("%s (%d) is overridden by %s.max_messages (%d)",
						pathShorthand, short, pathConversation, full.MaxMessages),
				})
			}
		} else {
			full.MaxMessages = cfg.MaxMessages // the shorthand, or the default
		}
		cfg = full
	}
	return resolved(cfg, from, warnings), nil
}

func resolved(cfg window.Config, from string, warnings []window.Warning) Resolved {
	return Resolved{Config: cfg, MaxMessagesFrom: from, Warnings: append(warnings, cfg.Warnings()...)}
}

// reasonOf is a window.ConfigError's reason without its field prefix.
func reasonOf(err error) string {
	var ce *window.ConfigError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return err.Error()
}

// mapping decodes the JSON object obj once; absent or null is no mapping
// (nil, CFG-2). path names obj in errors.
func mapping(obj json.RawMessage, path string) (map[string]json.RawMessage, error) {
	if len(obj) == 0 || string(obj) == "null" {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if obj[0] != '{' || json.Unmarshal(obj, &members) != nil {
		if path == "" {
			return nil, &Error{Reason: "must be a mapping at the top level, got " + kindOf(obj)}
		}
		return nil, &Error{Path: path, Reason: "must be a mapping, got " + kindOf(obj)}
	}
	return members, nil
}

// value is the named member of a mapping, nil when it is absent or null
// (CFG-2).
func value(m map[string]json.RawMessage, name string) json.RawMessage {
	v := m[name]
	if string(v) == "null" {
		return nil
	}
	return v
}

func kindOf(raw json.RawMessage) string {
	switch raw[0] {
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	default:
		return "a number"
	}
}

// checkedJSON checks a JSON config file: one value, and no object with a
// member named twice (CONF-6), which encoding/json would silently resolve to
// the last one.
func checkedJSON(text []byte) (json.RawMessage, error) {
	text = bytes.TrimSpace(text)
	if len(text) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := walkJSON(dec, "", 0); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, &Error{Reason: "not valid JSON: more than one value"}
	}
	if !json.Valid(text) {
		return nil, &Error{Reason: "not valid JSON"}
	}
	return text, nil
}

// walkJSON reads one value from dec, which depth objects and arrays
// enclose, failing on a duplicate member and on nesting deeper than
// maxDepth (tooDeep).
func walkJSON(dec *json.Decoder, path string, depth int) error {
	tok, err := dec.Token()
	if err != nil {
		return &Error{Reason: "not valid JSON: " + err.Error()}
	}
	if tok == json.Delim('{') || tok == json.Delim('[') {
		if err := tooDeep(pathString(path), depth+1, 0); err != nil {
			return err
		}
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return &Error{Reason: "not valid JSON: " + err.Error()}
			}
			name, _ := k.(string)
			p := join(path, name)
			if seen[name] {
				return &Error{Path: p, Reason: "is given twice"}
			}
			seen[name] = true
			if err := walkJSON(dec, p, depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := walkJSON(dec, fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	if err != nil {
		return &Error{Reason: "not valid JSON: " + err.Error()}
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	if strings.ContainsAny(name, ". []") {
		return fmt.Sprintf("%s[%q]", path, name)
	}
	return path + "." + name
}
