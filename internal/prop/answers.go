package prop

import (
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
type Answers struct {
	mu    sync.Mutex
	kept  map[string]any
	bytes int
}

// maxAnswerBytes bounds what a run keeps: a run at many more checks than
// the default must not grow without bound (a default run keeps about 10 MiB).
const maxAnswerBytes = 64 << 20

// NewAnswers returns an empty store, for one run.
func NewAnswers() *Answers { return &Answers{kept: map[string]any{}} }

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
	a.mu.Lock()
	v, ok := a.kept[question]
	a.mu.Unlock()
	if ok {
		return v.(T), nil
	}
	v2, err := ask()
	if err != nil {
		return v2, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if kept, ok := a.kept[question]; ok {
		return kept.(T), nil // another worker asked it meanwhile: one answer for the run
	}
	if n := len(question) + size(v2); a.bytes+n <= maxAnswerBytes {
		a.kept[question] = v2
		a.bytes += n
	}
	return v2, nil
}
