package server

import (
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/window"
)

// Script is a validated summarizer script (spec/protocol.md, "The scripted
// summarizer") that records its calls: the reference's server and the Go
// adapter kit play scripts with this one implementation.
type Script struct{ s *scriptedSummarizer }

// NewScript validates s; a nil s is no summarizer (a nil *Script) unless
// required, when it is invalid_params.
func NewScript(s *protocol.SummarizerScript, required bool) (*Script, error) {
	sc, err := scripted(s, required)
	if err != nil || sc == nil {
		return nil, err
	}
	return &Script{s: sc}, nil
}

// Summarizer is the script as the callback an engine calls.
func (s *Script) Summarizer() window.Summarizer { return s.s }

// Calls are the calls made so far, in order, as the wire reports them.
func (s *Script) Calls() []protocol.SummarizerCall {
	s.s.mu.Lock()
	defer s.s.mu.Unlock()
	return wireCalls(s.s.calls)
}

// DecodeParams decodes a request's params into v, requiring the named
// members, with the errors the reference gives (invalid_params naming the
// member): the Go adapter kit decodes with it too.
func DecodeParams(params []byte, v any, requiredMembers ...string) error {
	return decodeParams(params, v, requiredMembers...)
}
