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

// SameHandshake checks that a handshake declares what the first one did in
// every member that decides what is run: name, version, capabilities,
// levels, formats and trimmers (ANY-10, D-42, D-50). The harness chose its
// cases by the first handshake, so a restarted implementation, or another
// worker of `conform -parallel N`, that declares anything else would be
// sent cases it never claimed or be spared cases it did; the difference is
// a *Failure with outcome ProtocolError naming each member that differs.
// what says whose handshake now is ("after a restart", "of worker 2").
func SameHandshake(first, now Info, what string) error {
	diffs := handshakeChanges(first, now)
	if len(diffs) == 0 {
		return nil
	}
	return &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize,
		Detail: fmt.Sprintf("the handshake %s differs from the first: %s", what, strings.Join(diffs, "; "))}
}

func sameTrimmer(a, b protocol.TrimmerDecl) bool {
	return a.Name == b.Name && a.Bound == b.Bound && a.Counter == b.Counter &&
		slices.Equal(a.Formats, b.Formats) && slices.Equal(a.Guarantees, b.Guarantees)
}

// handshakeChanges names every member of now that differs from first. A
// list that is absent (nil: all, D-42) differs from any that is present.
func handshakeChanges(first, now Info) []string {
	var diffs []string
	if first.Name != now.Name {
		diffs = append(diffs, fmt.Sprintf("name %q, now %q", first.Name, now.Name))
	}
	if first.Version != now.Version {
		diffs = append(diffs, fmt.Sprintf("version %q, now %q", first.Version, now.Version))
	}
	list := func(member string, a, b []string) {
		if !slices.Equal(a, b) || (a == nil) != (b == nil) {
			diffs = append(diffs, fmt.Sprintf("%s %s, now %s", member, declared(a), declared(b)))
		}
	}
	list("capabilities", first.Capabilities, now.Capabilities)
	list("levels", first.Levels, now.Levels)
	list("formats", first.Formats, now.Formats)
	if !slices.EqualFunc(first.Trimmers, now.Trimmers, sameTrimmer) {
		diffs = append(diffs, fmt.Sprintf("trimmers %+v, now %+v", first.Trimmers, now.Trimmers))
	}
	return diffs
}

// declared shows a declared list, or says that there was none.
func declared(l []string) string {
	if l == nil {
		return "(absent)"
	}
	return fmt.Sprintf("%q", l)
}
