package server

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// Encoding the results that return messages. encoding/json encodes a
// json.RawMessage by checking it whole and writing it without its
// insignificant white space; the messages of a result are the bytes of
// message.Message values, which are valid JSON (a message is made only by
// message's parsers, from text json.Valid accepted, or by message.New), so
// checking them again as encoding/json does — most of the cost of encoding a
// trim's answer — finds nothing. Here each list of messages is encoded by
// encoding/json as a placeholder, and written in its place without its
// white space, checked only by jsonscan.Valid's single pass, so that an
// engine's bytes that are not JSON never reach the line (D-90). The bytes are Marshal's (FuzzEncodeResultAsMarshal).

// EncodeResult writes a result h answered as a response line carries it:
// Marshal's bytes (no HTML escaping), by encodeResult's shortcut when h is
// a Handler. The in-process target writes its results here too, so that
// it hands the harness the bytes the wire would.
func EncodeResult(h Responder, result any) ([]byte, error) {
	if _, ours := h.(*Handler); ours {
		return encodeResult(result) // its messages are message.Message values
	}
	return Marshal(result)
}

// encodeResult is Marshal(result) for a result of a Handler's own.
func encodeResult(result any) ([]byte, error) {
	var lists [][]json.RawMessage
	hole := func(list []json.RawMessage) []json.RawMessage {
		if list == nil {
			return nil // null, as it is
		}
		lists = append(lists, list)
		return []json.RawMessage{placeholder(len(lists) - 1)}
	}
	var holed any
	switch r := result.(type) {
	case protocol.TrimmerTrimResult:
		r.Messages = hole(r.Messages)
		holed = r
	case protocol.WindowTrimResult:
		r.Trimmed, r.Evicted = hole(r.Trimmed), hole(r.Evicted)
		holed = r
	case protocol.BudgetPruneResult:
		r.Messages = hole(r.Messages)
		holed = r
	case protocol.HistoryPruneResult:
		r.Messages = hole(r.Messages)
		holed = r
	case protocol.HistoryBuildResult:
		r.Messages = hole(r.Messages)
		holed = r
	case protocol.LoopRunResult:
		if r.Requests != nil {
			reqs := make([]protocol.LoopRequest, len(r.Requests))
			for i, q := range r.Requests {
				reqs[i] = q
				reqs[i].Messages = hole(q.Messages)
			}
			r.Requests = reqs
		}
		if r.Iterations != nil {
			its := make([]protocol.LoopIterationResult, len(r.Iterations))
			for i, it := range r.Iterations {
				its[i] = it
				its[i].State = hole(it.State)
			}
			r.Iterations = its
		}
		holed = r
	}
	if len(lists) == 0 {
		return Marshal(result)
	}
	for _, list := range lists {
		for _, m := range list {
			if m != nil && !jsonscan.Valid(m) {
				// Not JSON: a faulty engine's own bytes, never a parsed
				// message's. encoding/json says what is wrong, and the
				// line stays JSON (an internal_error).
				return Marshal(result)
			}
		}
	}
	enc, err := Marshal(holed)
	if err != nil {
		return Marshal(result)
	}
	if b, ok := fill(enc, lists); ok {
		return b, nil
	}
	return Marshal(result)
}

// placeholderPrefix begins every placeholder as encoding/json writes it:
// a list holding one string, a NUL and the list's number.
const placeholderPrefix = `["\u0000`

func placeholder(k int) json.RawMessage {
	return json.RawMessage(`"\u0000` + strconv.Itoa(k) + `"`)
}

// fill writes enc with each placeholder replaced by its list. ok is false
// unless enc holds exactly one placeholder for each list and nothing else
// that starts like one (a message of some other member may hold that
// text; the result is then encoded whole).
func fill(enc []byte, lists [][]json.RawMessage) (b []byte, ok bool) {
	size := len(enc)
	for _, list := range lists {
		for _, m := range list {
			size += len(m) + 1
		}
	}
	b = make([]byte, 0, size)
	seen := make([]bool, len(lists))
	found := 0
	for {
		i := bytes.Index(enc, []byte(placeholderPrefix))
		if i < 0 {
			break
		}
		rest := enc[i+len(placeholderPrefix):]
		end := bytes.IndexByte(rest, '"')
		if end < 1 || end+1 >= len(rest) || rest[end+1] != ']' {
			return nil, false
		}
		k, err := strconv.Atoi(string(rest[:end]))
		if err != nil || k < 0 || k >= len(lists) || seen[k] || string(rest[:end]) != strconv.Itoa(k) {
			return nil, false
		}
		seen[k] = true
		found++
		b = append(b, enc[:i]...)
		b = appendMessages(b, lists[k])
		enc = rest[end+2:]
	}
	if found != len(lists) {
		return nil, false
	}
	return append(b, enc...), true
}

// appendMessages appends a list that is not nil as encoding/json writes a
// []json.RawMessage of valid JSON texts.
func appendMessages(b []byte, list []json.RawMessage) []byte {
	b = append(b, '[')
	for i, m := range list {
		if i > 0 {
			b = append(b, ',')
		}
		if m == nil {
			b = append(b, "null"...)
			continue
		}
		b = jsonscan.AppendCompact(b, m, false)
	}
	return append(b, ']')
}
