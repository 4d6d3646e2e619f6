package steps

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/deviation"
)

// historyTable is the steps of the capability history.
var historyTable = newTable([]def[historySteps]{
	{given, `^the (OpenAI|Anthropic) conversation: (.+)$`, (*historySteps).notatedConversation},
	{when, `^the history is classified$`, (*historySteps).classify},
	{when, `^the history is pruned$`, (*historySteps).prune},
	{when, `^the pruned history is pruned again$`, (*historySteps).pruneAgain},
	{when, `^the history is built with max_messages (\d+)$`, (*historySteps).build},
	{when, `^the history is built with max_messages (-?[0-9.e"a-z]+) as written$`, (*historySteps).buildRaw},
	{then, `^the classes are (.+)$`, (*historySteps).classesAre},
	{then, `^the units are (.+)$`, (*historySteps).unitsAre},
	{then, `^the pruned history is messages? ([0-9, \-]+|none)$`, (*historySteps).prunedIs},
	{then, `^the pruned history is the input unchanged$`, (*historySteps).prunedIsInput},
	{then, `^the removed positions are messages? ([0-9, \-]+|none)$`, (*historySteps).removedAre},
	{then, `^the built history is messages? ([0-9, \-]+|none)$`, (*historySteps).builtIs},
	{diagnostic, `^the build warns "([a-z_]+)" about messages? ([0-9, \-]+)$`, (*historySteps).buildWarns},
	{diagnostic, `^the build raises no warnings$`, (*historySteps).buildNoWarnings},
})

// historySteps are the steps of the capability history, with the state
// they keep in a scenario.
type historySteps struct {
	*world

	classifyRes *protocol.HistoryClassifyResult
	pruneRes    *protocol.HistoryPruneResult
	buildRes    *protocol.HistoryBuildResult
}

var notationItem = regexp.MustCompile(`^(system|user|assistant|call|result)(?:\(([a-z0-9_ ]+)\))?$`)

