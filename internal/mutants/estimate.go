package mutants

// Faulty variants of the window's estimate (EST-*).

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
)

func estimateMutant(f func([]message.Message) int) server.Engine {
	return replaced{estimate: f}
}

// contentChars applies a faulty character count per message.
func totalChars(msgs []message.Message, chars func(message.Message) int) int {
	n := 0
	for _, m := range msgs {
		n += chars(m)
	}
	return n
}

func bytesEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		c := m.Content()
		if len(c) == 0 || string(c) == "null" {
			return 0
		}
		var s string
		if json.Unmarshal(c, &s) == nil {
			return len(s)
		}
		ser, _ := message.Compact(c)
		return len(ser)
	}) + 3) / 4
}

func floorEstimate(msgs []message.Message) int {
	return totalChars(msgs, message.Message.ContentLength) / 4
}

func perMessageEstimate(msgs []message.Message) int {
	n := 0
	for _, m := range msgs {
		n += (m.ContentLength() + 3) / 4
	}
	return n
}

func roleCountingEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int { return m.ContentLength() + utf8.RuneCountInString(m.Role()) }) + 3) / 4
}

func nullCountingEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		if string(m.Content()) == "null" {
			return 4
		}
		return m.ContentLength()
	}) + 3) / 4
}

func goJSONEstimate(msgs []message.Message) int {
	return (totalChars(msgs, func(m message.Message) int {
		c := m.Content()
		var v any
		if len(c) == 0 || json.Unmarshal(c, &v) != nil || v == nil {
			return 0
		}
		if s, ok := v.(string); ok {
			return message.Length(s)
		}
		b, _ := json.Marshal(v)
		return message.Length(string(b))
	}) + 3) / 4
}

// estimateCatalogue is the catalogue's variants of the window's token
// estimate.
func estimateCatalogue() []Mutant {
	return []Mutant{
		{Name: "estimate-bytes", Clauses: []string{"EST-2", "EST-3"},
			Bug:    "counts UTF-8 bytes instead of UTF-16 code units (Go's len)",
			Engine: estimateMutant(bytesEstimate)},
		{Name: "estimate-counts-role", Clauses: []string{"EST-5"},
			Bug:    "counts the role as well as the content",
			Engine: estimateMutant(roleCountingEstimate)},
		{Name: "estimate-floor", Clauses: []string{"EST-1"},
			Bug:    "rounds the estimate down (integer division) instead of up",
			Engine: estimateMutant(floorEstimate)},
		{Name: "estimate-go-json", Clauses: []string{"EST-3"},
			Bug:    "serializes content with Go's encoding/json (sorted keys, <>& escaped) instead of JSON.stringify",
			Engine: estimateMutant(goJSONEstimate)},
		{Name: "estimate-null-is-four", Clauses: []string{"EST-4"},
			Bug:    "counts null content as JSON.stringify(null), 4 characters",
			Engine: estimateMutant(nullCountingEstimate)},
		{Name: "estimate-per-message", Clauses: []string{"EST-1"},
			Bug:    "rounds up per message and sums, instead of dividing the total once",
			Engine: estimateMutant(perMessageEstimate)},
	}
}
