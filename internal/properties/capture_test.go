package properties

import (
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/prop"
)

// quietRapid keeps rapid from writing fail files for the failures these
// tests provoke on purpose, bounds shrinking and fixes the seed, so that
// what is caught, and under which clause, is the same on every run; flags
// are restored after.
func quietRapid(t *testing.T) {
	for name, value := range map[string]string{"rapid.nofailfile": "true", "rapid.shrinktime": "0s", "rapid.seed": "1"} {
		f := flag.Lookup(name)
		if f == nil {
			t.Fatalf("rapid has no flag %s", name)
		}
		old := f.Value.String()
		if err := flag.Set(name, value); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = flag.Set(name, old) })
	}
}

// runAllCaptured runs a property's examples, then its random checks, as
// the runner does, recording instead of failing the test.
func runAllCaptured(p prop.Property, tg target.Target) (failed bool, out string) {
	for _, ex := range p.Examples {
		rec := &recorder{name: p.ID + "/" + ex.Name}
		func() {
			defer func() {
				if r := recover(); r != nil && r != errStop {
					rec.failed = true
					fmt.Fprintf(&rec.out, "panic: %v\n", r)
				}
			}()
			ex.Run(rec, tg)
		}()
		if rec.failed {
			return true, rec.out.String()
		}
	}
	if p.Check == nil {
		return false, ""
	}
	return runCaptured(p.ID, func(rt *rapid.T) { p.Check(rt, tg) })
}

// runCaptured runs a rapid check with a TB that records instead of
// failing the test.
func runCaptured(name string, prop func(*rapid.T)) (failed bool, out string) {
	rec := &recorder{name: name}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errStop {
				rec.failed = true
				fmt.Fprintf(&rec.out, "panic: %v\n", r)
			}
		}()
		rapid.Check(rec, prop)
	}()
	return rec.failed, rec.out.String()
}

var errStop = errors.New("stop")

// recorder is a rapid.TB whose failures are recorded; FailNow panics
// errStop, which runCaptured recovers.
type recorder struct {
	name   string
	failed bool
	out    strings.Builder
}

func (r *recorder) Helper() {}

func (r *recorder) Name() string { return r.name }

func (r *recorder) Logf(f string, args ...any) { fmt.Fprintf(&r.out, f+"\n", args...) }

func (r *recorder) Log(args ...any) { fmt.Fprintln(&r.out, args...) }

func (r *recorder) Skipf(f string, args ...any) {
	r.Logf(f, args...)
	r.SkipNow()
}

func (r *recorder) Skip(args ...any) { r.Log(args...); r.SkipNow() }

func (r *recorder) SkipNow() { r.failed = true; r.Log("skipped"); panic(errStop) }

func (r *recorder) Errorf(f string, args ...any) {
	r.failed = true
	r.Logf(f, args...)
}

func (r *recorder) Error(args ...any) { r.failed = true; r.Log(args...) }

func (r *recorder) Fatalf(f string, args ...any) {
	r.Errorf(f, args...)
	panic(errStop)
}

func (r *recorder) Fatal(args ...any) { r.Error(args...); panic(errStop) }

func (r *recorder) FailNow() { r.failed = true; panic(errStop) }

func (r *recorder) Fail() { r.failed = true }

func (r *recorder) Failed() bool { return r.failed }
