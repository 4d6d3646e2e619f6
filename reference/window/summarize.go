package window

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/reference/message"
)

// Summarization constants (SUM-1, SUM-3, SUM-5).
const (
	// Instruction opens every summarization prompt.
	Instruction = "Summarize the following conversation history concisely. Focus on: what files were read/written, what decisions were made, what problems were encountered, and what the current state of the task is. Be factual and brief."
	// SummaryPrefix opens the content of every summary message.
	SummaryPrefix = "[Conversation Summary]"
	// SummaryMaxTokens is the max_tokens of every summarizer call.
	SummaryMaxTokens = 1024
	// SummaryEvery is the rate limit: a summary is made only once at least
	// this many messages have been evicted since the last one.
	SummaryEvery = 10
)

// Warning codes of summarization (SUM-6, SUM-7).
const (
	CodeSummaryFailed        = "summary_failed"
	CodeSummarySkippedNoText = "summary_skipped_no_text"
	CodeSummaryEmpty         = "summary_empty"
)

// Summarizer condenses a prompt into a summary: the provider's lightweight
// call, injected so that the window stays provider-agnostic (002).
type Summarizer interface {
	Call(ctx context.Context, prompt string, maxTokens int) (string, error)
}

// SummarizerFunc adapts a function to Summarizer.
type SummarizerFunc func(ctx context.Context, prompt string, maxTokens int) (string, error)

// Call implements Summarizer.
func (f SummarizerFunc) Call(ctx context.Context, prompt string, maxTokens int) (string, error) {
	return f(ctx, prompt, maxTokens)
}

// SummarizerCall records one call a trim made.
type SummarizerCall struct {
	Prompt    string `json:"prompt"`
	MaxTokens int    `json:"max_tokens"`
}

// Prompt is the summarization prompt for msgs (SUM-1): the instruction, a
// blank line, then each message rendered as Render does, separated by blank
// lines.
func Prompt(msgs []message.Message) string { return prompt(fault.Set{}, msgs) }

func prompt(fs fault.Set, msgs []message.Message) string {
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = render(fs, m)
	}
	sep := "\n\n"
	if fs.On(fault.PromptSingleNewline) {
		sep = "\n"
	}
	return Instruction + "\n\n" + strings.Join(parts, sep)
}

// Render turns one message into text for the prompt (SUM-1): "[role] "
// followed by its parts, one per line. Every member is looked up by its exact
// name, the last of a repeated name winning (as JSON.parse does, EST-3), and
// read on its own: a string member is its text, an absent one the empty
// string and any other value, null included, its compact form (D-48), so that one odd
// member never changes how the rest of the message renders.
func Render(m message.Message) string { return render(fault.Set{}, m) }

func render(fs fault.Set, m message.Message) string {
	var parts []string
	members := objectMembers(m.Raw())
	content := members["content"]
	if m.Role() == "tool" {
		parts = append(parts, "tool_result "+memberText(members["tool_call_id"])+": "+contentText(fs, content))
	} else {
		parts = append(parts, contentParts(fs, content)...)
	}
	if kind(members["tool_calls"]) == "array" {
		var calls []json.RawMessage
		_ = json.Unmarshal(members["tool_calls"], &calls)
		for _, c := range calls {
			// each element is a call of its own (SUM-1): one whose function
			// is missing or not an object renders with empty name and
			// arguments, and hides no other call (D-48)
			fn := objectMembers(objectMembers(c)["function"])
			parts = append(parts, "tool_call "+memberText(fn["name"])+" "+memberText(fn["arguments"]))
		}
	}
	return "[" + m.Role() + "] " + strings.Join(parts, "\n")
}

// objectMembers is raw's members by name when raw is a JSON object (the last
// of a repeated name winning), and nil otherwise.
func objectMembers(raw json.RawMessage) map[string]json.RawMessage {
	if kind(raw) != "object" {
		return nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) != nil {
		return nil
	}
	return members
}

// memberText renders a name, id or arguments member (D-48): a string as
// itself, an absent one as the empty string, anything else — null included —
// in compact form.
func memberText(raw json.RawMessage) string {
	switch {
	case len(raw) == 0:
		return ""
	case kind(raw) == "string":
		var s string
		_ = json.Unmarshal(raw, &s)
		return s
	default:
		s, _ := message.Compact(raw)
		return s
	}
}

