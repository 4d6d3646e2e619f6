package mutants

// Outsider variants of the four classes the generators were taught to
// reach on purpose: code points at the edges of the Unicode planes in
// counted text, members every role may carry put on roles other than the
// one an author thinks of, YAML numerals with leading zeros, and member
// names given twice in what the summarizer prompt renders. Each one is a
// mistake a library written elsewhere makes naturally; none of them
// shows on text, roles, numerals or objects of the common kind.

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/dlclark/regexp2"

	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/reference/budget"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

func outsiderClassMutants() []Mutant {
	return []Mutant{
		// tokens.encode "\uffff": U+FFFF is EF BF BF in UTF-8, three
		// bytes and one token of each; the variant's hand-written
		// encoder takes three bytes only below U+FFFF and writes the
		// overlong F0 8F BF BF.
		variant("outsider-tokens-utf8-plane-edge", "encodes text to UTF-8 by hand with the three-byte range ending below U+FFFF, so U+FFFF is written in four (overlong) bytes", replaced{encode: outsiderEncoderWith(outsiderCl100k, planeEdgeUTF8)}, "TOK-1"),
		{
			// window.estimate [{"role":"user","content":"\uffff\uffff\uffff\uffff\uffff"}]:
			// U+FFFF is one UTF-16 code unit, 5 characters, 2 tokens; the
			// variant counts two units from U+FFFF on, 10 characters, 3.
			Name: "outsider-estimate-bmp-edge", Bug: "counts UTF-16 code units with the two-unit range starting at U+FFFF (>= 0xFFFF) instead of U+10000",
			Clauses: []string{"EST-1", "EST-2"},
			Engine: replaced{estimate: func(msgs []message.Message) int {
				chars := 0
				for _, m := range msgs {
					chars += m.ContentLength()
					if compact, err := message.Compact(m.Content()); err == nil {
						chars += strings.Count(compact, "\uffff")
					}
				}
				return (chars + 3) / 4
			}},
		},
		{
			// budget.count [{"role":"user","content":"x","tool_calls":[…]}]:
			// TOK-2 adds the fallback of a non-null tool_calls on any
			// message; the variant only on an assistant's, where calls are
			// expected.
			Name: "outsider-budget-tool-calls-assistant-only", Bug: "adds the fallback of tool_calls only to assistant messages, though TOK-2 counts it on a message of any role",
			Clauses: []string{"TOK-2"},
			Engine: replaced{msgTokens: func(m message.Message) int {
				n := budget.MessageTokens(m)
				if m.Role() == "assistant" {
					return n
				}
				members, _ := jsonscan.SplitObject(m.Raw())
				calls, ok := members.Get("tool_calls")
				if !ok || string(bytes.TrimSpace(calls)) == "null" {
					return n
				}
				compact, err := message.Compact(calls)
				if err != nil {
					return n
				}
				return n - (message.Length(compact)+3)/4
			}},
		},
		{
			// config.resolve "execution: {max_conversation_messages: 010}":
			// YAML 1.2's core schema reads 010 as the decimal 10; the
			// variant's reader keeps YAML 1.1's octal, 8.
			Name: "outsider-config-yaml11-octal", Bug: "reads a YAML integer with a leading zero as YAML 1.1's octal (010 is 8), where the 1.2 core schema reads it as decimal (10)",
			Clauses: []string{"CONF-1", "CONF-6"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				if f == config.YAML {
					text = yaml11Octal.ReplaceAllFunc(text, func(m []byte) []byte {
						sub := yaml11Octal.FindSubmatch(m)
						v, err := strconv.ParseInt(string(sub[3]), 8, 64)
						if err != nil {
							return m
						}
						return []byte(string(sub[1]) + string(sub[2]) + strconv.FormatInt(v, 10) + string(sub[4]))
					})
				}
				return config.Resolve(text, f)
			}},
		},
		{
			// window.summarize of [{"role":"user","content":"draft","content":
			// "fix it"}]: a name given twice is one member with the value of
			// its last occurrence (EST-3, JSON.parse), so the prompt says
			// "[user] fix it"; the variant's streaming reader keeps the first.
			Name: "outsider-sum-first-duplicate-member", Bug: "reads a member name given twice in a message or a block by its first occurrence when rendering the summarizer prompt",
			Clauses: []string{"SUM-1"},
			Engine: replaced{summarize: func(ctx context.Context, msgs []message.Message, s window.Summarizer) (string, error) {
				first := make([]message.Message, len(msgs))
				for i, m := range msgs {
					first[i] = m
					if p, err := message.Parse(firstOccurrences(m.Raw())); err == nil {
						first[i] = p
					}
				}
				return outsiderRef.Summarize(ctx, first, s)
			}},
		},
	}
}

// yaml11Octal finds a plain scalar after ": " (or "- ", "[", ",") that YAML
// 1.1 reads as octal: a zero, then octal digits.
var yaml11Octal = regexp.MustCompile(`(?m)(:|-|\[|,)([ \t]+)0([0-7]+)([ \t]*(?:$|,|\]|\}|#))`)

// planeEdgeUTF8 is an encoder with the three-byte range off by one.
func planeEdgeUTF8(r rune) []byte {
	switch {
	case r < 0x80:
		return []byte{byte(r)}
	case r < 0x800:
		return []byte{0xC0 | byte(r>>6), 0x80 | byte(r&0x3F)}
	case r < 0xFFFF:
		return []byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6&0x3F), 0x80 | byte(r&0x3F)}
	default:
		return []byte{0xF0 | byte(r>>18), 0x80 | byte(r>>12&0x3F), 0x80 | byte(r>>6&0x3F), 0x80 | byte(r&0x3F)}
	}
}

// outsiderEncoderWith is outsiderEncoder with the pieces written to bytes
// by utf8 instead of Go's own encoder.
func outsiderEncoderWith(pattern string, utf8 func(rune) []byte) func(string) []int {
	re := regexp2.MustCompile(pattern, regexp2.None)
	return func(text string) []int {
		ids := []int{}
		if text == "" {
			return ids
		}
		runes := []rune(strings.ToValidUTF8(text, "\uFFFD"))
		ranks := outsiderRanks()
		m, _ := re.FindRunesMatch(runes)
		for m != nil {
			var piece []byte
			for _, r := range runes[m.Index : m.Index+m.Length] {
				piece = append(piece, utf8(r)...)
			}
			ids = append(ids, outsiderBPE(ranks, string(piece))...)
			m, _ = re.FindNextMatch(m)
		}
		return ids
	}
}

// firstOccurrences rewrites a JSON value so that every object keeps the
// first occurrence of a name given twice, dropping the later ones.
func firstOccurrences(raw json.RawMessage) json.RawMessage {
	if members, ok := jsonscan.SplitObject(raw); ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		var b bytes.Buffer
		b.WriteByte('{')
		seen := map[string]bool{}
		for _, m := range members {
			if seen[string(m.Name)] {
				continue
			}
			seen[string(m.Name)] = true
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			name, _ := json.Marshal(string(m.Name))
			b.Write(name)
			b.WriteByte(':')
			b.Write(firstOccurrences(m.Value))
		}
		b.WriteByte('}')
		return b.Bytes()
	}
	if elems, ok := jsonscan.SplitArray(raw); ok {
		var b bytes.Buffer
		b.WriteByte('[')
		for i, e := range elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(firstOccurrences(e))
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return raw
}
