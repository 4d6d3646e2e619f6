package server

import (
	"context"
	"errors"
	"fmt"
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
		timeout = time.Duration(s.TimeoutMS) * time.Millisecond
	}
	return &scriptedSummarizer{script: *s, timeout: timeout}, nil
}

// Call implements window.Summarizer, giving up after the script's timeout.
func (s *scriptedSummarizer) Call(ctx context.Context, prompt string, maxTokens int) (string, error) {
	s.mu.Lock()
	s.calls = append(s.calls, window.SummarizerCall{Prompt: prompt, MaxTokens: maxTokens})
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	select {
	case <-time.After(time.Duration(s.script.DelayMS) * time.Millisecond):
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", fmt.Errorf("the summarizer did not answer within %v", s.timeout)
		}
		return "", ctx.Err()
	}
	if s.script.Error != nil {
		return "", errors.New(*s.script.Error)
	}
	return *s.script.Reply, nil
}
