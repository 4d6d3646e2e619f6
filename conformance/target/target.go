// Package target is the seam between the conformance suite and an
// implementation under test. Scenarios and properties talk only to a Target;
// Process supervises an external program speaking protocol v1 (the
// built-in reference is served without a process by internal/inprocess).
package target

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/trimdecl"
)

// Target is an implementation under test.
type Target interface {
	// Info is what the implementation declared in its handshake.
	Info() Info
	// Call sends one request and returns its result. An error is either a
	// *protocol.Error (the implementation answered with an error) or a
	// *Failure (it did not answer according to the protocol).
	Call(ctx context.Context, method string, params any) (json.RawMessage, error)
	// Close ends the session and releases every resource, child processes
	// included.
	Close() error
}

// Info is an implementation's handshake.
type Info struct {
	Name         string
	Version      string
	Capabilities []string
	// Trimmers are the trimmers of capability trimmer (ANY-10).
	Trimmers []protocol.TrimmerDecl
	// Levels and Formats are what it declared; nil means it declared none,
	// which stands for all (D-42).
	Levels  []string
	Formats []string
}

// Has reports whether the implementation declared a capability; for
// "trimmer/<guarantee>", whether a declared trimmer claims it.
func (i Info) Has(capability string) bool {
	if protocol.IsGuaranteeCapability(capability) {
		return i.claimed(capability)
	}
	return slices.Contains(i.Capabilities, capability)
}

// HasLevel reports whether the implementation implements a level: it
// declared it, or declared no levels at all (D-42).
func (i Info) HasLevel(level string) bool {
	return i.Levels == nil || slices.Contains(i.Levels, level)
}

// HasFormat reports whether the implementation reads a provider format: it
// declared it, or declared no formats at all (D-42).
func (i Info) HasFormat(format string) bool {
	return i.Formats == nil || slices.Contains(i.Formats, format)
}

// AllowedFormats lists the formats the implementation reads, in the order
// of protocol.Formats.
func (i Info) AllowedFormats() []string {
	var out []string
	for _, f := range protocol.Formats() {
		if i.HasFormat(f) {
			out = append(out, f)
		}
	}
	return out
}

// Outcome classifies a Failure.
type Outcome string

// Failure outcomes (spec/protocol.md, "Supervision").
const (
	Timeout       Outcome = "timeout"
	Crash         Outcome = "crash"
	ProtocolError Outcome = "protocol_error"
)

// Failure is an implementation that did not answer according to the protocol.
type Failure struct {
	Outcome Outcome
	Method  string
	Detail  string
	// StderrTail holds the last lines the implementation wrote to stderr.
	StderrTail string
	// Err is the cause, if any (ErrRestartLimit, say), for errors.Is.
	Err error
}

// Unwrap returns the cause.
func (f *Failure) Unwrap() error { return f.Err }

// Error says what went wrong in one line, without the stderr tail: the
// error travels inside step and property messages, which would repeat it.
// Report adds the tail.
func (f *Failure) Error() string {
	return fmt.Sprintf("%s during %s: %s", f.Outcome, f.Method, f.Detail)
}

// Report is Error followed by the last lines of stderr, if any.
func (f *Failure) Report() string {
	if f.StderrTail == "" {
		return f.Error()
	}
	return fmt.Sprintf("%s\nlast lines of stderr:\n%s", f.Error(), indent(f.StderrTail))
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  | " + l
	}
	return strings.Join(lines, "\n")
}

// DecodeHandshake decodes the result of initialize (PROTO-1) into the
// implementation's Info, or a *Failure with outcome ProtocolError when it is
// malformed or names another protocol version.
func DecodeHandshake(raw json.RawMessage) (Info, error) {
	var r protocol.InitializeResult
	if err := DecodeResult(protocol.MethodInitialize, raw, &r); err != nil {
		return Info{}, &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize, Detail: err.Error()}
	}
	if r.Protocol != protocol.Version {
		return Info{}, &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize,
			Detail: fmt.Sprintf("implementation speaks protocol %d, the suite speaks %d", r.Protocol, protocol.Version)}
	}
	if err := trimdecl.CheckTrimmers(r.Capabilities, r.Trimmers); err != nil {
		return Info{}, &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize, Detail: err.Error()}
	}
	if err := checkDeclared("levels", r.Levels, protocol.Levels()); err != nil {
		return Info{}, err
	}
	if err := checkDeclared("formats", r.Formats, protocol.Formats()); err != nil {
		return Info{}, err
	}
	info := Info{Name: r.Implementation.Name, Version: r.Implementation.Version, Capabilities: r.Capabilities,
		Levels: r.Levels, Formats: r.Formats}
	if info.Has(protocol.CapTrimmer) {
		info.Trimmers = r.Trimmers
	}
	return info, nil
}

// checkDeclared refuses a declared list that is present but empty or names
// something the protocol does not know: a typo must not silently turn every
// case into not applicable.
func checkDeclared(member string, got, known []string) error {
	if got == nil {
		return nil
	}
	if len(got) == 0 {
		return &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize,
			Detail: fmt.Sprintf("%s is empty: declare at least one of %s, or leave the member out for all", member, strings.Join(known, ", "))}
	}
	for _, g := range got {
		if !slices.Contains(known, g) {
			return &Failure{Outcome: ProtocolError, Method: protocol.MethodInitialize,
				Detail: fmt.Sprintf("%s names %q; want some of %s", member, g, strings.Join(known, ", "))}
		}
	}
	return nil
}

// LineSender is implemented by targets that can send a raw line, so that
// scenarios can check how an implementation answers input that is not a
// valid request (PROTO-2).
type LineSender interface {
	// SendLine writes line (a newline is added) and returns the response
	// line, or a *Failure.
	SendLine(ctx context.Context, line []byte) ([]byte, error)
}
