package properties

import (
	"fmt"
	"slices"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/trimout"
)

// The trimmer properties' edge examples: every declared trimmer that
// claims the guarantee, on the empty conversation, one message, tool-call
// units and runs of orphaned prompts, at limit 0 and one below and at the
// conversation's own count (ANY-6, ANY-9) — or, for ANY-7, at its count
// and one above — before any random case.
func trimmerEdges(clause, guarantee string, check func(trimSession, trimCase)) []Example {
	limits := func(total int) []int { return []int{0, max(total-1, 0), total} }
	what := "limit 0, its count − 1 and its count"
	if guarantee == protocol.GuaranteeFits {
		limits = func(total int) []int { return []int{total, total + 1} }
		what = "limit its count and its count + 1"
	}
	var out []Example
	startsWithSystem := func(h history) bool { return len(h.msgs) > 1 && h.msgs[0].Role == "system" }
	for k, cv := range []struct {
		name   string
		o      genOpts
		accept func(history) bool
	}{
		{"the empty conversation", genOpts{}, nil},
		{"one message", genOpts{n: 1}, nil},
		{"a mix of units", genOpts{n: 8, tools: -1}, nil},
		{"tool-call units only", genOpts{n: 8, tools: 1, force: "tool"}, nil},
		{"runs of orphaned prompts", genOpts{n: 10, tools: -1, runs: true}, nil},
		{"a system prompt, then units", genOpts{n: 9, tools: 2, runs: true}, startsWithSystem},
	} {
		out = append(out, Example{
			Name: fmt.Sprintf("%s, %s", cv.name, what),
			Run: func(f Failer, tg target.Target) {
				s := trimSession{fixedSession(f, tg, clause)}
				for _, d := range tg.Info().Claiming(guarantee) {
					o := cv.o
					o.exact, o.marked, o.formats = true, true, bothOf(tg.Info().Formats, d.Formats)
					if len(o.formats) == 1 {
						o.format = o.formats[0]
					}
					h := fixedHistory(o.formats, o, k, cv.accept)
					for _, limit := range limits(trimout.Count(d, raws(h.msgs))) {
						check(s, trimCase{decl: d, h: h, limit: limit})
					}
				}
			},
		})
	}
	return out
}

// bothOf is the provider formats both lists allow; an empty list allows
// both.
func bothOf(a, b []string) []string {
	var out []string
	for _, f := range protocol.Formats() {
		if (len(a) == 0 || slices.Contains(a, f)) && (len(b) == 0 || slices.Contains(b, f)) {
			out = append(out, f)
		}
	}
	return out
}
