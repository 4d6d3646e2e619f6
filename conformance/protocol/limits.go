package protocol

// Limits both sides keep (spec/protocol.md, "Limits"): what a line may
// hold, so that neither side reads or builds without bound.
const (
	// MaxLineBytes is the longest line either side writes or reads: a
	// request or response line longer than this is refused — by the
	// harness as a protocol error, by the reference server with an error
	// response — never read whole.
	MaxLineBytes = 64 << 20
	// MaxResultBytes is the largest result the reference server answers
	// with: a request whose answer would be larger (a loop.run of
	// thousands of iterations with trimming off holds every request in
	// full) is refused with invalid_params naming the limit. It leaves
	// room under MaxLineBytes for the response's envelope.
	MaxResultBytes = MaxLineBytes - 1<<10
)
