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
		variant("estimate-bytes", "counts UTF-8 bytes instead of UTF-16 code units (Go's len)", estimateMutant(bytesEstimate), "EST-2", "EST-3"),
		variant("estimate-counts-role", "counts the role as well as the content", estimateMutant(roleCountingEstimate), "EST-5"),
		variant("estimate-floor", "rounds the estimate down (integer division) instead of up", estimateMutant(floorEstimate), "EST-1"),
		variant("estimate-go-json", "serializes content with Go's encoding/json (sorted keys, <>& escaped) instead of JSON.stringify", estimateMutant(goJSONEstimate), "EST-3"),
		variant("estimate-null-is-four", "counts null content as JSON.stringify(null), 4 characters", estimateMutant(nullCountingEstimate), "EST-4"),
		variant("estimate-per-message", "rounds up per message and sums, instead of dividing the total once", estimateMutant(perMessageEstimate), "EST-1"),
	}
}
