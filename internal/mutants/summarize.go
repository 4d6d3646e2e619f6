package mutants

// Faulty variants of the capability window.summarize (SUM-*).

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// flagBlindWindow summarizes whenever it is given a summarizer.
type flagBlindWindow struct{ plain, summarizing *window.Window }

func newFlagBlindWindow(c window.Config) flagBlindWindow {
	plain, _ := window.New(c)
	c.SummarizeOnTrim = true
	summarizing, _ := window.New(c)
	return flagBlindWindow{plain, summarizing}
}

func (f flagBlindWindow) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	if s != nil {
		return f.summarizing.TrimWith(ctx, msgs, s)
	}
	return f.plain.TrimWith(ctx, msgs, nil)
}

// pendingAlways records a plain trim's evictions as pending too.
type pendingAlways struct{ *faultySummarizer }

func (p pendingAlways) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	res, err := p.faultySummarizer.TrimWith(ctx, msgs, s)
	if err == nil && s == nil && p.cfg.SummarizeOnTrim {
		p.mu.Lock()
		p.pending = append(p.pending, res.Evicted...)
		p.mu.Unlock()
	}
	return res, err
}

// summarizeMutant is the reference with window.summarize replaced.
type summarizeMutant struct {
	server.Reference
	summarize func(context.Context, []message.Message, window.Summarizer) (string, error)
}

func (summarizeMutant) Name() string { return "convspec-mutant" }

func (s summarizeMutant) Summarize(ctx context.Context, msgs []message.Message, sm window.Summarizer) (string, error) {
	return s.summarize(ctx, msgs, sm)
}

func singleNewlineSummarize(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = window.Render(m)
	}
	reply, err := s.Call(ctx, window.Instruction+"\n\n"+strings.Join(parts, "\n"), window.SummaryMaxTokens)
	if err != nil {
		return "", err
	}
	if reply = strings.TrimSpace(reply); reply == "" {
		return "", errors.New("the summarizer returned an empty summary")
	}
	return reply, nil
}

// sumBug selects one summarization bug of a faultySummarizer.
type sumBug int

const (
	neverResets sumBug = iota + 1
	resetsOnFailure
	summaryNotCounted
	errorAsSummary
	summarizesEveryTrim
	prefixMissing
	coversOnlyThisTrim
	summarizesToolResults
	wrongMaxTokens
	summaryAfterTail
)

// summarizingMutant serves windows that summarize with one bug; everything
// else is the reference.
func summarizingMutant(bug sumBug) server.Engine {
	return engine{window: func(c window.Config) server.Window { return &faultySummarizer{cfg: c, bug: bug} }}
}

// faultySummarizer is the reference's TrimWith written the way a hurried
// implementer would, with one bug switched on.
type faultySummarizer struct {
	cfg     window.Config
	bug     sumBug
	mu      sync.Mutex
	pending []message.Message
	done    bool // a summary has been made (for neverResets)
}

func (f *faultySummarizer) TrimWith(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return window.Result{}, err
	}
	w, _ := window.New(f.cfg)
	plain := f.cfg.Plan(units)
	if !f.cfg.SummarizeOnTrim || s == nil || plain.Evicted() == 0 {
		return w.Apply(plain, msgs), nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	roomy := f.cfg.PlanCap(units, f.cfg.MaxMessages-1)
	if f.bug == summaryNotCounted {
		roomy = plain
	}
	evicted := msgs[roomy.HeadEnd:roomy.KeepFrom]
	covered := slices.Concat(f.pending, evicted)
	if f.bug == coversOnlyThisTrim {
		covered = slices.Clone(evicted)
	}
	count := len(f.pending) + len(evicted)
	due := count >= window.SummaryEvery || f.bug == summarizesEveryTrim || (f.bug == neverResets && f.done)
	if !due {
		res := w.Apply(plain, msgs)
		f.pending = append(f.pending, res.Evicted...)
		return res, nil
	}
	if f.bug != summarizesToolResults && !window.HasMeaningfulText(covered) {
		res := w.Apply(plain, msgs)
		f.pending = nil
		res.Warnings = append(res.Warnings, window.Warning{Code: window.CodeSummarySkippedNoText, Message: "nothing to summarize"})
		return res, nil
	}
	maxTokens := window.SummaryMaxTokens
	if f.bug == wrongMaxTokens {
		maxTokens = 4096
	}
	prompt := window.Prompt(covered)
	reply, err := s.Call(ctx, prompt, maxTokens)
	call := []window.SummarizerCall{{Prompt: prompt, MaxTokens: maxTokens}}
	reply = strings.TrimSpace(reply)
	if (err != nil || reply == "") && f.bug != errorAsSummary {
		res := w.Apply(plain, msgs)
		res.SummarizerCalls = call
		if f.bug == resetsOnFailure {
			f.pending = nil
		} else {
			f.pending = append(f.pending, res.Evicted...)
		}
		code := window.CodeSummaryFailed
		if err == nil {
			code = window.CodeSummaryEmpty // SUM-7: an empty reply is not an error
		}
		res.Warnings = append(res.Warnings, window.Warning{Code: code, Message: "summarization failed"})
		return res, nil
	}
	if err != nil {
		reply = err.Error()
	}
	prefix := window.SummaryPrefix + "\n"
	if f.bug == prefixMissing {
		prefix = ""
	}
	sm, _ := message.New("assistant", prefix+reply)
	res := w.Apply(roomy, msgs)
	res.SummarizerCalls = call
	res.Summary = &sm
	at := roomy.HeadEnd
	if f.bug == summaryAfterTail {
		at = len(res.Trimmed)
	}
	res.Trimmed = slices.Insert(res.Trimmed, at, sm)
	res.Metrics.EstimatedTokens = window.EstimateTokens(res.Trimmed)
	f.done = true
	if f.bug != neverResets {
		f.pending = nil
	}
	return res, nil
}
