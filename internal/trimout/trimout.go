// Package trimout reads a trimmer's output as the trimmer properties and
// the trimmer scenarios both judge it: its count by the declared bound
// (ANY-6), and the messages in it. It is the judge's, so it reads messages
// with the judge's own reader (internal/judgemsg) and measures text with
// internal/ecmajson, never with the reference's reader (D-64).
package trimout

import (
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/ecmajson"
	"github.com/convspec/convspec/internal/judgemsg"
)

// Msg is a message as a caller holds it: the judge's own
// (judgemsg.Message), or another reader's, which the judge reads again
// from its bytes.
type Msg interface{ Raw() json.RawMessage }

// view is in as the judge reads it; a message it cannot read is the zero
// Message (class other), which only a caller that did not read in first
// can hold.
func view[M Msg](in []M) []judgemsg.Message {
	if v, ok := any(in).([]judgemsg.Message); ok {
		return v
	}
	out := make([]judgemsg.Message, len(in))
	for i, m := range in {
		out[i], _ = judgemsg.Parse(m.Raw())
	}
	return out
}

// Count counts msgs by d's bound: messages, cl100k tokens (TOK-2) or
// ⌈characters / 4⌉ per message (EST-2 – EST-5), summed. A message that
// cannot be read counts 0: ANY-1 reports it.
//
// A second declaration may count otherwise (countV2); a native counter is
// the implementation's to answer (trimmer.count), and counts 0 here.
func Count(d protocol.TrimmerDecl, msgs []json.RawMessage) int {
	if n, ok := countV2(d, msgs); ok {
		return n
	}
	if d.Counter == protocol.CounterNative {
		return 0
	}
	if d.Bound == protocol.BoundMessages {
		return len(msgs)
	}
	n := 0
	for _, m := range judgemsg.Read(msgs) {
		if d.Counter == protocol.CounterCl100k {
			n += messageTokens(m)
		} else {
			n += (contentLength(m.Content()) + 3) / 4
		}
	}
	return n
}

// contentLength is EST-2 – EST-4's count of a content member; a read
// message's strings are well-formed, so it never fails.
func contentLength(content json.RawMessage) int {
	n, _ := ecmajson.ContentLength(content)
	return n
}

// Read is the elements of out that are messages, in order: what is not a
// message is ANY-1's to report, and the positions of ANY-2's report are
// those in the result.
func Read(out []json.RawMessage) []judgemsg.Message { return judgemsg.Read(out) }
