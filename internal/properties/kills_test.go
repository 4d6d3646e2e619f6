package properties

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/mutants"
)

// kill says that a property rejects a faulty variant of the catalogue
// (internal/mutants), reporting the failure under one of clauses.
type kill struct {
	property, mutant string
	clauses          []string
}

// kills shows every property able to fail against a realistic bug. The
// in-package faulty targets (variants) cover the window's arithmetic; these
// cover what only a whole engine can get wrong.
var kills = []kill{
	{"prop/window-units-whole", "window-splits-head-unit", []string{"WIN-9", "UNIT-3"}},
	{"prop/window-units-whole", "window-splits-tail-unit", []string{"WIN-9", "UNIT-3"}},
	{"prop/window-units-whole", "window-splits-middle-unit", []string{"WIN-9", "UNIT-3"}},
	{"prop/window-refuses-broken-tools", "window-accepts-broken-tools", []string{"UNIT-2"}},
	{"prop/history-classify", "classify-openai-only", []string{"CLS-1", "UNIT-1"}},
	{"prop/prune-matches-rules", "prune-keeps-first", []string{"PRUNE-1"}},
	{"prop/prune-matches-rules", "prune-tool-result-breaks-run", []string{"PRUNE-2"}},
	{"prop/prune-only-prompts", "prune-drops-between", []string{"PRUNE-3"}},
	{"prop/prune-only-prompts", "prune-tool-result-as-prompt", []string{"PRUNE-3"}},
	{"prop/prune-no-adjacent-prompts", "prune-tool-result-breaks-run", []string{"PRUNE-1"}},
	{"prop/prune-idempotent", "prune-single-pass", []string{"PRUNE-4"}},
	{"prop/prune-keeps-tool-structure", "prune-tool-result-as-prompt", []string{"UNIT-3"}},
	{"prop/prune-keeps-tool-structure", "prune-drops-between", []string{"UNIT-3", "PRUNE-2"}},
	{"prop/prune-pure-and-deterministic", "prune-remembers-removed", []string{"MSG-3"}},
	{"prop/build-well-formed", "build-dangling-call", []string{"UNIT-3", "BUILD-5"}},
	{"prop/build-bound", "build-dangling-call", []string{"BUILD-4"}},
	{"prop/build-matches-rules", "build-prunes-after-window", []string{"BUILD-1"}},
	{"prop/build-matches-rules", "build-ignores-exchanges", []string{"BUILD-3"}},
	{"prop/build-repairs", "build-dangling-call", []string{"BUILD-2"}},
	{"prop/summarize-state-machine", "summary-after-tail", []string{"SUM-2"}},
	{"prop/summarize-state-machine", "summary-counter-never-resets", []string{"SUM-5", "SUM-4"}},
	{"prop/summarize-state-machine", "summary-counter-resets-on-failure", []string{"SUM-7"}},
	{"prop/summarize-state-machine", "summary-covers-only-this-trim", []string{"SUM-4"}},
	{"prop/summarize-state-machine", "summary-error-as-text", []string{"SUM-7"}},
	{"prop/summarize-state-machine", "summary-every-trim", []string{"SUM-5"}},
	{"prop/summarize-state-machine", "summary-max-tokens-4096", []string{"SUM-1"}},
	{"prop/summarize-state-machine", "summary-not-counted", []string{"SUM-3"}},
	{"prop/summarize-state-machine", "summary-of-tool-results", []string{"SUM-6"}},
	{"prop/summarize-state-machine", "summary-prefix-missing", []string{"SUM-2"}},
	{"prop/summarize-prompt", "summarize-single-newline", []string{"SUM-1"}},
	{"prop/budget-prune-under-target", "budget-ratio-inverted", []string{"PRN-1", "PRN-3"}},
	{"prop/budget-prune-under-target", "budget-prune-stops-at-target", []string{"PRN-1"}},
	{"prop/budget-prune-keeps-first-and-final", "budget-prunes-system-prompt", []string{"PRN-2"}},
	{"prop/budget-prune-units-whole", "budget-prunes-messages", []string{"UNIT-3"}},
	{"prop/budget-prune-monotone", "budget-ratio-inverted", []string{"PRN-5"}},
	{"prop/budget-prune-oldest-first", "budget-prunes-newest", []string{"PRN-1"}},
	{"prop/budget-prune-oldest-first", "budget-prune-stops-at-target", []string{"PRN-1"}},
	{"prop/budget-prune-oldest-first", "budget-ratio-inverted", []string{"PRN-1"}},
	{"prop/budget-check-thresholds", "budget-at-80-is-approaching", []string{"THR-1"}},
	{"prop/budget-check-thresholds", "budget-at-95-is-at-limit", []string{"THR-2"}},
	{"prop/loop-requests-valid-and-bounded", "loop-trims-once-per-iteration", []string{"LOOP-7", "LOOP-1", "LOOP-3"}},
	{"prop/loop-requests-valid-and-bounded", "loop-tool-result-as-prompt", []string{"LOOP-6"}},
	{"prop/loop-requests-valid-and-bounded", "loop-evicts-first-message", []string{"LOOP-6", "LOOP-2"}},
	{"prop/loop-requests-valid-and-bounded", "loop-approaching-at-80", []string{"LOOP-5"}},
	{"prop/loop-requests-valid-and-bounded", "loop-hands-on-untrimmed-state", []string{"LOOP-3"}},
	{"prop/trimmer-subsequence", "trimmer-duplicates-system", []string{"ANY-1"}},
	{"prop/trimmer-subsequence", "trimmer-reverses-kept", []string{"ANY-1"}},
	{"prop/trimmer-subsequence", "trimmer-rebuilds-messages", []string{"ANY-1"}},
	{"prop/trimmer-units-whole", "trimmer-splits-pair-at-cut", []string{"ANY-2"}},
	{"prop/trimmer-keeps-system", "trimmer-drops-system", []string{"ANY-3"}},
	{"prop/trimmer-keeps-last-prompt", "trimmer-forgets-current-exchange", []string{"ANY-4"}},
	{"prop/trimmer-keeps-last-unit", "trimmer-empty-when-last-too-big", []string{"ANY-5"}},
	{"prop/trimmer-bound", "trimmer-bound-off-by-one", []string{"ANY-6"}},
	{"prop/trimmer-fits", "trimmer-always-evicts", []string{"ANY-7"}},
	{"prop/trimmer-idempotent", "trimmer-always-evicts", []string{"ANY-8"}},
	{"prop/trimmer-total", "trimmer-crashes-on-empty", []string{"ANY-9"}},
	{"prop/trimmer-total", "trimmer-crashes-at-limit-one", []string{"ANY-9"}},
	{"prop/trimmer-total", "trimmer-refuses-inside-domain", []string{"ANY-9"}},
	{"prop/trimmer-total", "trimmer-refuses-when-something-fits", []string{"ANY-9"}},
	{"prop/trimmer-subsequence", "trimmer-marker-unrecognizable", []string{"ANY-1"}},
	{"prop/trimmer-keeps-system", "trimmer-first-system-evicted", []string{"ANY-3"}},
	{"prop/trimmer-bound", "trimmer-slack-two-units", []string{"ANY-6"}},
	{"prop/trimmer-bound", "trimmer-native-trims-by-another-count", []string{"ANY-6"}},
	{"prop/trimmer-bound", "trimmer-joined-ignores-separator", []string{"ANY-6"}},
	{"prop/trimmer-bound", "trimmer-results-counted-per-unit", []string{"ANY-6"}},
	{"prop/trimmer-fits", "trimmer-start-only-when-trimming", []string{"ANY-7"}},
	{"prop/trimmer-keeps-head", "trimmer-head-short", []string{"ANY-11"}},
	{"prop/trimmer-start-rule", "trimmer-start-forgotten-after-cut", []string{"ANY-12"}},
	{"prop/trimmer-native-counter", "trimmer-native-counter-negative", []string{"ANY-13"}},
	{"prop/trimmer-last-message-fallback", "trimmer-fallback-returns-nothing", []string{"ANY-14"}},
	{"prop/trimmer-last-message-fallback", "trimmer-fallback-keeps-last-unit", []string{"ANY-14"}},

	// The differential properties and the exact token vectors.
	{"prop/diff-window-trim", "cap-off-by-one", []string{"WIN-4", "WIN-5"}},
	{"prop/diff-window-trim", "window-resumes-at-last-cut", []string{"WIN-4", "WIN-5", "WIN-8"}},
	{"prop/diff-window-estimate", "estimate-go-json", []string{"EST-1"}},
	{"prop/diff-window-summarize-trim", "summary-counter-never-resets", []string{"SUM-3", "SUM-4", "SUM-5"}},
	{"prop/diff-window-summarize-trim", "summary-pending-without-summarizer", []string{"SUM-1", "SUM-4", "SUM-5", "SUM-2"}},
	{"prop/diff-window-summarize", "summarize-single-newline", []string{"SUM-1"}},
	{"prop/diff-history-classify", "classify-openai-only", []string{"CLS-1", "UNIT-1"}},
	{"prop/diff-history-prune", "prune-keeps-first", []string{"PRUNE-1", "PRUNE-3"}},
	{"prop/diff-history-build", "build-prunes-after-window", []string{"BUILD-1"}},
	{"prop/diff-tokens-encode", "tokens-special-text", []string{"TOK-1"}},
	{"prop/diff-budget-count", "budget-ignores-role", []string{"TOK-2"}},
	{"prop/diff-budget-check", "budget-at-80-is-approaching", []string{"THR-1"}},
	{"prop/diff-budget-prune", "budget-prunes-newest", []string{"PRN-1"}},
	{"prop/diff-budget-prune", "budget-prune-gives-up", []string{"PRN-1"}},
	{"prop/diff-budget-compress", "compress-keeps-last-message", []string{"CMP-1"}},
	{"prop/diff-budget-prepare", "budget-prepares-at-80", []string{"PREP-2"}},
	{"prop/diff-config-resolve", "config-block-replaces-shorthand", []string{"CONF-1", "CONF-3"}},
	{"prop/diff-loop-run", "loop-no-trim-event", []string{"LOOP-3", "LOOP-1"}},
	{"prop/tokens-exact-vectors", "tokens-special-text", []string{"TOK-1"}},
	{"prop/budget-exact-counts", "budget-ignores-role", []string{"TOK-2"}},
}