// contentParts renders a content member: a string as itself, an array
// block by block, null or absent as nothing, anything else as compact JSON.
func contentParts(fs fault.Set, content json.RawMessage) []string {
	switch kind(content) {
	case "absent":
		return nil
	case "string":
		var s string
		_ = json.Unmarshal(content, &s)
		return []string{s}
	case "array":
		var blocks []json.RawMessage
		_ = json.Unmarshal(content, &blocks)
		out := make([]string, 0, len(blocks))
		for _, b := range blocks {
			out = append(out, blockText(fs, b))
		}
		return out
	default:
		s, _ := message.Compact(content)
		return []string{s}
	}
}

func contentText(fs fault.Set, content json.RawMessage) string {
	return strings.Join(contentParts(fs, content), "\n")
}

// blockText renders one content block by its type (SUM-1); the block's other
// members are read one by one (D-48). A text block whose text is not a
// string, and any block of another type, is "any other block": its compact
// form.
func blockText(fs fault.Set, b json.RawMessage) string {
	block := objectMembers(b)
	var typ string
	if kind(block["type"]) == "string" {
		_ = json.Unmarshal(block["type"], &typ)
	}
	switch {
	case typ == "text" && kind(block["text"]) == "string":
		return memberText(block["text"])
	case typ == "tool_use":
		input := orEmptyObject(block["input"])
		if len(block["input"]) == 0 && fs.On(fault.PromptToolUseInputNull) {
			input = json.RawMessage("null")
		}
		text, _ := message.Compact(input)
		return "tool_use " + memberText(block["name"]) + " " + text
	case typ == "tool_result":
		content := contentText(fs, block["content"])
		if kind(block["content"]) == "array" && fs.On(fault.PromptToolResultBlocksJSON) {
			content, _ = message.Compact(block["content"])
		}
		return "tool_result " + memberText(block["tool_use_id"]) + ": " + content
	default:
		s, _ := message.Compact(b)
		return s
	}
}

func orEmptyObject(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("{}")
	}
	return raw
}

func kind(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "" || s == "null":
		return "absent"
	case s[0] == '"':
		return "string"
	case s[0] == '[':
		return "array"
	case s[0] == '{':
		return "object"
	default:
		return "other"
	}
}

// HasMeaningfulText reports whether any message that is not a tool result
// has content text with something other than white space (SUM-6): a string
// content, or the text of a text block.
func HasMeaningfulText(msgs []message.Message) bool { return hasMeaningfulText(fault.Set{}, msgs) }

func hasMeaningfulText(fs fault.Set, msgs []message.Message) bool {
	trim := strings.TrimSpace
	if fs.On(fault.SummaryMeaningfulASCII) {
		trim = trimASCIISpace
	}
	for _, m := range msgs {
		if m.Class() == message.ToolResult {
			continue
		}
		c := m.Content()
		switch kind(c) {
		case "string":
			var s string
			_ = json.Unmarshal(c, &s)
			if trim(s) != "" {
				return true
			}
		case "array":
			// block by block, so that one odd block does not hide the
			// text of the others (D-48)
			var blocks []json.RawMessage
			_ = json.Unmarshal(c, &blocks)
			for _, b := range blocks {
				block := objectMembers(b)
				if memberText(block["type"]) == "text" && kind(block["text"]) == "string" &&
					trim(memberText(block["text"])) != "" {
					return true
				}
			}
		}
	}
	return false
}

// Summarize asks s for a summary of msgs (002's summarize method): one call
// with Prompt(msgs) and SummaryMaxTokens. It returns the reply without
// surrounding white space; an empty reply is an error.
func Summarize(ctx context.Context, msgs []message.Message, s Summarizer) (string, error) {
	fs := fault.From(ctx)
	reply, err := s.Call(ctx, prompt(fs, msgs), maxTokens(fs))
	if err != nil {
		return "", err
	}
	if fs.On(fault.SummaryReplyASCIITrim) {
		reply = trimASCIISpace(reply)
	} else {
		reply = strings.TrimSpace(reply)
	}
	if reply == "" {
		return "", errEmptySummary
	}
	return reply, nil
}

var errEmptySummary = errors.New("the summarizer returned an empty summary")

func maxTokens(fs fault.Set) int {
	if fs.On(fault.SummaryMaxTokens4096) {
		return 4096
	}
	return SummaryMaxTokens
}

// trimASCIISpace is the faulty trim of points SummaryMeaningfulASCII and
// SummaryReplyASCIITrim.
func trimASCIISpace(s string) string { return strings.Trim(s, " \t\r\n") }

// SummaryMessage is the synthetic message that replaces evicted ones
// (SUM-2): role assistant, content "[Conversation Summary]\n" + summary.
func SummaryMessage(summary string) message.Message { return summaryMessage(fault.Set{}, summary) }

