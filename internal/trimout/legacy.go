package trimout

import (
	"encoding/json"

	"github.com/convspec/convspec/reference/message"
)

// Messages is Read as the reference's messages, for the trimmer
// properties of internal/properties, which still judge with the
// reference's reader; once they read with internal/judgemsg (Read and
// judgemsg.Structure), this file goes, and the judge names nothing of the
// reference but its cl100k tokenizer (D-64).
func Messages(out []json.RawMessage) []message.Message {
	var msgs []message.Message
	for _, raw := range out {
		if m, err := message.Parse(raw); err == nil {
			msgs = append(msgs, m)
		}
	}
	return msgs
}
