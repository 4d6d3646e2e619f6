package target

import "fmt"

// A line that answers no outstanding request — a second answer, or output
// of the implementation's own — is a protocol error of the request it
// repeats (the id it carries), or else of the request it follows
// (spec/protocol.md, "Lifecycle"; D-50). It is never charged to the request
// under way when it is read: that one is answered by the next line, and a
// second answer that arrives late would otherwise fail the next case, or
// the lifecycle's end, which a baseline entry may accept.

// Stray is a line that answered no outstanding request.
type Stray struct {
	// ID is the id of the request it is charged to.
	ID int64
	// Method is that request's method ("" when it is too old to be known).
	Method string
	// Detail says what came and when.
	Detail string
}

// Error says what the stray line was, as a failure of its request.
func (s Stray) Error() string {
	return fmt.Sprintf("%s during %s (request id %d): %s", ProtocolError, orUnknown(s.Method), s.ID, s.Detail)
}

func orUnknown(method string) string {
	if method == "" {
		return "an earlier request"
	}
	return method
}

// Bounds on what a Process remembers for strays: the methods of the last
// requests (a second answer to one older than that is charged by id, with
// its method unknown), and the strays themselves (one implementation that
// answers everything twice makes thousands; the first ones say it). Past
// maxStrays a line is kept only when it is charged to a request no kept
// line is: every request that drew one still fails its case, so that which
// cases fail does not depend on which ran first (D-97). Those are at most
// the requests sent.
const (
	rememberedRequests = 256
	maxStrays          = 64
)

// strayLedger is the strays of a Process, and what it needs to charge them.
// It is used with the Process's mutex held.
type strayLedger struct {
	methods map[int64]string
	strays  []Stray
	// charged are the requests a kept stray is charged to.
	charged map[int64]bool
	dropped int
}

// sent records a request.
func (l *strayLedger) sent(id int64, method string) {
	if l.methods == nil {
		l.methods = map[int64]string{}
	}
	l.methods[id] = method
	delete(l.methods, id-rememberedRequests)
}

// record charges a stray line to the request it repeats — the earlier id
// it carries, below next — or else to last, the request it followed.
func (l *strayLedger) record(line []byte, next, last int64, when string) {
	id := last
	if prev, ok := earlierID(line, next); ok {
		id = prev
	}
	if len(l.strays) >= maxStrays && l.charged[id] {
		l.dropped++ // counted, not written: a flood's lines cost no text
		return
	}
	what := "a line that answers no request"
	if id != last || answersID(line, last) {
		what = "a second answer"
	}
	if l.charged == nil {
		l.charged = map[int64]bool{}
	}
	l.charged[id] = true
	l.strays = append(l.strays, Stray{ID: id, Method: l.methods[id], Detail: fmt.Sprintf("%s arrived %s: %s", what, when, abbreviate(line))})
}

// take returns the strays recorded so far and forgets them.
func (l *strayLedger) take() []Stray {
	out := l.strays
	if l.dropped > 0 && len(out) > 0 {
		out[len(out)-1].Detail += fmt.Sprintf(" (and %d more stray lines)", l.dropped)
	}
	l.strays, l.charged, l.dropped = nil, nil, 0
	return out
}

// earlierID reports whether line is a response whose id is an integer
// request id below next: a second answer to an earlier request (ids are
// sent in sequence from 1).
func earlierID(line []byte, next int64) (int64, bool) { return readAnswer(line).earlier(next) }

func answersID(line []byte, id int64) bool {
	got, ok := responseID(line)
	return ok && got == id
}

func responseID(line []byte) (int64, bool) { return readAnswer(line).id() }

// Strays returns the stray lines seen since the last call, each charged to
// the request it repeats or follows, and forgets them. The runner charges
// them to the cases that sent those requests.
func (p *Process) Strays() []Stray {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ledger.take()
}

// LastRequestID is the id of the last request sent (0 before the first):
// every later request has a greater one. The runner notes it when a case
// begins, to know which case a stray's request belonged to.
func (p *Process) LastRequestID() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nextID
}
