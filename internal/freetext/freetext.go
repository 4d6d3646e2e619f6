// Package freetext knows which members of a result are free text, written
// for people, that no check compares (spec/golden.md): the message of
// every warning and build repair, the error of a budget event
// (context_compression_failed, PREP-3), and the message of a loop.run
// event whose text LOOP-4 and LOOP-5 do not fix. The steps and the golden
// replay leave out the same members, from this one list.
package freetext

import (
	"encoding/json"
	"slices"
)

// members are, per result member holding an array of objects, the
// members of its elements that are free text.
var members = map[string][]string{
	"warnings": {"message"},
	"events":   {"error"},
}

// LoopTexts are the loop events whose message the spec fixes (LOOP-4,
// LOOP-5); every other event of loop.run is a warning passed on, whose
// message is for people.
var LoopTexts = []string{"conversation_trimmed", "conversation_metrics", "conversation_approaching_limit"}

// Drop removes the free text from the elements of v, the decoded value of
// the result member named name.
func Drop(name string, v any) {
	list, ok := v.([]any)
	if !ok {
		return
	}
	for _, e := range list {
		if obj, ok := e.(map[string]any); ok {
			for _, m := range members[name] {
				delete(obj, m)
			}
		}
	}
}

// DropLoop removes the free messages from the decoded iterations of a
// loop.run result.
func DropLoop(iterations any) {
	its, _ := iterations.([]any)
	for _, it := range its {
		obj, _ := it.(map[string]any)
		DropLoopEvents(obj["events"])
	}
}

// DropLoopEvents removes the free messages from one iteration's events.
func DropLoopEvents(events any) {
	list, _ := events.([]any)
	for _, e := range list {
		if ev, ok := e.(map[string]any); ok {
			if code, _ := ev["code"].(string); !slices.Contains(LoopTexts, code) {
				delete(ev, "message")
			}
		}
	}
}

// Without is raw, the JSON of the result member named name, without its
// free text; raw itself when it is not JSON.
func Without(name string, raw []byte) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	Drop(name, v)
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}
