package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/result"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/prop"
)

// A line that answers no outstanding request is charged to the request it
// repeats (spec/protocol.md, "Lifecycle"; D-50), and so to the case that
// sent that request — never to the case that happened to be running when
// the line was read, nor to lifecycle/shutdown, which a baseline entry may
// accept. A Process records such lines with the request id they are charged
// to; each worker notes the last request id when it begins a case, so that
// an id names the case it belonged to.

// strayer is a target that records stray lines: a *target.Process.
type strayer interface {
	Strays() []target.Stray
	LastRequestID() int64
}

// epoch is one case on one worker: its requests have ids above after.
type epoch struct {
	after int64
	id    string
}

// open begins an epoch on g for the case id.
func (g *guard) open(id string) {
	g.caseID = id
	st, ok := g.Target.(strayer)
	if !ok {
		return
	}
	g.epochs = append(g.epochs, epoch{after: st.LastRequestID(), id: id})
}

// caseOf is the case that sent the request of id on g: the epoch it falls
// in, or the first case for a request before any (the handshake).
func (g *guard) caseOf(id int64) string {
	i, _ := slices.BinarySearchFunc(g.epochs, id, func(e epoch, id int64) int {
		if e.after < id {
			return -1
		}
		return 1
	})
	if i > 0 {
		i--
	}
	if i < len(g.epochs) {
		return g.epochs[i].id
	}
	return ""
}

// maxStrayNotes bounds the stray lines a case's detail names.
const maxStrayNotes = 3

// chargeStrays takes the stray lines every worker has recorded and makes
// each the protocol error of the case that sent the request it repeats.
func (p *pool) chargeStrays(results []result.Result) error {
	index := make(map[string]int, len(results))
	for i, r := range results {
		index[r.ID] = i
	}
	notes := map[string]int{}
	for n, g := range p.all {
		st, ok := g.Target.(strayer)
		if !ok {
			continue
		}
		for _, s := range st.Strays() {
			id := g.caseOf(s.ID)
			i, ok := index[id]
			switch {
			case (id == "" || !ok) && p.ctx.Err() != nil:
				continue // interrupted: its case may not have completed, and the run fails anyway
			case id == "" || !ok:
				return fmt.Errorf("worker %d of %d: %v, which no case of the run sent", n+1, len(p.all), s.Error())
			}
			charge(&results[i], s, notes)
			// A case that took the answer to that request from the run's
			// answers is charged as its sender is (D-97): which of them
			// asked first, and sent it, must not decide which fails.
			for _, taker := range p.answers.Takers(prop.Request{Worker: g, ID: s.ID}) {
				if i, ok := index[taker]; ok {
					charge(&results[i], s, notes)
				}
			}
		}
	}
	return nil
}

// charge makes the stray line s a protocol error of r; notes counts the
// lines each case's detail names.
func charge(r *result.Result, s target.Stray, notes map[string]int) {
	id := r.ID
	switch notes[id]++; {
	case notes[id] <= maxStrayNotes:
		r.Detail = strings.TrimLeft(strings.TrimRight(r.Detail, "\n")+"\n"+s.Error(), "\n")
	case notes[id] == maxStrayNotes+1:
		r.Detail += "\n(more stray lines follow; the first ones are named above)"
	}
	switch r.Outcome {
	case result.Timeout, result.Crash, result.ProtocolError:
	default:
		r.Outcome = result.ProtocolError
		r.Deviations = nil // not a deviation: the implementation broke the protocol
	}
}

// ChargeStrays charges the stray lines seen since the run ended — by the
// lifecycle's end (Shutdown) — to the cases of results, as RunWorkers does
// for those seen during the run.
func (s Summary) ChargeStrays(results []result.Result) error {
	if s.pool == nil {
		return nil
	}
	return s.pool.chargeStrays(results)
}
