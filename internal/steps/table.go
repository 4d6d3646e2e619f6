package steps

import (
	"fmt"
	"reflect"
	"regexp"

	"github.com/cucumber/godog"
)

// Each capability declares its steps in one table: what each step is, its
// pattern, and the method that runs it. A table is compiled once, when the
// package is initialised, and register binds it to a scenario's state:
// godog uses a *regexp.Regexp as given but compiles a string pattern at
// every registration, that is for every scenario (BENCHMARKS.md, "Step
// patterns compiled once").

// kind is what a step is to its scenario.
type kind int

const (
	given kind = iota
	when
	// then is a Then whose failure is recorded as a deviation, and the
	// next Then checked (then.go).
	then
	// diagnostic is a Then that checks a warning or an exact free text: a
	// diagnostic in a scenario of any level, which passes unchecked for an
	// implementation that does not declare diagnostics (D-42).
	diagnostic
	// thenEnds is a Then whose failure ends the scenario, as a Given's
	// does. The trimmer Thens are plain Thens: each reports every failing
	// trimmer as a deviation of its own (D-60).
	thenEnds
)

// def is one step as a capability declares it: its kind, its pattern, and
// the method of S that runs it, as a method expression such as
// (*budgetSteps).encode.
type def[S any] struct {
	kind    kind
	pattern string
	method  any
}

// table is a capability's steps, compiled; S is the state its methods
// run on.
type table[S any] []step

// step is a def compiled: its pattern, its method, and the type the
// method has once bound to a receiver, which is what godog is given.
type step struct {
	kind   kind
	re     *regexp.Regexp
	method reflect.Value
	bound  reflect.Type
}

var errorType = reflect.TypeFor[error]()

// newTable compiles defs. A def whose method is not a method of *S
// returning an error is a programming error: it panics, when the package
// is initialised.
func newTable[S any](defs []def[S]) table[S] {
	recv := reflect.TypeFor[*S]()
	t := make(table[S], len(defs))
	for i, d := range defs {
		m := reflect.ValueOf(d.method)
		mt := m.Type()
		if mt.Kind() != reflect.Func || mt.NumIn() == 0 || mt.In(0) != recv {
			panic(fmt.Sprintf("steps: the step %s must be a method expression of %v", d.pattern, recv))
		}
		if mt.NumOut() != 1 || mt.Out(0) != errorType {
			panic(fmt.Sprintf("steps: the step %s must return an error", d.pattern))
		}
		in := make([]reflect.Type, mt.NumIn()-1)
		for j := range in {
			in[j] = mt.In(j + 1)
		}
		t[i] = step{
			kind:   d.kind,
			re:     regexp.MustCompile(d.pattern),
			method: m,
			bound:  reflect.FuncOf(in, []reflect.Type{errorType}, mt.IsVariadic()),
		}
	}
	return t
}

// register adds the steps of t to sc, run on recv; w is the scenario's
// world, where the Thens record their deviations.
func register[S any](sc *godog.ScenarioContext, w *world, recv *S, t table[S]) {
	registerSteps(sc, w, reflect.ValueOf(recv), t)
}

// registerSteps is register once the receiver's type is checked. It is not
// generic because godog records where each step is registered: the name
// of a generic function is built anew, an allocation, for every step of
// every scenario.
func registerSteps(sc *godog.ScenarioContext, w *world, recv reflect.Value, steps []step) {
	for i := range steps {
		s := &steps[i]
		handler := reflect.MakeFunc(s.bound, func(args []reflect.Value) []reflect.Value {
			return w.run(s, recv, args)
		}).Interface()
		switch s.kind {
		case given:
			sc.Given(s.re, handler)
		case when:
			sc.When(s.re, handler)
		default:
			sc.Then(s.re, handler)
		}
	}
}

// call runs s's method on recv.
func (s *step) call(recv reflect.Value, args []reflect.Value) error {
	in := make([]reflect.Value, 0, len(args)+1)
	in = append(append(in, recv), args...)
	err, _ := s.method.Call(in)[0].Interface().(error)
	return err
}