func mutantNamed(t *testing.T, name string) mutants.Mutant {
	t.Helper()
	if m, ok := mutants.Lookup(name); ok {
		return m
	}
	t.Fatalf("no mutant %s", name)
	return mutants.Mutant{}
}

// TestMutantsAreCaught runs each property of kills against its mutant.
func TestMutantsAreCaught(t *testing.T) {
	quietRapid(t)
	for _, k := range kills {
		t.Run(k.property+"/"+k.mutant, func(t *testing.T) {
			t.Parallel()
			p := lookup(t, k.property)
			m := mutantNamed(t, k.mutant)
			tg, err := inprocess.New(m.Engine)
			if err != nil {
				t.Fatal(err)
			}
			failed, out := runAllCaptured(p, tg)
			switch {
			case !failed:
				t.Errorf("%s does not catch %s (%s)", k.property, k.mutant, m.Bug)
			case !reportsUnder(out, k.clauses):
				t.Errorf("%s caught %s but did not report it under %s:\n%s", k.property, k.mutant, strings.Join(k.clauses, " or "), clip(out))
			default:
				t.Logf("%s caught by %s:\n%s", k.mutant, k.property, clip(failureMessage(out)))
			}
		})
	}
}

// TestEdgesAloneCatchMutants: for the properties with edge examples of
// their own boundaries, the examples alone — no random case — catch the
// variants the property is listed against, so that the kill never waits
// on a seed. The differential properties' examples are the boundaries of
// every method; they are checked by the kill table above.
func TestEdgesAloneCatchMutants(t *testing.T) {
	for _, k := range kills {
		if p := lookup(t, k.property); len(p.Examples) == 0 || p.Differential {
			continue
		}
		t.Run(k.property+"/"+k.mutant, func(t *testing.T) {
			t.Parallel()
			p := lookup(t, k.property)
			tg, err := inprocess.New(mutantNamed(t, k.mutant).Engine)
			require.NoError(t, err)
			p.Check = nil // the examples only
			failed, out := runAllCaptured(p, tg)
			require.True(t, failed, "the edge examples of %s do not catch %s", k.property, k.mutant)
			assert.True(t, reportsUnder(out, k.clauses), "%s caught %s but not under %s:\n%s", k.property, k.mutant, strings.Join(k.clauses, " or "), clip(out))
		})
	}
}
