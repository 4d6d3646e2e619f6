package target

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
)

// exitedLineGrace is how long a response may trail the exit of the child
// that wrote it (the pipe is read by another goroutine).
const exitedLineGrace = 200 * time.Millisecond

// sameHandshake says whether a restarted implementation declared what the
// first one did: the harness chose its cases by the first handshake, so a
// change of name, version, capabilities or declared trimmers (ANY-10) is a
// protocol error.
func sameHandshake(a, b Info) bool {
	return a.Name == b.Name && a.Version == b.Version && slices.Equal(a.Capabilities, b.Capabilities) &&
		slices.EqualFunc(a.Trimmers, b.Trimmers, sameTrimmer)
}

func sameTrimmer(a, b protocol.TrimmerDecl) bool {
	return a.Name == b.Name && a.Bound == b.Bound && a.Counter == b.Counter &&
		slices.Equal(a.Formats, b.Formats) && slices.Equal(a.Guarantees, b.Guarantees)
}

func describeHandshakeChange(first, now Info) string {
	var diffs []string
	if first.Name != now.Name {
		diffs = append(diffs, fmt.Sprintf("name %q, now %q", first.Name, now.Name))
	}
	if first.Version != now.Version {
		diffs = append(diffs, fmt.Sprintf("version %q, now %q", first.Version, now.Version))
	}
	if !slices.Equal(first.Capabilities, now.Capabilities) {
		diffs = append(diffs, fmt.Sprintf("capabilities %v, now %v", first.Capabilities, now.Capabilities))
	}
	if !slices.EqualFunc(first.Trimmers, now.Trimmers, sameTrimmer) {
		diffs = append(diffs, fmt.Sprintf("trimmers %+v, now %+v", first.Trimmers, now.Trimmers))
	}
	return strings.Join(diffs, "; ")
}
