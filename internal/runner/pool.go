package runner

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/prop"
)

// pool holds the workers of a run: one guard per implementation process
// (a single one for a sequential run). A case borrows a worker for its
// whole length, so a stateful sequence — a window handle and the pending
// list of SUM-4 behind it — never spans two processes.
type pool struct {
	ctx  context.Context
	info target.Info
	free chan *guard
	all  []*guard
	// lineSender says whether the targets can send raw lines (all are of
	// one kind).
	lineSender bool
	// limitReached is set once any worker has failed more often than its
	// restart limit allows: the run then ends, as a sequential one does.
	limitReached atomic.Bool
	// progress tells Options.Progress of each case; nil without one.
	progress *progress
	// answers are the run's answers shared by the properties (D-97): the
	// workers run one implementation.
	answers *prop.Answers
}

func newPool(ctx context.Context, targets []target.Target) *pool {
	p := &pool{ctx: ctx, info: targets[0].Info(), free: make(chan *guard, len(targets)), answers: prop.NewAnswers()}
	_, p.lineSender = targets[0].(target.LineSender)
	for _, tg := range targets {
		g := newGuard(ctx, tg)
		g.pool = p
		g.answers = p.answers.For(g)
		p.all = append(p.all, g)
		p.free <- g
	}
	return p
}

// acquire borrows a worker for a case not yet named (a property; see
// nameProperties); acquireFor for the case id; release gives it back.
func (p *pool) acquireFor(id string) *guard {
	g := <-p.free
	g.open(id)
	return g
}
func (p *pool) release(g *guard) { p.free <- g }

// size is the number of workers.
func (p *pool) size() int { return len(p.all) }

// borrowed is the target a godog scenario's steps are registered with
// before the scenario has a worker: every call goes to the worker the
// scenario borrowed in its Before hook.
type borrowed struct {
	mu sync.Mutex
	g  *guard
}

func (b *borrowed) set(g *guard) { b.mu.Lock(); b.g = g; b.mu.Unlock() }

func (b *borrowed) current() *guard { b.mu.Lock(); defer b.mu.Unlock(); return b.g }

// Info implements target.Target.
func (b *borrowed) Info() target.Info { return b.current().Info() }

// Call implements target.Target.
func (b *borrowed) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return b.current().Call(ctx, method, params)
}

// Close implements target.Target: the pool closes the workers.
func (b *borrowed) Close() error { return nil }

// borrowedLines is borrowed over targets that send raw lines.
type borrowedLines struct{ *borrowed }

// SendLine implements target.LineSender.
func (b borrowedLines) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	g := b.current()
	return lineGuard{guard: g, ls: g.Target.(target.LineSender)}.SendLine(ctx, line)
}

// stepTarget is what a scenario's steps talk to.
func (p *pool) stepTarget() (*borrowed, target.Target) {
	b := &borrowed{}
	if p.lineSender {
		return b, borrowedLines{b}
	}
	return b, b
}
