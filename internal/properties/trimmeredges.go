package properties

import (
	"fmt"
	"slices"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// The trimmer properties' edge examples: every declared trimmer that
// claims the guarantee, on the empty conversation, one message, tool-call
// units and runs of orphaned prompts, at limit 0 and one below and at the
// conversation's own count (ANY-6, ANY-9) — or, for ANY-7, at its count
// and one above — before any random case.
func trimmerEdges(m *edgeMemo, clause, guarantee string, check func(trimSession, trimCase)) []prop.Example {
	limits := func(_, total int) []int { return []int{0, 1, max(total-1, 0), total} }
	what := "limit 0, 1, its count − 1 and its count"
	if guarantee == protocol.GuaranteeFits {
		// eff is the count of the input as its start rule leaves it
		// (ANY-12); without one, the input's.
		limits = func(eff, total int) []int { return []int{eff, eff + 1, max(eff, total)} }
		what = "limit its count, its count + 1 and the whole input's count"
	}
	var out []prop.Example
	startsWithSystem := func(h gen.History) bool { return len(h.Msgs) > 1 && h.Msgs[0].Role == "system" }
	for k, cv := range []struct {
		name   string
		o      gen.HistoryOpts
		accept func(gen.History) bool
	}{
		{"the empty conversation", gen.HistoryOpts{}, nil},
		{"one message", gen.HistoryOpts{N: 1}, nil},
		{"a mix of units", gen.HistoryOpts{N: 8, Tools: -1}, nil},
		{"tool-call units only", gen.HistoryOpts{N: 8, Tools: 1, Force: "tool"}, nil},
		{"runs of orphaned prompts", gen.HistoryOpts{N: 10, Tools: -1, Runs: true}, nil},
		{"a system prompt, then units", gen.HistoryOpts{N: 9, Tools: 2, Runs: true}, startsWithSystem},
	} {
		out = append(out, prop.Example{
			Name: fmt.Sprintf("%s, %s", cv.name, what),
			Run: func(f prop.Failer, tg target.Target) {
				// Every trimmer is checked on its own and every failing one
				// is reported: one trimmer's failure hides no other's.
				var fails []string
				for _, d := range checked(tg, guarantee) {
					sf := &stopFailer{}
					func() {
						defer sf.recover()
						s := newTrimSession(fixedSession(sf, tg, clause))
						o := cv.o
						o.Exact, o.Marked, o.Formats = true, true, bothOf(tg.Info().Formats, d.Formats)
						if len(o.Formats) == 1 {
							o.Format = o.Formats[0]
						}
						h := m.history("trimmer edge "+cv.name, o, k, cv.accept)
						c := newTrimCase(d, h)
						for _, limit := range slices.Compact(slices.Sorted(slices.Values(limits(s.count(d, c.effective()), s.count(d, gen.Raws(h.Msgs)))))) {
							if d.InDomain(limit) {
								c.limit = limit
								check(s, c)
							}
						}
					}()
					if sf.failure != "" {
						fails = append(fails, sf.failure)
					}
				}
				if len(fails) > 0 {
					f.Helper()
					f.Fatalf("%s", strings.Join(fails, "\n\n"))
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
