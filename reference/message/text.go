package message

import (
	"encoding/json"

	"github.com/convspec/convspec/internal/ecmajson"
)

// The measures of JSON text are package ecmajson's, shared with the judge,
// which reads messages with a reader of its own.

// Length is the number of characters in s as the spec counts them (EST-2):
// UTF-16 code units, String.prototype.length in ECMAScript.
func Length(s string) int { return ecmajson.Length(s) }

// ContentLength is the character count of a content member (EST-2, EST-3,
// EST-4): 0 when absent or null, the Length of a string's value, and the
// Length of the compact serialization of any other JSON value.
func ContentLength(content json.RawMessage) (int, error) { return ecmajson.ContentLength(content) }

// Compact serializes a JSON text exactly as ECMAScript's
// JSON.stringify(JSON.parse(text)) does (EST-3), refusing invalid UTF-8
// and unpaired surrogate escapes (MSG-1).
func Compact(text []byte) (string, error) { return ecmajson.Compact(text) }

// FormatNumber renders f as ECMAScript's Number::toString does.
func FormatNumber(f float64) string { return ecmajson.FormatNumber(f) }