func summaryMessage(fs fault.Set, summary string) message.Message {
	prefix := SummaryPrefix + "\n"
	if fs.On(fault.SummaryPrefixMissing) {
		prefix = ""
	}
	m, err := message.New("assistant", prefix+summary)
	if err != nil {
		panic(err) // unreachable: a role and a string always encode
	}
	return m
}

// TrimWith trims like Trim and, when summarize_on_trim is set and s is not
// nil, replaces the evicted messages with a summary as SUM-1–SUM-8 say.
// The window remembers what it evicted since its last summary, so TrimWith
// is safe for concurrent use but not pure: it is the one stateful
// operation (MSG-3).
func (w *Window) TrimWith(ctx context.Context, msgs []message.Message, s Summarizer) (Result, error) {
	units, err := message.Units(msgs)
	if err != nil {
		return Result{}, err
	}
	fs := fault.From(ctx)
	plain := w.cfg.Plan(units)
	summarizing := w.cfg.SummarizeOnTrim || fs.On(fault.SummaryIgnoresFlag)
	if !summarizing || s == nil || plain.Evicted() == 0 {
		res := w.Apply(plain, msgs) // SUM-8: exactly plain windowing
		if s == nil && w.cfg.SummarizeOnTrim && fs.On(fault.SummaryPendingWithoutSummarizer) {
			w.mu.Lock()
			w.pending = append(w.pending, res.Evicted...)
			w.mu.Unlock()
		}
		return res, nil
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	// SUM-3: the summary takes a place of the cap, so plan for one less.
	roomy := w.cfg.PlanCap(units, w.cfg.MaxMessages-1)
	if fs.On(fault.SummaryNotCounted) {
		roomy = plain
	}
	evicted := msgs[roomy.HeadEnd:roomy.KeepFrom]
	waiting := len(w.pending) + len(evicted)
	covered := slices.Concat(w.pending, evicted) // SUM-4
	if fs.On(fault.SummaryCoversOnlyThisTrim) {
		covered = slices.Clone(evicted)
	}

	if !due(fs, waiting) { // SUM-5: not yet
		res := w.Apply(plain, msgs)
		w.pending = append(w.pending, res.Evicted...)
		return res, nil
	}
	if !fs.On(fault.SummaryOfToolResults) && !hasMeaningfulText(fs, covered) { // SUM-6
		res := w.Apply(plain, msgs)
		w.pending = nil
		res.Warnings = append(res.Warnings, Warning{Code: CodeSummarySkippedNoText,
			Message: fmt.Sprintf("the %d messages to summarize hold only tool results or no text: evicted without a summary", len(covered))})
		return res, nil
	}
	summary, err := Summarize(ctx, covered, s)
	call := SummarizerCall{Prompt: prompt(fs, covered), MaxTokens: maxTokens(fs)}
	if err != nil && fs.On(fault.SummaryErrorAsText) {
		summary, err = err.Error(), nil
	}
	if err != nil { // SUM-7: plain eviction; the error goes to a warning, never into a message
		res := w.Apply(plain, msgs)
		res.SummarizerCalls = []SummarizerCall{call}
		if fs.On(fault.SummaryFailureForgetsPending) {
			w.pending = nil
		} else {
			w.pending = append(w.pending, res.Evicted...)
		}
		code := CodeSummaryFailed
		if errors.Is(err, errEmptySummary) {
			code = CodeSummaryEmpty
		}
		res.Warnings = append(res.Warnings, Warning{Code: code,
			Message: fmt.Sprintf("summarization failed, evicted without a summary (%d messages wait for the next attempt): %v", len(w.pending), err)})
		return res, nil
	}
	res := w.Apply(roomy, msgs)
	res.SummarizerCalls = []SummarizerCall{call}
	sm := summaryMessage(fs, summary)
	res.Summary = &sm
	at := roomy.HeadEnd // SUM-2
	switch {
	case fs.On(fault.SummaryAfterTail):
		at = len(res.Trimmed)
	case fs.On(fault.SummaryBeforeHead):
		at = 0
	}
	res.Trimmed = slices.Insert(res.Trimmed, at, sm)
	res.Metrics.EstimatedTokens = EstimateTokens(res.Trimmed)
	w.pending = nil
	if fs.On(fault.SummaryCountNeverResets) {
		w.pending = covered
	}
	return res, nil
}

// due tells whether waiting evicted messages call for a summary (SUM-5).
func due(fs fault.Set, waiting int) bool {
	switch {
	case fs.On(fault.SummaryEveryTrim):
		return true
	case fs.On(fault.SummaryEveryExclusive):
		return waiting > SummaryEvery
	}
	return waiting >= SummaryEvery
}
