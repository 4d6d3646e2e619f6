package target

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// exitedLineGrace is how long a response may trail the exit of the child
// that wrote it (the pipe is read by another goroutine).
const exitedLineGrace = 200 * time.Millisecond

// sameHandshake says whether a restarted implementation declared what the
// first one did: the harness chose its cases by the first handshake, so a
// change of name, version or capabilities is a protocol error.
func sameHandshake(a, b Info) bool {
	return a.Name == b.Name && a.Version == b.Version && slices.Equal(a.Capabilities, b.Capabilities)
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
	return strings.Join(diffs, "; ")
}
