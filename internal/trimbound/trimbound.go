// Package trimbound counts a conversation as a declared trimmer bounds it
// (ANY-6): the one count the trimmer properties and the trimmer scenarios
// both judge the bound by.
package trimbound

import (
	"encoding/json"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/message"
)

// Count counts msgs by d's bound: messages, cl100k tokens (TOK-2) or
// ⌈characters / 4⌉ per message (EST-2 – EST-5), summed. A message that
// cannot be read counts 0: ANY-1 reports it.
func Count(d protocol.TrimmerDecl, msgs []json.RawMessage) int {
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
