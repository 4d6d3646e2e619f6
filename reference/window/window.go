// Package window is the count-based sliding window of convspec: it keeps a
// conversation within max_messages by always keeping a preserved head and
// tail and evicting the oldest messages between them (spec WIN-*), estimates
// tokens at four characters a token (EST-*) and reports metrics (MET-*).
package window

import (
	"fmt"
	"sync"

	"github.com/convspec/convspec/reference/message"
)

// Warning is a condition worth telling the user about that does not stop the
// operation. Code is stable; Message is for people.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// CodePreserveExceedsMax is raised when preserve_first_n + preserve_last_n
// is at least max_messages (CFG-6, WIN-3).
const CodePreserveExceedsMax = "preserve_exceeds_max"

func preserveExceedsMax(c Config) Warning {
	return Warning{
		Code: CodePreserveExceedsMax,
		Message: fmt.Sprintf("preserve_first_n (%d) + preserve_last_n (%d) >= max_messages (%d): only the preserved head and tail are kept",
			c.PreserveFirstN, c.PreserveLastN, c.MaxMessages),
	}
}

// Metrics describe one trim (MET-1).
type Metrics struct {
	TotalMessages     int `json:"totalMessages"`
	PreservedMessages int `json:"preservedMessages"`
	EvictedMessages   int `json:"evictedMessages"`
	EstimatedTokens   int `json:"estimatedTokens"`
}

// Result is what Trim returns. Trimmed and Evicted are never nil.
type Result struct {
	Trimmed  []message.Message
	Evicted  []message.Message
	Metrics  Metrics
	Warnings []Warning
	// Summary is the summary message inserted into Trimmed, if any.
	Summary *message.Message
	// SummarizerCalls are the calls the trim made to its summarizer.
	SummarizerCalls []SummarizerCall
}

// Window trims conversations with one configuration. It remembers, for
// summarization, the messages evicted since its last summary.
type Window struct {
	cfg Config

	mu      sync.Mutex
	pending []message.Message
}

// New validates cfg and returns a window using it.
func New(cfg Config) (*Window, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Window{cfg: cfg}, nil
}

// Config is the window's effective configuration.
func (w *Window) Config() Config { return w.cfg }

// Trim applies the sliding window to msgs (WIN-1–WIN-9), keeping every
// tool-call unit whole. It fails with a *message.Error wrapping
// message.ErrInvalid when the tool structure is malformed (UNIT-2). It never
// modifies msgs and shares no backing array with it.
func (w *Window) Trim(msgs []message.Message) (Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return Result{}, err
	}
	return w.Apply(w.cfg.Plan(units), msgs), nil
}

// Apply cuts msgs along p and computes the metrics and warnings.
func (w *Window) Apply(p Plan, msgs []message.Message) Result {
	res := Result{
		Trimmed: make([]message.Message, 0, len(msgs)-p.Evicted()),
		Evicted: make([]message.Message, 0, p.Evicted()),
	}
	res.Trimmed = append(res.Trimmed, msgs[:p.HeadEnd]...)
	res.Evicted = append(res.Evicted, msgs[p.HeadEnd:p.KeepFrom]...)
	res.Trimmed = append(res.Trimmed, msgs[p.KeepFrom:]...)
	if p.HeadOnly {
		res.Warnings = append(res.Warnings, preserveExceedsMax(w.cfg))
	}
	res.Metrics = Metrics{
		TotalMessages:     len(msgs),
		PreservedMessages: len(res.Trimmed),
		EvictedMessages:   len(res.Evicted),
		EstimatedTokens:   EstimateTokens(res.Trimmed),
	}
	return res
}

// Plan says where a trim of N messages cuts. The kept messages are
// [0, HeadEnd) and [KeepFrom, N); the evicted ones are [HeadEnd, KeepFrom).
// The preserved tail is [TailStart, N); [KeepFrom, TailStart) is the kept
// part of the middle.
type Plan struct {
	N, HeadEnd, KeepFrom, TailStart int
	// HeadOnly is set when the trim took the head-and-tail-only path of WIN-3.
	HeadOnly bool
}

// Evicted is the number of messages the plan evicts.
func (p Plan) Evicted() int { return p.KeepFrom - p.HeadEnd }

// Plan computes the cut points of a trim of a conversation split into
// units (message.Units); every cut falls on a unit boundary (WIN-9).
func (c Config) Plan(units []message.Unit) Plan {
	if c.Disabled() { // CFG-5
		n := end(units)
		return Plan{N: n, HeadEnd: n, KeepFrom: n, TailStart: n}
	}
	return c.PlanCap(units, c.MaxMessages)
}

func end(units []message.Unit) int {
	if len(units) == 0 {
		return 0
	}
	return units[len(units)-1].End
}

// PlanCap plans with a cap taken literally, 0 leaving room for nothing;
// a summarizing trim plans with MaxMessages − 1 (SUM-3).
func (c Config) PlanCap(units []message.Unit, limit int) Plan {
	n := end(units)
	if n <= limit { // WIN-1
		return Plan{N: n, HeadEnd: n, KeepFrom: n, TailStart: n}
	}
	// WIN-2, WIN-9: the head takes what it can, rounded up to the end of a
	// unit; the tail only what the head left, rounded back to a unit start.
	headEnd := boundaryAtOrAfter(units, min(c.PreserveFirstN, n), n)
	tailStart := boundaryAtOrBefore(units, n-min(c.PreserveLastN, n-headEnd), headEnd, n)
	preserved := headEnd + n - tailStart
	if preserved >= limit { // WIN-3
		return Plan{N: n, HeadEnd: headEnd, KeepFrom: tailStart, TailStart: tailStart, HeadOnly: true}
	}
	// WIN-4: the most recent whole units of the middle that fit.
	keepFrom := boundaryAtOrAfter(units, tailStart-(limit-preserved), tailStart)
	return Plan{N: n, HeadEnd: headEnd, KeepFrom: keepFrom, TailStart: tailStart}
}

// boundaryAtOrAfter is the first unit start at or after i, or end.
func boundaryAtOrAfter(units []message.Unit, i, end int) int {
	for _, u := range units {
		if u.Start >= i {
			return min(u.Start, end)
		}
	}
	return end
}

// boundaryAtOrBefore is the last unit boundary (a unit start, or end) at or
// before i, but not before floor.
func boundaryAtOrBefore(units []message.Unit, i, floor, end int) int {
	if i >= end {
		return end
	}
	b := floor
	for _, u := range units {
		if u.Start > i {
			break
		}
		b = max(b, u.Start)
	}
	return b
}

// EstimateTokens is ceil(C / 4) where C is the total character count of the
// messages' content (EST-1).
func EstimateTokens(msgs []message.Message) int {
	chars := 0
	for _, m := range msgs {
		chars += m.ContentLength()
	}
	return (chars + 3) / 4
}
