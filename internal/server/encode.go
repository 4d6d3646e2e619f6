package server

import (
	"bytes"
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
)

// Encoding the results that return messages. encoding/json encodes a
// json.RawMessage by checking it whole and writing it without its
// insignificant white space; the messages of a result are the bytes of
// message.Message values, which are valid JSON (a message is made only by
// message's parsers, from text json.Valid accepted, or by message.New), so
// checking them again — most of the cost of encoding a trim's answer — finds
// nothing. Here they are written without their white space and unchecked,
// and everything else in the result by encoding/json (D-90). The bytes are
// Marshal's (FuzzEncodeResultAsMarshal).

// encodeResult is Marshal(result) for a result of a Handler's own.
func encodeResult(result any) ([]byte, error) {
	switch r := result.(type) {
	case protocol.TrimmerTrimResult:
		lists := [][]json.RawMessage{r.Messages}
		r.Messages = nil
		return withMessages(r, result, []string{"messages"}, lists)
	case protocol.WindowTrimResult:
		lists := [][]json.RawMessage{r.Trimmed, r.Evicted}
		r.Trimmed, r.Evicted = nil, nil
		return withMessages(r, result, []string{"trimmed", "evicted"}, lists)
	case protocol.BudgetPruneResult:
		lists := [][]json.RawMessage{r.Messages}
		r.Messages = nil
		return withMessages(r, result, []string{"messages"}, lists)
	case protocol.HistoryPruneResult:
		lists := [][]json.RawMessage{r.Messages}
		r.Messages = nil
		return withMessages(r, result, []string{"messages"}, lists)
	case protocol.HistoryBuildResult:
		lists := [][]json.RawMessage{r.Messages}
		r.Messages = nil
		return withMessages(r, result, []string{"messages"}, lists)
	}
	return Marshal(result)
}

// withMessages encodes a result whose first members, names, are the
// message lists: rest is the result with those lists nil, whose encoding
// begins with each name and null, in order; the lists are written in
// their place. Whatever does not fit that shape is encoded whole.
func withMessages(rest, whole any, names []string, lists [][]json.RawMessage) ([]byte, error) {
	tail, err := Marshal(rest)
	if err != nil {
		return nil, err
	}
	size := len(tail)
	prefix := []byte{'{'}
	for i, name := range names {
		if i > 0 {
			prefix = append(prefix, ',')
		}
		prefix = append(prefix, '"')
		prefix = append(prefix, name...)
		prefix = append(prefix, `":null`...)
		for _, m := range lists[i] {
			if m != nil && len(m) == 0 {
				return Marshal(whole) // no JSON: encoding/json says what is wrong
			}
			size += len(m) + 1
		}
	}
	if !bytes.HasPrefix(tail, prefix) {
		return Marshal(whole)
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, `":`...)
		b = appendMessages(b, lists[i])
	}
	return append(b, tail[len(prefix):]...), nil
}

// appendMessages appends a list as encoding/json writes a
// []json.RawMessage of valid JSON texts.
func appendMessages(b []byte, list []json.RawMessage) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, m := range list {
		if i > 0 {
			b = append(b, ',')
		}
		if m == nil {
			b = append(b, "null"...)
			continue
		}
		b = appendCompacted(b, m)
	}
	return append(b, ']')
}

// appendCompacted appends valid, a valid JSON text, without the white
// space between its tokens, as encoding/json compacts a json.RawMessage it
// encodes without HTML escaping (it changes nothing else then); a string's
// own spaces are kept.
func appendCompacted(b, valid []byte) []byte {
	start := 0
	for i := 0; i < len(valid); i++ {
		switch valid[i] {
		case '"':
			for i++; i < len(valid) && valid[i] != '"'; i++ {
				if valid[i] == '\\' {
					i++
				}
			}
		case ' ', '\t', '\n', '\r':
			b = append(b, valid[start:i]...)
			start = i + 1
		}
	}
	return append(b, valid[start:]...)
}
