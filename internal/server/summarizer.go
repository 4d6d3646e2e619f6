package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/reference/window"
)

// DefaultSummarizerTimeout applies when a script gives no timeout_ms.
const DefaultSummarizerTimeout = 30 * time.Second

// scriptedSummarizer plays a SummarizerScript and records the calls.
type scriptedSummarizer struct {
	script  protocol.SummarizerScript
	timeout time.Duration

	mu    sync.Mutex
	calls []window.SummarizerCall
}

// scripted validates a script. A nil script is no summarizer (nil), unless
// one is required.
func scripted(s *protocol.SummarizerScript, required bool) (*scriptedSummarizer, error) {
	if s == nil {
		if required {
			return nil, protocol.NewError(protocol.KindInvalidParams, "params.summarizer is missing")
		}
		return nil, nil
	}
	switch {
	case (s.Reply == nil) == (s.Error == nil):
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.summarizer needs exactly one of reply and error")
	case s.DelayMS < 0 || s.TimeoutMS < 0:
		return nil, protocol.NewError(protocol.KindInvalidParams, "params.summarizer: delay_ms and timeout_ms must not be negative")
	}
	timeout := DefaultSummarizerTimeout
	if s.TimeoutMS > 0 {
		timeout = millis(s.TimeoutMS)
	}
	return &scriptedSummarizer{script: *s, timeout: timeout}, nil
}

// Call implements window.Summarizer. The script's outcome is decided by its
// numbers alone (D-44): a delay shorter than the timeout is an answer, given
// at once; any other delay is a call that does not answer in time, which
// waits for the timeout (or the caller's cancellation) and fails. No outcome
// depends on which of two timers a stalled or loaded process sees first.
func (s *scriptedSummarizer) Call(ctx context.Context, prompt string, maxTokens int) (string, error) {
	s.mu.Lock()
	s.calls = append(s.calls, window.SummarizerCall{Prompt: prompt, MaxTokens: maxTokens})
	s.mu.Unlock()
	if !s.answersInTime() {
		ctx, cancel := context.WithTimeout(ctx, s.timeout)
		defer cancel()
		<-ctx.Done()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("the summarizer did not answer within %v", s.timeout)
		}
		return "", ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if s.script.Error != nil {
		return "", errors.New(*s.script.Error)
	}
	return *s.script.Reply, nil
}

// answersInTime says whether the script answers: its delay is shorter than
// its timeout (D-44; a delay equal to the timeout does not answer within it).
func (s *scriptedSummarizer) answersInTime() bool {
	return millis(s.script.DelayMS) < s.timeout
}

// millis is n milliseconds as a duration. A count beyond the ~292 years a
// time.Duration holds (any count up to 2^53 − 1 is valid, CFG-3) is the
// longest duration rather than an overflow: a delay that wraps round would
// answer at once, a timeout that wraps would fail at once.
func millis(n protocol.Count) time.Duration {
	if int64(n) > math.MaxInt64/int64(time.Millisecond) {
		return math.MaxInt64
	}
	return time.Duration(n) * time.Millisecond
}
