package mutants

// Outsider variants of the capability window (CFG-*, WIN-*, EST-*, MET-*).

import (
	"context"
	"encoding/json"
	"unicode"
	"unicode/utf8"

	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

func outsiderWindowMutants() []Mutant {
	return []Mutant{
		{
			// max_messages 5 and 6 plain messages: one must go; the variant
			// tests len > max+1 and keeps all 6.
			Name: "outsider-window-cap-plus-one-kept", Bug: "starts trimming only when the conversation exceeds max_messages by two (len > max+1)",
			Clauses: []string{"WIN-1", "WIN-2"},
			Engine: replaced{newWindow: outsiderWindowWith(func(cfg window.Config, w *window.Window, ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
				if !cfg.Disabled() && len(msgs) == cfg.MaxMessages+1 {
					if _, err := message.Units(msgs); err != nil {
						return window.Result{}, err
					}
					n := len(msgs)
					return w.Apply(window.Plan{N: n, HeadEnd: n, KeepFrom: n, TailStart: n}, msgs), nil
				}
				return w.TrimWith(ctx, msgs, s)
			})},
		},
		// window.estimate [{"role":"user","content":"😀😀😀"}]: 6 UTF-16
		// units, ceil(6/4) = 2; the variant counts 3 code points, 1.
		variant("outsider-window-estimate-code-points", "counts a string's characters as code points, so an astral character counts 1, not 2", replaced{estimate: outsiderEstimate(func(s string) int { return utf8.RuneCountInString(s) })}, "EST-2"),
		{
			// window.estimate [{"role":"user","content":"e\u0301e\u0301e\u0301e\u0301e\u0301"}]:
			// 10 characters, 3 tokens; the variant skips combining marks
			// (counting "visible characters"), 5, 2 tokens.
			Name: "outsider-window-estimate-skips-combining-marks", Bug: "counts visible characters, skipping combining marks (Mn, Me)",
			Clauses: []string{"EST-2"},
			Engine: replaced{estimate: outsiderEstimate(func(s string) int {
				n := 0
				for _, r := range s {
					if !unicode.In(r, unicode.Mn, unicode.Me) {
						n += message.Length(string(r))
					}
				}
				return n
			})},
		},
		{
			// window.estimate [{"role":"assistant","content":null,"tool_calls":[...]}]
			// with a 4-character user message: null content counts 0, so 1
			// token; the variant serializes null as "null": 2.
			Name: "outsider-window-estimate-null-as-text", Bug: "counts a null content as its JSON text null (4 characters)",
			Clauses: []string{"EST-4"},
			Engine: replaced{estimate: func(msgs []message.Message) int {
				chars := 0
				for _, m := range msgs {
					chars += m.ContentLength()
					if c := m.Content(); c != nil && string(c) == "null" {
						chars += 4
					}
				}
				return (chars + 3) / 4
			}},
		},
		{
			// config {"max_messages":21}: preserve_first_n + preserve_last_n
			// = 1 + 20 = 21 reaches the cap, so window.create warns; the
			// variant warns only when the sum exceeds it.
			Name: "outsider-window-preserve-warning-strict", Bug: "warns about preserve_first_n + preserve_last_n only when the sum exceeds max_messages, not when it equals it",
			Clauses: []string{"WIN-3", "CFG-6"},
			Engine: replaced{newWindow: func(raw json.RawMessage) (wd outsiderServerWindow, cfg window.Config, ws []window.Warning, err error) {
				wd, cfg, ws, err = outsiderRef.NewWindow(raw)
				if err == nil && cfg.PreserveFirstN+cfg.PreserveLastN == cfg.MaxMessages {
					ws = nil
				}
				return wd, cfg, ws, err
			}},
		},
		{
			// config {"max_messages":null} and 101 messages: null is absent,
			// the default cap 100 applies and one message goes; the variant
			// reads null as 0 and disables the window.
			Name: "outsider-window-null-max-disables", Bug: "reads max_messages: null as 0, which disables the window, instead of the default 100",
			Clauses: []string{"CFG-1", "CFG-2"},
			Engine: replaced{newWindow: func(raw json.RawMessage) (outsiderServerWindow, window.Config, []window.Warning, error) {
				var members map[string]json.RawMessage
				if json.Unmarshal(raw, &members) == nil {
					if v, ok := members["max_messages"]; ok && string(v) == "null" {
						members["max_messages"] = json.RawMessage("0")
						raw, _ = json.Marshal(members)
					}
				}
				return outsiderRef.NewWindow(raw)
			}},
		},
	}
}

// outsiderEstimate is the estimate with string contents measured by length.
func outsiderEstimate(length func(string) int) func([]message.Message) int {
	return func(msgs []message.Message) int {
		chars := 0
		for _, m := range msgs {
			var s string
			if c := m.Content(); len(c) > 0 && c[0] == '"' && json.Unmarshal(c, &s) == nil {
				chars += length(s)
				continue
			}
			chars += m.ContentLength()
		}
		return (chars + 3) / 4
	}
}
