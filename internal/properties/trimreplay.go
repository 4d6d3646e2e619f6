package properties

// Judging a recorded trimmer input by the guarantees alone. A golden
// trimmer case holds the reference's trimmers' names and outputs, which
// judge nothing about another implementation's trimmers (SPEC §8d, D-35):
// replay sends the recorded input to every declared trimmer that claims
// the case's guarantee and checks that guarantee on what comes back.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/judgemsg"
)

// CheckTrimmerGuarantee trims msgs to limit with every trimmer tg declares
// that claims guarantee, and checks the guarantee on each output as its
// property does (ANY-1 – ANY-9); a trimmer that does not declare the
// input's provider format is not sent it. The error names the clause and
// shows the input and the output of every trimmer that breaks it; nil when
// every such trimmer keeps it (or none claims it). msgs must be a well-formed conversation (ANY: the guarantees
// hold on well-formed input only).
func CheckTrimmerGuarantee(ctx context.Context, tg target.Target, guarantee string, msgs []json.RawMessage, limit int) error {
	var g *trimGuarantee
	for i := range trimGuarantees {
		if trimGuarantees[i].guarantee == guarantee {
			g = &trimGuarantees[i]
		}
	}
	if g == nil {
		return fmt.Errorf("no guarantee %q is checked on trimmer outputs", guarantee)
	}
	h, err := historyOf(msgs)
	if err != nil {
		return fmt.Errorf("the recorded conversation is no input for a trimmer guarantee: %w", err)
	}
	var fails []error
	for _, d := range tg.Info().Claiming(guarantee) {
		if !gen.SendsOnly(d.Formats, msgs) {
			continue // a trimmer is given only the formats it declares (D-35)
		}
		f := &stopFailer{}
		func() {
			defer f.recover()
			s := fixedSession(f, tg, g.clause)
			s.ctx = ctx
			c := newTrimCase(d, h)
			c.limit = limit
			g.checkCase(newTrimSession(s), c)
		}()
		if f.failure != "" {
			fails = append(fails, errors.New(f.failure)) // and the next trimmer is checked too (D-75)
		}
	}
	return errors.Join(fails...)
}

// historyOf is what a generated history knows, read back from recorded
// messages with the reference's classification (CLS-1, UNIT-1).
func historyOf(raws []json.RawMessage) (gen.History, error) {
	msgs, err := judgemsg.FromRaw(raws)
	if err != nil {
		return gen.History{}, err
	}
	units, err := judgemsg.Units(msgs)
	if err != nil {
		return gen.History{}, err
	}
	h := gen.History{Msgs: make([]gen.Message, len(msgs)), Units: make([][2]int, len(units))}
	for k, u := range units {
		h.Units[k] = [2]int{u.Start, u.End}
		for i := u.Start; i < u.End; i++ {
			m := msgs[i]
			h.Msgs[i] = gen.Message{Role: m.Role(), Seq: -1, Raw: raws[i], Class: string(m.Class()), IDs: m.ToolIDs(), Unit: h.Units[k]}
		}
	}
	return h, nil
}

// stopFailer ends a check at its first failure and keeps its message.
type stopFailer struct{ failure string }

// errCheckStopped is what stopFailer panics with to end the check.
var errCheckStopped = errors.New("check failed")

func (f *stopFailer) Helper() {}

func (f *stopFailer) Fatalf(format string, args ...any) {
	f.failure = fmt.Sprintf(format, args...)
	panic(errCheckStopped)
}

// recover ends the panic of Fatalf and passes any other one on.
func (f *stopFailer) recover() {
	if r := recover(); r != nil && r != errCheckStopped { //nolint:errorlint // the very value panicked with
		panic(r)
	}
}
