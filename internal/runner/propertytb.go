package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/convspec/convspec/internal/deviation"
)

var errFailNow = errors.New("property failed")

// propertyTB is the rapid.TB a property reports to outside `go test`.
type propertyTB struct {
	name string
	// ctx is the run's context with the formats the properties may
	// generate (gen.WithFormats); rapid derives every case's
	// t.Context() from it.
	ctx    context.Context
	failed bool
	out    strings.Builder
	// replaying is set when rapid passes a shrinkBound's probe on: the
	// execution under way is rapid's final replay.
	replaying bool
	// parts are those of the last failure a property noted
	// (deviation.Note): what was sent, what came back and what was wanted,
	// which rapid's log carries as text only.
	parts deviation.Parts
}

// NoteParts keeps the parts of the failure about to be told.
func (t *propertyTB) NoteParts(p deviation.Parts) { t.parts = p }

func (t *propertyTB) Helper() {}
func (t *propertyTB) Context() context.Context {
	if t.ctx == nil {
		return context.Background()
	}
	return t.ctx
}
func (t *propertyTB) Name() string               { return t.name }
func (t *propertyTB) Logf(f string, args ...any) { fmt.Fprintf(&t.out, f+"\n", args...) }
func (t *propertyTB) Log(args ...any) {
	if len(args) == 1 {
		if _, ok := args[0].(replayProbe); ok {
			t.replaying = true
			return
		}
	}
	fmt.Fprintln(&t.out, args...)
}
func (t *propertyTB) Skipf(f string, args ...any) {
	t.Logf(f, args...)
	panic(errFailNow)
}
func (t *propertyTB) Skip(args ...any) { t.Log(args...); panic(errFailNow) }
func (t *propertyTB) SkipNow()         { panic(errFailNow) }
func (t *propertyTB) Errorf(f string, args ...any) {
	t.failed = true
	t.Logf(f, args...)
}
func (t *propertyTB) Error(args ...any) { t.failed = true; t.Log(args...) }
func (t *propertyTB) Fatalf(f string, args ...any) {
	t.Errorf(f, args...)
	panic(errFailNow)
}
func (t *propertyTB) Fatal(args ...any) { t.Error(args...); panic(errFailNow) }
func (t *propertyTB) FailNow()          { t.failed = true; panic(errFailNow) }
func (t *propertyTB) Fail()             { t.failed = true }
func (t *propertyTB) Failed() bool      { return t.failed }