// notatedConversation expands the scenario notation (features/README.md)
// into messages of one provider format. Contents are unique per position so
// that every returned message can be identified.
func (w *historySteps) notatedConversation(format, list string) error {
	anthropic := format == "Anthropic"
	var msgs []json.RawMessage
	for i, item := range strings.Split(list, ",") {
		m := notationItem.FindStringSubmatch(strings.TrimSpace(item))
		if m == nil {
			return fmt.Errorf("scenario error: %q is not system, user, assistant, call(ids) or result(ids)", item)
		}
		pos, ids := i+1, strings.Fields(m[2])
		var v any
		switch m[1] {
		case "system":
			v = map[string]any{"role": "system", "content": fmt.Sprintf("system %d", pos)}
		case "user":
			v = map[string]any{"role": "user", "content": fmt.Sprintf("user %d", pos)}
		case "assistant":
			v = map[string]any{"role": "assistant", "content": fmt.Sprintf("assistant %d", pos)}
		case "call":
			if len(ids) == 0 {
				return fmt.Errorf("scenario error: call needs ids, e.g. call(a b)")
			}
			if anthropic {
				blocks := []any{map[string]any{"type": "text", "text": fmt.Sprintf("calling %d", pos)}}
				for _, id := range ids {
					blocks = append(blocks, map[string]any{"type": "tool_use", "id": id, "name": "read_file", "input": map[string]any{"path": id + ".txt"}})
				}
				v = map[string]any{"role": "assistant", "content": blocks}
			} else {
				var calls []any
				for _, id := range ids {
					calls = append(calls, map[string]any{"id": id, "type": "function", "function": map[string]any{"name": "read_file", "arguments": `{"path":"` + id + `.txt"}`}})
				}
				v = map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}
			}
		case "result":
			switch {
			case len(ids) == 0:
				return fmt.Errorf("scenario error: result needs ids, e.g. result(a)")
			case anthropic:
				var blocks []any
				for _, id := range ids {
					blocks = append(blocks, map[string]any{"type": "tool_result", "tool_use_id": id, "content": fmt.Sprintf("result %d for %s", pos, id)})
				}
				v = map[string]any{"role": "user", "content": blocks}
			case len(ids) > 1:
				return fmt.Errorf("scenario error: an OpenAI tool message answers one id; write result(a), result(b)")
			default:
				v = map[string]any{"role": "tool", "tool_call_id": ids[0], "content": fmt.Sprintf("result %d", pos)}
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		msgs = append(msgs, b)
	}
	w.input = msgs
	return nil
}

func (w *historySteps) classify() error {
	return callInto(w.world, protocol.MethodHistoryClassify, protocol.HistoryClassifyParams{Messages: w.nonNilInput()}, &w.classifyRes)
}

func (w *historySteps) prune() error {
	return callInto(w.world, protocol.MethodHistoryPrune, protocol.HistoryPruneParams{Messages: w.nonNilInput()}, &w.pruneRes)
}

func (w *historySteps) pruneAgain() error {
	if err := w.needResult(w.pruneRes != nil, "pruned"); err != nil {
		return err
	}
	w.input = w.pruneRes.Messages
	return w.prune()
}

func (w *historySteps) build(max int) error {
	return w.buildRaw(strconv.Itoa(max))
}

func (w *historySteps) buildRaw(max string) error {
	return callInto(w.world, protocol.MethodHistoryBuild, protocol.HistoryBuildParams{Messages: w.nonNilInput(), MaxMessages: json.RawMessage(max)}, &w.buildRes)
}

func (w *historySteps) classesAre(list string) error {
	if err := w.needResult(w.classifyRes != nil, "classified"); err != nil {
		return err
	}
	want := strings.Split(strings.ReplaceAll(list, " ", ""), ",")
	got := w.classifyRes.Classes
	for i := 0; i < max(len(want), len(got)); i++ {
		switch {
		case i >= len(got):
			return w.failf("message %d (%s) has no class; wanted %s", i+1, describe(w.input[i]), want[i])
		case i >= len(want):
			return w.failf("got %d classes for %d messages", len(got), len(want))
		case got[i] != want[i]:
			return w.failf("message %d (%s) is classified %s, want %s", i+1, describe(w.input[i]), got[i], want[i])
		}
	}
	return nil
}

// unitsAre reads "1; 2-4; 5" as units of 1-based positions.
func (w *historySteps) unitsAre(list string) error {
	if err := w.needResult(w.classifyRes != nil, "classified"); err != nil {
		return err
	}
	var want [][2]int
	for _, part := range strings.Split(list, ";") {
		pos, err := parseList(part, len(w.input))
		if err != nil || len(pos) == 0 {
			return fmt.Errorf("scenario error: bad unit %q", part)
		}
		want = append(want, [2]int{pos[0] - 1, pos[len(pos)-1]})
	}
	if fmt.Sprint(want) != fmt.Sprint(w.classifyRes.Units) {
		return w.differs(deviation.Parts{Want: fmt.Sprint(want), Got: fmt.Sprint(w.classifyRes.Units)}, "units differ (as 0-based [start end) pairs):\n  wanted %v\n  got    %v", want, w.classifyRes.Units)
	}
	return nil
}

func (w *historySteps) prunedIs(list string) error {
	if err := w.needResult(w.pruneRes != nil, "pruned"); err != nil {
		return err
	}
	return w.compareInput("pruned history", w.pruneRes.Messages, list)
}

func (w *historySteps) prunedIsInput() error {
	if err := w.needResult(w.pruneRes != nil, "pruned"); err != nil {
		return err
	}
	return w.compareList("pruned history", w.pruneRes.Messages, w.input, allIndexes(len(w.input)))
}

func (w *historySteps) removedAre(list string) error {
	if err := w.needResult(w.pruneRes != nil, "pruned"); err != nil {
		return err
	}
	return w.removedPositions(w.pruneRes.Removed, list)
}

func (w *historySteps) builtIs(list string) error {
	if err := w.needResult(w.buildRes != nil, "built"); err != nil {
		return err
	}
	return w.compareInput("built history", w.buildRes.Messages, list)
}

func (w *historySteps) buildWarns(code, list string) error {
	if err := w.needResult(w.buildRes != nil, "built"); err != nil {
		return err
	}
	want, err := parseList(list, len(w.input))
	if err != nil {
		return err
	}
	var seen []string
	for _, r := range w.buildRes.Warnings {
		got := oneBased(r.Indexes)
		if r.Code == code && fmt.Sprint(got) == fmt.Sprint(want) {
			return nil
		}
		seen = append(seen, fmt.Sprintf("%s about %v", r.Code, got))
	}
	return w.failf("wanted a warning %q about messages %v (1-based); got %v", code, want, seen)
}

func (w *historySteps) buildNoWarnings() error {
	if err := w.needResult(w.buildRes != nil, "built"); err != nil {
		return err
	}
	if len(w.buildRes.Warnings) > 0 {
		return w.failf("wanted no warnings, got %+v", w.buildRes.Warnings)
	}
	return nil
}
