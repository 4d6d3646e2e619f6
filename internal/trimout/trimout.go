// Package trimout reads a trimmer's output as the trimmer properties and
// the trimmer scenarios both judge it: its count by the declared bound
// (ANY-6), and the messages in it.
package trimout

import (
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
)

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
	for _, raw := range msgs {
		m, err := message.Parse(raw)
		if err != nil {
			continue
		}
		if d.Counter == protocol.CounterCl100k {
			n += budget.MessageTokens(m)
		} else {
			n += (m.ContentLength() + 3) / 4
		}
	}
	return n
}

// Messages is the elements of out that are messages, in order: what is not
// a message is ANY-1's to report, and the positions of ANY-2's report are
// those in the result.
func Messages(out []json.RawMessage) []message.Message {
	var msgs []message.Message
	for _, raw := range out {
		if m, err := message.Parse(raw); err == nil {
			msgs = append(msgs, m)
		}
	}
	return msgs
}
