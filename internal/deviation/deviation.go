// Package deviation carries what a failure's reports lay out apart — what
// was sent, what came back and what was wanted — from the code that finds
// the failure to the result, as data beside the failure's text: a report
// never recovers them by parsing the text, in which an implementation's
// own message could forge a label (D-72).
package deviation

import (
	"context"
	"errors"
)

// Parts are what a failure shows apart from its message. Got is the value
// compared with Want when the check names one, else what the
// implementation answered; any of them may be empty.
type Parts struct {
	Sent, Got, Want string
}

// IsZero reports whether p holds nothing.
func (p Parts) IsZero() bool { return p == Parts{} }

// Error is a failure whose text, as people read it, is Text, with its
// parts beside it. It wraps Err, if any.
type Error struct {
	Text string
	Parts
	Err error
}

func (e *Error) Error() string { return e.Text }

func (e *Error) Unwrap() error { return e.Err }

// Of is the parts err carries (the first *Error in its chain), or none.
func Of(err error) Parts {
	var e *Error
	if errors.As(err, &e) {
		return e.Parts
	}
	return Parts{}
}

// Noter keeps the parts of a failure that travels as text only: a
// property's, which reaches the runner through rapid's log.
type Noter interface {
	NoteParts(Parts)
}

type noterKey struct{}

// WithNoter is ctx carrying n, for the failures of a property check whose
// context derives from it.
func WithNoter(ctx context.Context, n Noter) context.Context {
	return context.WithValue(ctx, noterKey{}, n)
}

// Note hands p to f if f is a Noter, else to the Noter ctx carries, if
// any: the parts of the failure f is about to be told of.
func Note(ctx context.Context, f any, p Parts) {
	if n, ok := f.(Noter); ok {
		n.NoteParts(p)
		return
	}
	if ctx == nil {
		return
	}
	if n, ok := ctx.Value(noterKey{}).(Noter); ok {
		n.NoteParts(p)
	}
}
