package prop

import (
	"slices"
	"sync"

	"github.com/convspec/convspec/conformance/target"
)

// Answers keeps, for one run against one implementation, the answers to
// questions whose answer the spec makes a function of the question alone
// (MSG-3: a trimmer's trim of a conversation, a prune, a count), so that
// the properties asking the same question share one request (D-97). The
// properties draw their cases from the run's seed, so that ten trimmer
// properties ask each declared trimmer the same questions: asked once
// each, a run sends a third fewer requests.
//
// Only answers are kept, never errors: a failure is asked again, and is
// charged to the case that asked. Answers hold at most maxAnswerBytes of
// questions and answers; past that, each question is asked every time.
//
// An Answers is the run's store as one asker sees it (For): the store
// remembers, for each answer it keeps, the request that got it and every
// other case it answered (Takers), so that what the implementation did
// after that answer — a second answer, a stray line — is charged to every
// case that took it, whichever asked first.
type Answers struct {
	store *answerStore
	asker Asker // nil: an asker the store does not follow
}

type answerStore struct {
	mu    sync.Mutex
	kept  map[string]*keptAnswer
	sent  map[Request]*keptAnswer // the kept answers by the request that got them
	bytes int
}

// keptAnswer is one kept answer: its value, the case that sent the request
// that got it (answerStore.sent indexes it by that request), and the other
// cases it answered.
type keptAnswer struct {
	value  any
	sender string
	takers []string
}

// Request names one request of a run: the worker it went to and its id
// there. The zero Request is none.
type Request struct {
	Worker any // comparable: the runner's worker
	ID     int64
}

// Asker is who asks a store's question: a run's worker, which knows the
// case it runs and the request its last call sent.
type Asker interface {
	// Asking is the case now asking.
	Asking() string
	// LastSent is the request the last call sent; the zero Request when
	// the worker does not number its requests (in process).
	LastSent() Request
}

// maxAnswerBytes bounds what a run keeps: a run at many more checks than
// the default must not grow without bound (a default run keeps about 10 MiB).
const maxAnswerBytes = 64 << 20

// NewAnswers returns an empty store, for one run.
func NewAnswers() *Answers {
	return &Answers{store: &answerStore{kept: map[string]*keptAnswer{}, sent: map[Request]*keptAnswer{}}}
}

// For is a's store as asker asks it.
func (a *Answers) For(asker Asker) *Answers { return &Answers{store: a.store, asker: asker} }

// Takers are the cases other than its sender that took the answer to
// request r from the store, in the order they first took it; none when r
// got no kept answer.
func (a *Answers) Takers(r Request) []string {
	s := a.store
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.sent[r]; ok {
		return slices.Clone(k.takers)
	}
	return nil
}

// AnswersOf returns the store of the run tg is a worker of, nil when tg
// is not one (a property checked on its own asks every question).
func AnswersOf(tg target.Target) *Answers {
	if r, ok := tg.(interface{ RunAnswers() *Answers }); ok {
		return r.RunAnswers()
	}
	return nil
}

// Ask returns the answer kept for question, or asks it with ask and keeps
// what it answered; size is the bytes the answer holds. A nil store asks
// every time.
func Ask[T any](a *Answers, question string, size func(T) int, ask func() (T, error)) (T, error) {
	if a == nil {
		return ask()
	}
	s := a.store
	s.mu.Lock()
	k, ok := s.kept[question]
	if ok {
		a.took(k)
	}
	s.mu.Unlock()
	if ok {
		return k.value.(T), nil
	}
	v, err := ask()
	if err != nil {
		return v, err
	}
	var sent Request
	sender := ""
	if a.asker != nil {
		sent, sender = a.asker.LastSent(), a.asker.Asking()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := s.kept[question]; ok {
		a.took(k) // another worker asked it meanwhile: one answer for the run
		return k.value.(T), nil
	}
	if n := len(question) + size(v); s.bytes+n <= maxAnswerBytes {
		k := &keptAnswer{value: v, sender: sender}
		s.kept[question] = k
		if sent != (Request{}) {
			s.sent[sent] = k
		}
		s.bytes += n
	}
	return v, nil
}

// took records that a's asker took the kept answer k; the caller holds
// the store's lock.
func (a *Answers) took(k *keptAnswer) {
	if a.asker == nil {
		return
	}
	c := a.asker.Asking()
	if c != "" && c != k.sender && !slices.Contains(k.takers, c) {
		k.takers = append(k.takers, c)
	}
}
