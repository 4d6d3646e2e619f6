package window

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/convspec/convspec/internal/exactnum"
)

// Defaults of ConversationHistoryConfig (CFG-1).
const (
	DefaultMaxMessages     = 100
	DefaultSummarizeOnTrim = false
	DefaultPreserveFirstN  = 1
	DefaultPreserveLastN   = 20
)

// MaxCount is the largest count a configuration may hold: the largest
// integer every JSON implementation represents exactly (2^53 − 1, CFG-3).
const MaxCount = exactnum.MaxCount

// Config is an effective ConversationHistoryConfig: every field set.
// Build one from DefaultConfig (the zero Config disables trimming and
// preserves nothing) or from a JSON document with ParseConfig.
type Config struct {
	MaxMessages     int  `json:"max_messages"`
	SummarizeOnTrim bool `json:"summarize_on_trim"`
	PreserveFirstN  int  `json:"preserve_first_n"`
	PreserveLastN   int  `json:"preserve_last_n"`
}

// DefaultConfig is the configuration with every default applied (CFG-1).
func DefaultConfig() Config {
	return Config{
		MaxMessages:     DefaultMaxMessages,
		SummarizeOnTrim: DefaultSummarizeOnTrim,
		PreserveFirstN:  DefaultPreserveFirstN,
		PreserveLastN:   DefaultPreserveLastN,
	}
}

// ErrInvalidConfig is wrapped by every configuration error.
var ErrInvalidConfig = errors.New("invalid config")

// ConfigError names the offending field and why it was rejected.
type ConfigError struct {
	Field  string // the member name, empty when the document as a whole is wrong
	Reason string
}

func (e *ConfigError) Error() string {
	if e.Field == "" {
		return "config: " + e.Reason
	}
	return fmt.Sprintf("config.%s: %s", e.Field, e.Reason)
}

func (e *ConfigError) Unwrap() error { return ErrInvalidConfig }

// Validate reports the first field that breaks CFG-3.
func (c Config) Validate() error {
	for _, f := range []struct {
		name  string
		value int
	}{
		{"max_messages", c.MaxMessages},
		{"preserve_first_n", c.PreserveFirstN},
		{"preserve_last_n", c.PreserveLastN},
	} {
		if f.value < 0 {
			return &ConfigError{Field: f.name, Reason: fmt.Sprintf("must be a non-negative integer, got %d", f.value)}
		}
		if f.value > MaxCount {
			return &ConfigError{Field: f.name, Reason: fmt.Sprintf("must not exceed %d, got %d", MaxCount, f.value)}
		}
	}
	return nil
}

// Disabled reports whether trimming is off (CFG-5: max_messages 0).
func (c Config) Disabled() bool { return c.MaxMessages == 0 }

// PreserveExceedsMax reports whether the preserved head and tail alone fill
// the cap, so that no middle message can ever be kept (CFG-6, WIN-3).
func (c Config) PreserveExceedsMax() bool {
	return !c.Disabled() && c.PreserveFirstN+c.PreserveLastN >= c.MaxMessages
}

// Warnings are the configuration's own warnings, raised when a window is
// created with it (CFG-6).
func (c Config) Warnings() []Warning {
	if c.PreserveExceedsMax() {
		return []Warning{preserveExceedsMax(c)}
	}
	return nil
}

// ParseConfig reads a ConversationHistoryConfig JSON object, applying the
// default of every member that is absent or null (CFG-2) and rejecting
// unknown members (CFG-4), wrong types and out-of-range values (CFG-3).
func ParseConfig(data []byte) (Config, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return DefaultConfig(), nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil || data[0] != '{' {
		return Config{}, &ConfigError{Reason: "must be a JSON object"}
	}
	cfg := DefaultConfig()
	known := map[string]func(json.RawMessage) error{
		"max_messages":      countInto("max_messages", &cfg.MaxMessages),
		"preserve_first_n":  countInto("preserve_first_n", &cfg.PreserveFirstN),
		"preserve_last_n":   countInto("preserve_last_n", &cfg.PreserveLastN),
		"summarize_on_trim": boolInto("summarize_on_trim", &cfg.SummarizeOnTrim),
	}
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names) // report errors deterministically
	for _, name := range names {
		set, ok := known[name]
		if !ok {
			return Config{}, &ConfigError{Field: name, Reason: "unknown field (known: max_messages, summarize_on_trim, preserve_first_n, preserve_last_n)"}
		}
		raw := bytes.TrimSpace(members[name])
		if string(raw) == "null" {
			continue
		}
		if err := set(raw); err != nil {
			return Config{}, err
		}
	}
	return cfg, nil
}

func countInto(field string, dst *int) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		n, err := ParseCount(field, raw)
		if err != nil {
			return err
		}
		*dst = n
		return nil
	}
}

// ParseCount reads a count as CFG-3 defines it: a JSON number whose value
// is an integer from 0 to MaxCount (3, 3.0 and 3e0 alike), read exactly
// from its decimal text as every count of the protocol is (package
// exactnum: a float64 would take 3.0000000000000001 for 3). The error is a
// *ConfigError naming field.
func ParseCount(field string, raw json.RawMessage) (int, error) {
	text := string(bytes.TrimSpace(raw))
	n, err := exactnum.Integer(text)
	neg := strings.HasPrefix(text, "-")
	switch {
	case errors.Is(err, exactnum.ErrNotNumber):
		return 0, &ConfigError{Field: field, Reason: "must be a non-negative integer, got " + describe(raw)}
	case errors.Is(err, exactnum.ErrNotInteger):
		return 0, &ConfigError{Field: field, Reason: "must be a whole number, got " + text}
	case neg && (err != nil || n < 0):
		return 0, &ConfigError{Field: field, Reason: "must be a non-negative integer, got " + text}
	case err != nil:
		return 0, &ConfigError{Field: field, Reason: fmt.Sprintf("must not exceed %d, got %s", MaxCount, text)}
	}
	return int(n), nil
}

func boolInto(field string, dst *bool) func(json.RawMessage) error {
	return func(raw json.RawMessage) error {
		if err := json.Unmarshal(raw, dst); err != nil {
			return &ConfigError{Field: field, Reason: "must be a boolean, got " + describe(raw)}
		}
		return nil
	}
}

// describe names a JSON value's type for an error message, with the value
// itself when it is short.
func describe(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	switch {
	case strings.HasPrefix(s, `"`):
		return "the string " + s
	case strings.HasPrefix(s, "{"):
		return "an object"
	case strings.HasPrefix(s, "["):
		return "an array"
	default:
		return s
	}
}
