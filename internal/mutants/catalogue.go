package mutants

// The catalogue: every faulty variant, one entry each, sorted by name, so
// that `conform mutants` and a reader see the same list. The entries of
// capabilities budget and window.summarize are in catalogue_budget.go and
// catalogue_summarize.go, the trimmers' and the outside review's with
// their engines; the engines are in the file of their capability.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"sort"

	"github.com/convspec/convspec/internal/fault"
	"github.com/convspec/convspec/internal/server"
	"github.com/convspec/convspec/reference/config"
	"github.com/convspec/convspec/reference/history"
	"github.com/convspec/convspec/reference/loop"
	"github.com/convspec/convspec/reference/message"
	"github.com/convspec/convspec/reference/window"
)

// All lists the catalogue, sorted by name; each variant's engine is in the
// file of its capability.
func All() []Mutant {
	ms := []Mutant{
		{Name: "build-counts-units", Clauses: []string{"BUILD-4"},
			Bug:    "measures max_messages in units, a tool call and its results counting as one, so the output holds more messages than the bound",
			Engine: startingAt(unitCountStart)}, {Name: "build-dangling-call", Clauses: []string{"BUILD-2"},
			Bug: "does not repair stored history, so an unanswered tool call or orphaned result is sent on",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				return history.Result{Messages: history.Window(pruned, max)}, nil
			}}}, {Name: "build-drops-oversized-unit", Clauses: []string{"BUILD-4"},
			Bug:    "keeps only what fits, so when the last unit alone is longer than max_messages only the system prompt is sent",
			Engine: startingAt(fitOnlyStart)}, {Name: "build-ignores-exchanges", Clauses: []string{"BUILD-3"},
			Bug:    "starts the window at any message boundary instead of at a user prompt, so the model sees a reply without its question",
			Engine: startingAt(anyUnitStart)}, {Name: "build-prunes-after-window", Clauses: []string{"BUILD-1"},
			Bug: "applies the window before pruning, wasting the budget on orphaned prompts",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				sane, warnings := history.Sanitize(msgs)
				pruned, _ := history.Prune(history.Window(sane, max))
				return history.Result{Messages: pruned, Warnings: warnings}, nil
			}}}, {Name: "build-prunes-before-repair", Clauses: []string{"BUILD-5", "BUILD-1"},
			Bug: "prunes before repairing, so dropping a broken tool call leaves two user prompts adjacent",
			Engine: replaced{build: func(msgs []message.Message, max int) (history.Result, error) {
				pruned, _ := history.Prune(msgs)
				sane, warnings := history.Sanitize(pruned)
				return history.Result{Messages: history.Window(sane, max), Warnings: warnings}, nil
			}}}, {Name: "cap-off-by-one", Clauses: []string{"WIN-4", "WIN-6"},
			Bug:    "keeps max − h − t + 1 middle messages, one over the cap",
			Engine: planMutant(func(c window.Config, units []message.Unit) window.Plan { return shiftKeep(c.Plan(units), 1) })}, {Name: "classify-openai-only", Clauses: []string{"CLS-1", "UNIT-1"},
			Bug:    "knows only the OpenAI tool format: a tool_use block is assistant text, a user message of tool_result blocks a user prompt",
			Engine: classifyMutant{classify: openAIOnlyClassify}}, {Name: "config-block-replaces-shorthand", Clauses: []string{"CONF-3"},
			Bug: "lets a conversation block without max_messages reset the shorthand's cap to the default",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err == nil && res.MaxMessagesFrom == config.SourceShorthand && hasBlock(text) {
					res.Config.MaxMessages, res.MaxMessagesFrom = window.DefaultMaxMessages, config.SourceDefault
				}
				return res, err
			}}}, {Name: "config-error-without-path", Clauses: []string{"CONF-4"},
			Bug: "reports an invalid config without the field path",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if ce, ok := err.(*config.Error); ok {
					return res, &config.Error{Reason: ce.Reason}
				}
				return res, err
			}}}, {
			Name:    "config-json-duplicates-last",
			Bug:     "reads JSON config files with a plain JSON parser, which silently keeps the last of a key given twice",
			Clauses: []string{"CONF-6"},
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				var ce *config.Error
				if f != config.JSON || !errors.As(err, &ce) || ce.Reason != "is given twice" {
					return res, err
				}
				dec := json.NewDecoder(bytes.NewReader(text))
				dec.UseNumber()
				var v any
				if dec.Decode(&v) != nil {
					return res, err
				}
				last, _ := json.Marshal(v) // encoding/json kept the last value of each name
				return config.Resolve(last, f)
			}},
		}, {Name: "config-null-is-zero", Clauses: []string{"CFG-2"},
			Bug:    "reads a member that is present but null as 0 (JavaScript's Number(null)), so null max_messages disables trimming",
			Engine: parsedWith{parse: nullAsZero}}, {Name: "config-requires-execution", Clauses: []string{"CONF-2"},
			Bug: "reads execution.max_conversation_messages without checking that execution exists, failing on a file without it",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil {
					return res, err
				}
				if doc := parseDoc(text); doc == nil || doc["execution"] == nil {
					return config.Resolved{}, errors.New("TypeError: cannot read properties of undefined (reading 'max_conversation_messages')")
				}
				return res, nil
			}}}, {Name: "config-shorthand-ignored", Clauses: []string{"CONF-1", "CONF-3"},
			Bug: "reads only execution.conversation, so max_conversation_messages alone leaves the cap at 100",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err == nil && res.MaxMessagesFrom == config.SourceShorthand && !hasBlock(text) {
					res.Config.MaxMessages, res.MaxMessagesFrom = window.DefaultMaxMessages, config.SourceDefault
				}
				return res, err
			}}}, {Name: "config-silent-override", Clauses: []string{"CONF-3", "CONF-7"},
			Bug: "lets the block override the shorthand's cap without a warning",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				var kept []window.Warning
				for _, w := range res.Warnings {
					if w.Code != config.CodeShorthandOverridden {
						kept = append(kept, w)
					}
				}
				res.Warnings = kept
				return res, err
			}}}, {Name: "config-strict-host-keys", Clauses: []string{"CONF-5"},
			Bug: "decodes the whole file with unknown fields refused, so the host's own keys fail",
			Engine: replaced{resolve: func(text []byte, f config.Format) (config.Resolved, error) {
				res, err := config.Resolve(text, f)
				if err != nil {
					return res, err
				}
				if path := hostKey(parseDoc(text)); path != "" {
					return config.Resolved{}, &config.Error{Path: path, Reason: "field not found in type Config"}
				}
				return res, nil
			}}}, {Name: "config-type-panics", Clauses: []string{"PROTO-2", "CFG-3"},
			Bug:    "reads counts with an unchecked type assertion, so a string where a count belongs panics and is answered internal_error",
			Engine: parsedWith{parse: assertingParse}}, {Name: "create-no-warning", Clauses: []string{"CFG-6"},
			Bug:    "warns preserve_exceeds_max only when a trim takes the head-and-tail path, never at creation",
			Engine: createMutant{warnings: func(window.Config, []window.Warning) []window.Warning { return nil }}}, {Name: "create-warning-strict", Clauses: []string{"CFG-6"},
			Bug: "warns preserve_exceeds_max at creation only when head and tail exceed the cap (>), not when they fill it",
			Engine: createMutant{warnings: func(c window.Config, ws []window.Warning) []window.Warning {
				if c.PreserveFirstN+c.PreserveLastN == c.MaxMessages {
					return nil
				}
				return ws
			}}}, {Name: "defaults-not-applied", Clauses: []string{"CFG-1"},
			Bug:    "leaves omitted config members at zero instead of 100 / false / 1 / 20",
			Engine: configMutant(zeroDefaults)}, {Name: "estimate-bytes", Clauses: []string{"EST-2", "EST-3"},
			Bug:    "counts UTF-8 bytes instead of UTF-16 code units (Go's len)",
			Engine: estimateMutant(bytesEstimate)}, {Name: "estimate-counts-role", Clauses: []string{"EST-5"},
			Bug:    "counts the role as well as the content",
			Engine: estimateMutant(roleCountingEstimate)}, {Name: "estimate-floor", Clauses: []string{"EST-1"},
			Bug:    "rounds the estimate down (integer division) instead of up",
			Engine: estimateMutant(floorEstimate)}, {Name: "estimate-go-json", Clauses: []string{"EST-3"},
			Bug:    "serializes content with Go's encoding/json (sorted keys, <>& escaped) instead of JSON.stringify",
			Engine: estimateMutant(goJSONEstimate)}, {Name: "estimate-null-is-four", Clauses: []string{"EST-4"},
			Bug:    "counts null content as JSON.stringify(null), 4 characters",
			Engine: estimateMutant(nullCountingEstimate)}, {Name: "estimate-per-message", Clauses: []string{"EST-1"},
			Bug:    "rounds up per message and sums, instead of dividing the total once",
			Engine: estimateMutant(perMessageEstimate)}, {Name: "evict-newest-middle", Clauses: []string{"WIN-4"},
			Bug:    "keeps the oldest middle messages and evicts the most recent ones",
			Engine: trimMutant(newestEvictedTrim)}, {Name: "handshake-without-name", Clauses: []string{"PROTO-1"},
			Bug:    "takes its name from build metadata that is not set, so the handshake names no implementation",
			Engine: namelessEngine{}}, {Name: "head-tail-overlap", Clauses: []string{"WIN-2", "WIN-5"},
			Bug:    "takes the tail as the last t messages even when they overlap the head, so messages appear twice",
			Engine: trimMutant(overlappingTrim)}, {Name: "loop-approaching-at-80", Clauses: []string{"LOOP-5"},
			Bug:    "warns at exactly 80% of the cap instead of above it",
			Faults: fault.Of(fault.LoopApproachingInclusive)}, {Name: "loop-evicts-first-message", Clauses: []string{"LOOP-2"},
			Bug: "honours preserve_first_n 0 in the loop, dropping the system prompt",
			Engine: replaced{runLoop: editingEvents(func(ctx context.Context, r loop.Run) (loop.Result, error) {
				w, err := window.New(r.Config)
				if err != nil {
					return loop.Result{}, err
				}
				return loop.ExecuteWith(ctx, r, w)
			}, func(_ loop.Run, it loop.IterationResult) []window.Warning {
				return withoutCode(it.Events, loop.CodeFirstRaised)
			})}}, {Name: "loop-hands-on-untrimmed-state", Clauses: []string{"LOOP-3"},
			Bug: "returns the conversation state after the final reply without trimming it",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return onlyWhen(w, func(msgs []message.Message) bool { return msgs[len(msgs)-1].Class() != message.AssistantText })
			})}}, {Name: "loop-no-trim-event", Clauses: []string{"LOOP-4"},
			Bug: "trims silently, without the conversation_trimmed log event",
			Engine: replaced{runLoop: editingEvents(loop.Execute, func(_ loop.Run, it loop.IterationResult) []window.Warning {
				return withoutCode(it.Events, loop.CodeTrimmed)
			})}}, {Name: "loop-tool-result-as-prompt", Clauses: []string{"LOOP-6"},
			Bug: "classifies an Anthropic tool_result message as a user prompt, so the window cuts between a tool_use and its result",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return trimmerFunc(func(_ context.Context, msgs []message.Message, _ window.Summarizer) (window.Result, error) {
					units, err := message.Units(msgs)
					if err != nil {
						return window.Result{}, err
					}
					var split []message.Unit
					for _, u := range units {
						if msgs[u.Start].Role() == "assistant" && u.Len() > 1 && msgs[u.Start+1].Role() == "user" {
							for i := u.Start; i < u.End; i++ {
								split = append(split, message.Unit{Start: i, End: i + 1})
							}
							continue
						}
						split = append(split, u)
					}
					return w.Apply(w.Config().Plan(split), msgs), nil
				})
			})}}, {Name: "loop-trims-once-per-iteration", Clauses: []string{"LOOP-1", "LOOP-7", "LOOP-3"},
			Bug: "trims only before the first model call of an iteration, so the array grows through the tool-call loop",
			Engine: replaced{runLoop: withTrimmer(func(w *window.Window) loop.Trimmer {
				return onlyWhen(w, func(msgs []message.Message) bool { return msgs[len(msgs)-1].Class() == message.UserPrompt })
			})}}, {Name: "message-role-enum", Clauses: []string{"MSG-1"},
			Bug:    "validates role against system/user/assistant/tool, refusing developer and every other role",
			Engine: strictMessages{check: knownRolesOnly}}, {Name: "metrics-input-tokens", Clauses: []string{"MET-1"},
			Bug:    "reports estimatedTokens of the input instead of what is kept",
			Engine: resultMutant(inputTokenMetrics)}, {
			Name:    "metrics-only-when-trimmed",
			Bug:     "returns early when nothing needs trimming, with zero metrics",
			Clauses: []string{"MET-2"},
			Engine: engine{window: func(c window.Config) server.Window {
				w, _ := window.New(c)
				return trimmerFunc(func(ctx context.Context, msgs []message.Message, s window.Summarizer) (window.Result, error) {
					res, err := w.TrimWith(ctx, msgs, s)
					if err == nil && (c.MaxMessages == 0 || len(msgs) <= c.MaxMessages) {
						res.Metrics = window.Metrics{} // the early return
					}
					return res, err
				})
			}},
		}, {Name: "negative-accepted", Clauses: []string{"CFG-3"},
			Bug:    "clamps negative counts to 0 instead of refusing them",
			Engine: configMutant(clampNegatives)}, {Name: "no-trim-warning", Clauses: []string{"WIN-3"},
			Bug:    "never warns preserve_exceeds_max on a trim (only at creation)",
			Engine: resultMutant(withoutWarnings)}, {Name: "prune-drops-between", Clauses: []string{"PRUNE-3"},
			Bug:    "drops everything between the members of a run (system messages, tool results), not only the orphaned prompts",
			Engine: replaced{prune: pruneDroppingBetween}}, {Name: "prune-keeps-first", Clauses: []string{"PRUNE-1"},
			Bug:    "keeps the first user prompt of a run instead of the last",
			Engine: replaced{prune: pruneWith(isPrompt, message.Message.IsAssistant, true)}}, {Name: "prune-remembers-removed", Clauses: []string{"MSG-3", "PRUNE-3"},
			Bug:    "keeps the removed positions in a field that is never reset, so every prune reports those of the earlier ones too",
			Engine: replaced{prune: rememberingPrune()}}, {Name: "prune-single-pass", Clauses: []string{"PRUNE-1", "PRUNE-4"},
			Bug:    "after removing a prompt forgets the one that replaced it, so a run of three keeps two and a second prune removes more",
			Engine: replaced{prune: singlePassPrune}}, {Name: "prune-tool-result-as-prompt", Clauses: []string{"CLS-1", "PRUNE-2"},
			Bug:    "treats an Anthropic user message of tool_result blocks as a user prompt, pruning it and orphaning its call",
			Engine: replaced{prune: pruneWith(func(m message.Message) bool { return m.Role() == "user" }, message.Message.IsAssistant, false)}}, {Name: "prune-tool-result-breaks-run", Clauses: []string{"PRUNE-2"},
			Bug: "lets a tool result end a run of user prompts, so orphaned prompts before it survive",
			Engine: replaced{prune: pruneWith(isPrompt, func(m message.Message) bool {
				return m.IsAssistant() || m.Class() == message.ToolResult
			}, false)}}, {Name: "rewrites-messages", Clauses: []string{"MSG-2"},
			Bug:    "rebuilds kept messages from role and content, dropping every other member",
			Engine: resultMutant(rewritingTrim)}, {Name: "tail-zero-keeps-all", Clauses: []string{"WIN-2"},
			Bug:    "takes the tail with slice(-t), which for t = 0 is the whole conversation",
			Engine: trimMutant(sliceMinusZeroTrim)}, {Name: "tokens-special-text", Clauses: []string{"TOK-1"},
			Bug:    "encodes with tiktoken's encode(allowed_special=\"all\"), so the text <|endoftext|> becomes the special token 100257",
			Engine: tokenMutant{encode: encodeWithSpecials}}, {Name: "tool-call-schema", Clauses: []string{"CLS-2"},
			Bug:    "validates tool members against the providers' full schemas, refusing a call without function or name, or a result without content",
			Engine: strictMessages{check: fullToolSchema}}, {Name: "trims-at-cap", Clauses: []string{"WIN-1", "WIN-8"},
			Bug:    "trims when n == max (`n < max` for the no-op test), warning about a conversation that needs no trim",
			Engine: planMutant(trimAtCapPlan)}, {Name: "unknown-config-ignored", Clauses: []string{"CFG-4"},
			Bug:    "ignores unknown config members, so a typo silently falls back to a default",
			Engine: configMutant(ignoreUnknown)}, {Name: "window-accepts-broken-tools", Clauses: []string{"UNIT-2"},
			Bug:    "trims a conversation with an orphaned tool result or an unanswered call instead of refusing it",
			Engine: trimMutant(uncheckedTrim)}, {Name: "window-resumes-at-last-cut", Clauses: []string{"WIN-7"},
			Bug:    "remembers how many messages its trims evicted and skips that many after the head on the next trim, as if every call passed the full, growing history",
			Engine: engine{window: func(c window.Config) server.Window { return newResumingWindow(c) }}}, {Name: "window-splits-head-unit", Clauses: []string{"WIN-9", "UNIT-3"},
			Bug:    "ends the preserved head after preserve_first_n messages even inside a tool-call unit",
			Engine: planMutant(splitPlan("head"))}, {Name: "window-splits-middle-unit", Clauses: []string{"WIN-9", "UNIT-3"},
			Bug:    "keeps exactly max − h − t middle messages even when that cuts a tool-call unit",
			Engine: planMutant(splitPlan("middle"))}, {Name: "window-splits-tail-unit", Clauses: []string{"WIN-9", "UNIT-3"},
			Bug:    "starts the preserved tail preserve_last_n messages from the end even inside a tool-call unit, orphaning tool results",
			Engine: planMutant(splitPlan("tail"))}, {Name: "zero-max-trims", Clauses: []string{"CFG-5"},
			Bug:    "treats max_messages 0 as a cap of zero instead of disabling trimming",
			Engine: trimMutant(zeroMaxTrim)}}
	ms = append(ms, budgetCatalogue()...)
	ms = append(ms, summarizeCatalogue()...)
	ms = append(ms, trimmerMutants()...)
	ms = append(ms, domainMutants()...)
	ms = append(ms, outsiderMutants()...)
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	return withFaults(ms)
}
