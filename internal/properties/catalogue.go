package properties

// The catalogue: every per-capability property, one entry each, in one
// table in the order of the reports. It is one piece (a table); each Check
// is in the file of its capability. The differential properties follow
// them in the reports (package differential; runner.Properties joins the
// two).

import (
	"encoding/json"

	"pgregory.net/rapid"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/gen"
	"github.com/convspec/convspec/internal/prop"
)

// All lists every per-capability property, in a stable order.
func All() []prop.Property {
	return append([]prop.Property{
		// Capability window: window.go, windowanswers.go.
		onTrims(prop.Property{ID: "prop/window-matches-plan", Clauses: []string{"WIN-1", "WIN-2", "WIN-3", "WIN-4", "WIN-5", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "trimmed and evicted are exactly the head, kept middle and tail the clauses give, cut between units, in input order",
		}, "WIN-5", gen.Maxes, gen.AnyLength, matchesPlan),
		onTrims(prop.Property{ID: "prop/window-head-and-tail-kept", Clauses: []string{"WIN-2", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "a trim keeps the first min(h, n) and the last min(t, n − |head|) messages, grown to whole units, and evicts none of them",
		}, "WIN-2", gen.Maxes, gen.OverCap, headAndTail),
		onTrims(prop.Property{ID: "prop/window-bound", Clauses: []string{"WIN-6"}, Capability: protocol.CapWindow,
			Doc: "trimmed holds at most max_messages messages, or exactly the head and tail (grown to whole units) when they fill the cap",
		}, "WIN-6", gen.Maxes, gen.OverCap, bound),
		onTrims(prop.Property{ID: "prop/window-order-no-duplicates", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc: "trimmed and evicted each hold input messages in input order, none twice",
		}, "WIN-5", gen.Maxes, gen.OverCap, order),
		onTrims(prop.Property{ID: "prop/window-partition", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc: "every input message is in exactly one of trimmed and evicted",
		}, "WIN-5", gen.Maxes, gen.AnyLength, partition),
		onTrims(prop.Property{ID: "prop/window-idempotent", Clauses: []string{"WIN-7"}, Capability: protocol.CapWindow,
			Doc: "trimming is deterministic, and trimming a trimmed conversation again changes nothing",
		}, "WIN-7", gen.Maxes, gen.AnyLength, idempotent),
		onTrims(prop.Property{ID: "prop/window-under-cap-identity", Clauses: []string{"WIN-1", "CFG-5", "WIN-8"}, Capability: protocol.CapWindow,
			Doc: "with n <= max_messages, or max_messages 0, the input comes back unchanged, nothing evicted, no warning",
		}, "WIN-1", rapid.OneOf(rapid.Just(0), gen.Maxes, gen.Maxes), gen.WithinLimit, underCap),
		{ID: "prop/window-cuts-by-position", Clauses: []string{"WIN-5"}, Capability: protocol.CapWindow,
			Doc:   "identical messages are distinct messages: the window cuts by position, not by content",
			Check: checkCutsByPosition, Examples: identicalEdges()},
		onTrims(prop.Property{ID: "prop/window-round-trip", Clauses: []string{"MSG-2"}, Capability: protocol.CapWindow,
			Doc: "every returned message is JSON-equal to the input message it stands for, unknown members included",
		}, "MSG-2", gen.Maxes, gen.AnyLength, roundTrip),
		onTrims(prop.Property{ID: "prop/window-metrics", Clauses: []string{"MET-1"}, Capability: protocol.CapWindow,
			Doc: "metrics count the input, trimmed and evicted, and estimate the tokens of trimmed",
		}, "MET-1", gen.Maxes, gen.AnyLength, metrics),
		{ID: "prop/window-estimate", Clauses: []string{"EST-1", "EST-2", "EST-3", "EST-4", "EST-5"}, Capability: protocol.CapWindow,
			Doc:   "window.estimate is ceil(C / 4), C the UTF-16 length of string content or of the JSON.stringify form of other content",
			Check: checkEstimate, Examples: estimateEdges()},
		onTrims(prop.Property{ID: "prop/window-warning", Level: protocol.LevelDiagnostics, Clauses: []string{"WIN-3", "WIN-8"}, Capability: protocol.CapWindow,
			Doc: "a trim warns preserve_exceeds_max exactly when n > max_messages > 0 and |head| + |tail| >= max_messages",
		}, "WIN-3", gen.Maxes, gen.AnyLength, trimWarning),
		onTrims(prop.Property{ID: "prop/window-units-whole", Clauses: []string{"UNIT-3", "WIN-9"}, Capability: protocol.CapWindow,
			Doc: "trimmed holds every tool-call unit of the input whole or not at all, each call with all its results right after it",
		}, "WIN-9", gen.Maxes, gen.AnyLength, unitsWhole),
		{ID: "prop/window-refuses-broken-tools", Clauses: []string{"UNIT-2"}, Capability: protocol.CapWindow,
			Doc:   "window.trim refuses a conversation with one broken tool structure with invalid_message naming the code and a position",
			Check: checkRefusesBrokenTools, Examples: brokenToolEdges()},
		{ID: "prop/window-create-warning", Clauses: []string{"CFG-6"}, Capability: protocol.CapWindow,
			Doc:   "window.create warns preserve_exceeds_max once exactly when max_messages > 0 and h + t >= max_messages",
			Check: checkCreateWarning, Examples: configEdges("CFG-6", createWarning)},
		{ID: "prop/window-effective-config", Clauses: []string{"CFG-1", "CFG-2", "CFG-3"}, Capability: protocol.CapWindow,
			Doc:   "window.create returns the config sent with every absent or null member at its default",
			Check: checkEffectiveConfig, Examples: configEdges("CFG-1", func(s *session, c gen.Config) { s.create(c) })},
		// Capability history: history.go, prune.go, build.go.
		{ID: "prop/history-classify", Clauses: []string{"CLS-1", "UNIT-1"}, Capability: protocol.CapHistory,
			Doc:   "history.classify gives every message its class and splits the conversation into the units it was built from",
			Check: checkClassify, Examples: historyEdges("CLS-1", wellFormedEdges(), classify)},
		{ID: "prop/prune-matches-rules", Clauses: []string{"PRUNE-1", "PRUNE-2", "PRUNE-3"}, Capability: protocol.CapHistory,
			Doc:   "history.prune removes exactly the user prompts of each run but the last, runs ended only by assistant messages, and lists their positions",
			Check: checkPruneMatchesRules, Examples: historyEdges("PRUNE-1", brokenEdges(0, 4), pruneMatchesRules)},
		{ID: "prop/prune-only-prompts", Clauses: []string{"PRUNE-3"}, Capability: protocol.CapHistory,
			Doc:   "pruning returns a subsequence of the input that keeps every message that is not a user prompt, and lists what it removed",
			Check: checkPruneOnlyPrompts, Examples: historyEdges("PRUNE-3", brokenEdges(0, 4), pruneOnlyPrompts)},
		{ID: "prop/prune-no-adjacent-prompts", Clauses: []string{"PRUNE-1"}, Capability: protocol.CapHistory,
			Doc:   "a pruned history holds no two user prompts without an assistant message between them",
			Check: checkPruneNoAdjacentPrompts, Examples: historyEdges("PRUNE-1", brokenEdges(0, 4), pruneNoAdjacentPrompts)},
		{ID: "prop/prune-keeps-tool-structure", Clauses: []string{"UNIT-3", "PRUNE-2"}, Capability: protocol.CapHistory,
			Doc:   "pruning well-formed history in either provider format keeps every tool-call unit whole and every system message: no result without its call, no call without its results",
			Check: checkPruneKeepsToolStructure, Examples: historyEdges("UNIT-3", wellFormedEdges(), pruneKeepsToolStructure)},
		{ID: "prop/prune-idempotent", Clauses: []string{"PRUNE-4"}, Capability: protocol.CapHistory,
			Doc:   "pruning a pruned history removes nothing",
			Check: checkPruneIdempotent, Examples: historyEdges("PRUNE-4", brokenEdges(0, 4), pruneIdempotent)},
		{ID: "prop/prune-pure-and-deterministic", Clauses: []string{"MSG-3"}, Capability: protocol.CapHistory,
			Doc:   "pruning the same input twice, with another prune between, gives the same result",
			Check: checkPrunePure, Examples: historyEdges("MSG-3", brokenEdges(0, 4), func(s *session, h gen.History) {
				prunePure(s, h, fixedHistoryOf(s.tg, wellFormedEdges()[1], 0))
			})},
		onBuilds(prop.Property{ID: "prop/build-well-formed", Clauses: []string{"BUILD-5", "UNIT-3", "BUILD-3"}, Capability: protocol.CapHistory,
			Doc: "what build sends is a subsequence of the input with units whole, no two prompts without an assistant between, and the system prompt first",
		}, "BUILD-5", brokenHistories(0, 3), buildWellFormed),
		onBuilds(prop.Property{ID: "prop/build-bound", Clauses: []string{"BUILD-4"}, Capability: protocol.CapHistory,
			Doc: "build sends the leading system messages and at most max_messages others, or exactly the last unit when it alone is longer",
		}, "BUILD-4", brokenHistories(0, 2), buildBound),
		onBuilds(prop.Property{ID: "prop/build-matches-rules", Clauses: []string{"BUILD-1", "BUILD-2", "BUILD-3", "BUILD-4"}, Capability: protocol.CapHistory,
			Doc: "on well-formed history build prunes, then keeps the system prompt and the suffix that starts at the earliest user prompt, else unit, that fits",
		}, "BUILD-3", wellFormedHistories(), buildMatchesRules),
		onBuilds(prop.Property{ID: "prop/build-repairs", Clauses: []string{"BUILD-2"}, Capability: protocol.CapHistory,
			Doc: "build drops every message of each broken tool structure, warns once per structure with its code and positions, and otherwise follows the rules",
		}, "BUILD-2", brokenHistories(1, 3), buildRepairs),
		// Capability window.summarize: summarize.go, summarizemodel.go.
		{ID: "prop/summarize-state-machine", Level: protocol.LevelCore /* its exact-prompt and warning checks are diagnostics */, Clauses: []string{"SUM-1", "SUM-2", "SUM-3", "SUM-4", "SUM-5", "SUM-6", "SUM-7", "SUM-8"}, Capability: protocol.CapSummarize,
			Doc:   "over random appends and trims with a summarizer that replies, fails, answers blank or is absent, every trim calls it exactly when the rate limit says, with the exact prompt, and returns the array the clauses give",
			Check: checkSummarizeMachine, Examples: summarizeMachineEdges()},
		{ID: "prop/summarize-prompt", Clauses: []string{"SUM-1", "SUM-9"}, Capability: protocol.CapSummarize,
			Doc:   "window.summarize makes one call with max_tokens 1024 and SUM-1's exact prompt, and returns the reply trimmed, or summarizer_failed for an error or a blank reply",
			Check: checkSummarizePrompt, Examples: summarizePromptEdges()},
		// Capability budget: budget.go.
		{ID: "prop/budget-count-additive", Clauses: []string{"TOK-3"}, Capability: protocol.CapBudget,
			Doc:   "the count of a list is the sum of its per-message counts, a message counts the same wherever it stands, and budget.check counts as budget.count does",
			Check: checkCountAdditive, Examples: additiveEdges()},
		{ID: "prop/budget-prune-under-target", Clauses: []string{"PRN-1", "PRN-3", "PRN-4"}, Capability: protocol.CapBudget,
			Doc:   "after pruning the count is below the target, or only the units of the first and the final message are left; below the target nothing changes; never empty",
			Check: checkPruneUnderTarget, Examples: budgetEdges("PRN-1", pruneUnderTarget)},
		{ID: "prop/budget-prune-keeps-first-and-final", Clauses: []string{"PRN-2"}, Capability: protocol.CapBudget,
			Doc:   "pruning keeps the first and the final message and their units",
			Check: checkPruneFirstAndFinal, Examples: budgetEdges("PRN-2", pruneFirstAndFinal)},
		{ID: "prop/budget-prune-subsequence", Clauses: []string{"PRN-1", "MSG-2"}, Capability: protocol.CapBudget,
			Doc:   "what pruning returns is the input without the positions it lists as removed, in order and unchanged",
			Check: checkPruneSubsequence, Examples: budgetEdges("PRN-1", pruneSubsequence)},
		{ID: "prop/budget-prune-units-whole", Clauses: []string{"UNIT-3", "PRN-1"}, Capability: protocol.CapBudget,
			Doc:   "pruning removes whole units in both provider formats: no result without its call, no call without all its results",
			Check: checkPruneUnitsWhole, Examples: budgetEdges("UNIT-3", pruneUnitsWhole)},
		{ID: "prop/budget-prune-monotone", Clauses: []string{"PRN-5"}, Capability: protocol.CapBudget,
			Doc:   "a larger target ratio never removes more messages than a smaller one",
			Check: checkPruneMonotone, Examples: budgetEdges("PRN-5", func(s *session, c budgetCase) {
				for _, smaller := range []string{"0.79", "0.5"} {
					pruneMonotone(s, c, json.RawMessage(smaller), json.RawMessage("0.8"), false)
					pruneMonotone(s, c, json.RawMessage(smaller), json.RawMessage("0.8"), true)
				}
			})},
		{ID: "prop/budget-prune-oldest-first", Clauses: []string{"PRN-1"}, Capability: protocol.CapBudget,
			Doc:   "pruning removes exactly the oldest units after the first message's unit, one by one until the count is strictly below the target",
			Check: checkPruneOldestFirst, Examples: budgetEdges("PRN-1", pruneOldestFirst)},
		{ID: "prop/budget-check-thresholds", Clauses: []string{"THR-1", "THR-2"}, Capability: protocol.CapBudget,
			Doc:   "budget.check is approaching exactly above 80% of the limit and at the limit exactly above 95%, compared exactly, at and around the boundaries",
			Check: checkThresholds, Examples: thresholdEdges()},
		// Capability loop: loop.go.
		{ID: "prop/loop-requests-valid-and-bounded", Clauses: []string{"LOOP-6", "LOOP-7", "LOOP-1", "LOOP-2", "LOOP-3", "LOOP-5"}, Capability: protocol.CapLoop,
			Doc:   "over random runs (both formats, parallel calls or one per message, caps, preserve settings, summaries that succeed, fail or come back empty) every request is valid for its provider, starts with the run's first message and ends with the message appended last, and stays within max_messages; every iteration's metrics count its state and warn above 80% of the cap",
			Check: checkLoop, Examples: loopEdges()},
	}, trimmerProperties()...)
}
